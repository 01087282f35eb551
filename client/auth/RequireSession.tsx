import type { ReactNode } from 'react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { paths } from '../paths';
import { storedRole } from './claims';
import { loginPathFor } from './return-to';
import { isSignedIn } from './session';

type RequireSessionProps = {
  /** Admin pages send everyone else to /home. */
  adminOnly?: boolean;
  children: ReactNode;
};

/**
 * The route guard: without a stored user id, off to sign-in, which comes back to this page
 * afterwards. `replace`, so Back does not return to a page that would only redirect again. The
 * server enforces every permission on its own; this only keeps people off pages that would fail
 * for them.
 */
export function RequireSession({ adminOnly = false, children }: RequireSessionProps) {
  const [location] = useLocation();
  const search = useSearch();
  if (!isSignedIn()) return <Redirect to={loginPathFor(pageOf(location, search))} replace />;
  if (adminOnly && storedRole() !== 'admin') return <Redirect to={paths.home} replace />;
  return children;
}

/** The guarded page's address; the hash (a checklist item's anchor) is the browser's own. */
function pageOf(location: string, search: string): string {
  const hash = window.location.pathname === location ? window.location.hash : '';
  return `${location}${search ? `?${search}` : ''}${hash}`;
}
