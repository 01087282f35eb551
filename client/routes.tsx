import type { ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { RequireSession } from './auth/RequireSession';
import { isSignedIn } from './auth/session';
import { AppLayout } from './layout/AppLayout';
import { AdminTransaction } from './pages/AdminTransaction';
import { AdminTransactions } from './pages/AdminTransactions';
import { Banner } from './pages/Banner';
import { Forms } from './pages/Forms';
import { Home } from './pages/Home';
import { Login } from './pages/Login';
import { NewPassword } from './pages/NewPassword';
import { NotFound } from './pages/NotFound';
import { Notifications } from './pages/Notifications';
import { Register } from './pages/Register';
import { ResetPassword } from './pages/ResetPassword';
import { Settings } from './pages/Settings';
import { Templates } from './pages/Templates';
import { Transaction } from './pages/Transaction';
import { Tutorials } from './pages/Tutorials';
import { Users } from './pages/Users';
import { Verification } from './pages/Verification';
import { VerifyEmail } from './pages/VerifyEmail';
import { decodeParam, paths, routeTo } from './paths';

function RootRedirect() {
  // `replace`, so Back from the target page does not land on / and bounce forward again.
  return <Redirect to={isSignedIn() ? paths.home : paths.login} replace />;
}

/** A page behind the guard, inside the application shell. */
function SignedIn({ adminOnly = false, children }: { adminOnly?: boolean; children: ReactNode }) {
  return (
    <RequireSession adminOnly={adminOnly}>
      <AppLayout>{children}</AppLayout>
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
