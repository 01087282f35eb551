import { Redirect, Route, Switch } from 'wouter';
import { isSignedIn } from './auth/session';
import { Home } from './pages/Home';
import { Login } from './pages/Login';
import { NotFound } from './pages/NotFound';

/** Every client route: spec section 2, plus the two e-mailed links of DESIGN.md section 4. */
export const paths = {
  root: '/',
  login: '/auth/login',
  register: '/auth/register',
  reset: '/auth/reset',
  verification: '/auth/verification/:type/:email',
  verifyEmail: '/auth/verify-email/:token',
  newPassword: '/auth/new-password/:token',
  home: '/home',
  transaction: '/home/transactions/:id',
  // The spec's other reading of the user detail path; DESIGN.md section 9.5 redirects it.
  transactionAlias: '/transactions/:id',
  forms: '/forms',
  tutorials: '/tutorials',
  settings: '/settings',
  users: '/users',
  adminTransactions: '/adminTransactions',
  adminTransaction: '/adminTransactions/transactions/:id',
  templates: '/admin/forms/transactions/view',
  banner: '/banner',
  notifications: '/notifications',
  notFound: '/not-found',
} as const;

export type VerificationType = 'register' | 'reset';

// Ids, tokens and e-mail addresses may hold characters that would split or end a path segment.
export const routeTo = {
  verification: (type: VerificationType, email: string) =>
    `/auth/verification/${type}/${encodeURIComponent(email)}`,
  transaction: (id: string) => `/home/transactions/${encodeURIComponent(id)}`,
  adminTransaction: (id: string) => `/adminTransactions/transactions/${encodeURIComponent(id)}`,
};

function RootRedirect() {
  // `replace`, so Back from the target page does not land on / and bounce forward again.
  return <Redirect to={isSignedIn() ? paths.home : paths.login} replace />;
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.root} component={RootRedirect} />
      <Route path={paths.login} component={Login} />
      <Route path={paths.home} component={Home} />
      <Route path={paths.notFound} component={NotFound} />
      {/* Unknown paths keep their URL and show the 404 page in place. */}
      <Route component={NotFound} />
    </Switch>
  );
}
