import type { ReactNode } from 'react';
import { Redirect } from 'wouter';
import { paths } from '../paths';
import { storedRole } from './claims';
import { isSignedIn } from './session';

type RequireSessionProps = {
  /** Admin pages send everyone else to /home (DESIGN.md section 9.1). */
  adminOnly?: boolean;
  children: ReactNode;
};

/**
 * The route guard of spec section 2: without a stored user id, off to sign-in. `replace`, so
 * Back does not return to a page that would only redirect again. The server enforces every
 * permission on its own; this only keeps people off pages that would fail for them.
 */
export function RequireSession({ adminOnly = false, children }: RequireSessionProps) {
  if (!isSignedIn()) return <Redirect to={paths.login} replace />;
  if (adminOnly && storedRole() !== 'admin') return <Redirect to={paths.home} replace />;
  return children;
}
