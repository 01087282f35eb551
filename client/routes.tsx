import { Center, Loader } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { RequireSession } from './auth/RequireSession';
import { isSignedIn } from './auth/session';
import { AppLayout } from './layout/AppLayout';
import { Login } from './pages/Login';
import { NewPassword } from './pages/NewPassword';
import { NotFound } from './pages/NotFound';
import { Register } from './pages/Register';
import { ResetPassword } from './pages/ResetPassword';
import { Verification } from './pages/Verification';
import { VerifyEmail } from './pages/VerifyEmail';
import { decodeParam, paths, routeTo } from './paths';

/**
 * The signed-in pages load on demand: the sign-in screens and the shell stay small, and each
 * feature's code (tables, dialogs, later the banner editor's canvas) arrives when it is opened.
 */
const AdminTransaction = lazy(() =>
  import('./pages/AdminTransaction').then((m) => ({ default: m.AdminTransaction })),
);
const AdminTransactions = lazy(() =>
  import('./pages/AdminTransactions').then((m) => ({ default: m.AdminTransactions })),
);
const Banner = lazy(() => import('./pages/Banner').then((m) => ({ default: m.Banner })));
const Forms = lazy(() => import('./pages/Forms').then((m) => ({ default: m.Forms })));
const Home = lazy(() => import('./pages/Home').then((m) => ({ default: m.Home })));
const Notifications = lazy(() => import('./pages/Notifications').then((m) => ({ default: m.Notifications })));
const Settings = lazy(() => import('./pages/Settings').then((m) => ({ default: m.Settings })));
const Templates = lazy(() => import('./pages/Templates').then((m) => ({ default: m.Templates })));
const Transaction = lazy(() => import('./pages/Transaction').then((m) => ({ default: m.Transaction })));
const Tutorials = lazy(() => import('./pages/Tutorials').then((m) => ({ default: m.Tutorials })));
const Users = lazy(() => import('./pages/Users').then((m) => ({ default: m.Users })));

function RootRedirect() {
  // `replace`, so Back from the target page does not land on / and bounce forward again.
  return <Redirect to={isSignedIn() ? paths.home : paths.login} replace />;
}

/** A page behind the guard, inside the application shell. */
function SignedIn({ adminOnly = false, children }: { adminOnly?: boolean; children: ReactNode }) {
  return (
    <RequireSession adminOnly={adminOnly}>
      <AppLayout>
        <Suspense
          fallback={
            <Center py="xl">
              <Loader aria-label="Loading page" />
            </Center>
          }
        >
          {children}
        </Suspense>
      </AppLayout>
    </RequireSession>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.root} component={RootRedirect} />

      {/* Signed-out screens: no guard, no shell. */}
      <Route path={paths.login} component={Login} />
      <Route path={paths.register} component={Register} />
      <Route path={paths.reset} component={ResetPassword} />
      <Route path={paths.verification} component={Verification} />
      <Route path={paths.verifyEmail} component={VerifyEmail} />
      <Route path={paths.newPassword} component={NewPassword} />

      {/* Every signed-in route sits at this same place in the tree, so moving between them
          keeps one shell mounted instead of rebuilding it (and refetching its data). */}
      <Route path={paths.home}>
        <SignedIn>
          <Home />
        </SignedIn>
      </Route>
      <Route path={paths.transaction}>
        <SignedIn>
          <Transaction />
        </SignedIn>
      </Route>
      <Route path={paths.transactionAlias}>
        {(params) => <Redirect to={routeTo.transaction(decodeParam(params.id))} replace />}
      </Route>
      <Route path={paths.forms}>
        <SignedIn>
          <Forms />
        </SignedIn>
      </Route>
      <Route path={paths.tutorials}>
        <SignedIn>
          <Tutorials />
        </SignedIn>
      </Route>
      <Route path={paths.settings}>
        <SignedIn>
          <Settings />
        </SignedIn>
      </Route>
      <Route path={paths.banner}>
        <SignedIn>
          <Banner />
        </SignedIn>
      </Route>
      <Route path={paths.notifications}>
        <SignedIn>
          <Notifications />
        </SignedIn>
      </Route>
      <Route path={paths.users}>
        <SignedIn adminOnly>
          <Users />
        </SignedIn>
      </Route>
      <Route path={paths.adminTransactions}>
        <SignedIn adminOnly>
          <AdminTransactions />
        </SignedIn>
      </Route>
      <Route path={paths.adminTransaction}>
        <SignedIn adminOnly>
          <AdminTransaction />
        </SignedIn>
      </Route>
      <Route path={paths.templates}>
        <SignedIn adminOnly>
          <Templates />
        </SignedIn>
      </Route>

      <Route path={paths.notFound} component={NotFound} />
      {/* Unknown paths keep their URL and show the 404 page in place. */}
      <Route component={NotFound} />
    </Switch>
  );
}
