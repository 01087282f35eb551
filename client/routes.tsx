import { Center, Loader } from '@mantine/core';
import { type ReactNode, Suspense } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { RequireSession } from './auth/RequireSession';
import { isSignedIn } from './auth/session';
import { AppLayout } from './layout/AppLayout';
import { type LazyPage, LoadedPage, lazyPage, matchesPattern } from './lazy-page';
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
const AdminTransaction = lazyPage(
  () => import('./pages/AdminTransaction'),
  (m) => m.AdminTransaction,
);
const AdminTransactions = lazyPage(
  () => import('./pages/AdminTransactions'),
  (m) => m.AdminTransactions,
);
const Banner = lazyPage(
  () => import('./pages/Banner'),
  (m) => m.Banner,
);
const Forms = lazyPage(
  () => import('./pages/Forms'),
  (m) => m.Forms,
);
const Home = lazyPage(
  () => import('./pages/Home'),
  (m) => m.Home,
);
const Notifications = lazyPage(
  () => import('./pages/Notifications'),
  (m) => m.Notifications,
);
const Settings = lazyPage(
  () => import('./pages/Settings'),
  (m) => m.Settings,
);
const Templates = lazyPage(
  () => import('./pages/Templates'),
  (m) => m.Templates,
);
const Transaction = lazyPage(
  () => import('./pages/Transaction'),
  (m) => m.Transaction,
);
const Tutorials = lazyPage(
  () => import('./pages/Tutorials'),
  (m) => m.Tutorials,
);
const Users = lazyPage(
  () => import('./pages/Users'),
  (m) => m.Users,
);

/** Which lazy page each signed-in path shows, as in AppRoutes below. */
const LAZY_PAGES: ReadonlyArray<[pattern: string, page: LazyPage]> = [
  [paths.home, Home],
  [paths.transaction, Transaction],
  [paths.forms, Forms],
  [paths.tutorials, Tutorials],
  [paths.settings, Settings],
  [paths.banner, Banner],
  [paths.notifications, Notifications],
  [paths.users, Users],
  [paths.adminTransactions, AdminTransactions],
  [paths.adminTransaction, AdminTransaction],
  [paths.templates, Templates],
];

/**
 * Loads the page that `pathname` shows, if it is a lazy one, so the first render shows it without
 * a loader in between. Never rejects: a page that failed to load is tried again when it renders.
 */
export async function preloadPageAt(pathname: string): Promise<void> {
  const page = LAZY_PAGES.find(([pattern]) => matchesPattern(pattern, pathname))?.[1];
  await page?.preload().catch(() => {});
}

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
          <LoadedPage page={Home} />
        </SignedIn>
      </Route>
      <Route path={paths.transaction}>
        <SignedIn>
          <LoadedPage page={Transaction} />
        </SignedIn>
      </Route>
      <Route path={paths.transactionAlias}>
        {(params) => <Redirect to={routeTo.transaction(decodeParam(params.id))} replace />}
      </Route>
      <Route path={paths.forms}>
        <SignedIn>
          <LoadedPage page={Forms} />
        </SignedIn>
      </Route>
      <Route path={paths.tutorials}>
        <SignedIn>
          <LoadedPage page={Tutorials} />
        </SignedIn>
      </Route>
      <Route path={paths.settings}>
        <SignedIn>
          <LoadedPage page={Settings} />
        </SignedIn>
      </Route>
      <Route path={paths.banner}>
        <SignedIn>
          <LoadedPage page={Banner} />
        </SignedIn>
      </Route>
      <Route path={paths.notifications}>
        <SignedIn>
          <LoadedPage page={Notifications} />
        </SignedIn>
      </Route>
      <Route path={paths.users}>
        <SignedIn adminOnly>
          <LoadedPage page={Users} />
        </SignedIn>
      </Route>
      <Route path={paths.adminTransactions}>
        <SignedIn adminOnly>
          <LoadedPage page={AdminTransactions} />
        </SignedIn>
      </Route>
      <Route path={paths.adminTransaction}>
        <SignedIn adminOnly>
          <LoadedPage page={AdminTransaction} />
        </SignedIn>
      </Route>
      <Route path={paths.templates}>
        <SignedIn adminOnly>
          <LoadedPage page={Templates} />
        </SignedIn>
      </Route>

      <Route path={paths.notFound} component={NotFound} />
      {/* Unknown paths keep their URL and show the 404 page in place. */}
      <Route component={NotFound} />
    </Switch>
  );
}
