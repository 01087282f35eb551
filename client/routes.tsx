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
import { ResetPassword } from './pages/ResetPassword';
import { Verification } from './pages/Verification';
import { VerifyEmail } from './pages/VerifyEmail';
import { decodeParam, paths, routeTo } from './paths';

/** A route whose page loads on demand (the signed-in ones may be for admins only). */
type LazyRoute = { path: string; page: LazyPage; adminOnly?: boolean };

/**
 * The signed-in pages, in the order AppRoutes tries them. They load on demand: the sign-in screens
 * and the shell stay small, and each feature's code (tables, dialogs, the banner editor's canvas)
 * arrives when it is opened.
 */
const SIGNED_IN_ROUTES: readonly LazyRoute[] = [
  {
    path: paths.home,
    page: lazyPage(
      () => import('./pages/Home'),
      (m) => m.Home,
    ),
  },
  {
    path: paths.transaction,
    page: lazyPage(
      () => import('./pages/Transaction'),
      (m) => m.Transaction,
    ),
  },
  {
    path: paths.calendar,
    page: lazyPage(
      () => import('./pages/Calendar'),
      (m) => m.Calendar,
    ),
  },
  {
    path: paths.forms,
    page: lazyPage(
      () => import('./pages/Library'),
      (m) => m.Forms,
    ),
  },
  {
    path: paths.tutorials,
    page: lazyPage(
      () => import('./pages/Library'),
      (m) => m.Tutorials,
    ),
  },
  {
    path: paths.settings,
    page: lazyPage(
      () => import('./pages/Settings'),
      (m) => m.Settings,
    ),
  },
  {
    path: paths.banner,
    page: lazyPage(
      () => import('./pages/Banner'),
      (m) => m.Banner,
    ),
  },
  {
    path: paths.notifications,
    page: lazyPage(
      () => import('./pages/Notifications'),
      (m) => m.Notifications,
    ),
  },
  {
    path: paths.dashboard,
    page: lazyPage(
      () => import('./pages/Dashboard'),
      (m) => m.Dashboard,
    ),
    adminOnly: true,
  },
  {
    path: paths.users,
    page: lazyPage(
      () => import('./pages/Users'),
      (m) => m.Users,
    ),
    adminOnly: true,
  },
  {
    path: paths.offices,
    // Loaded with the Users page, whose office fields it goes with (see pages/Users.tsx).
    page: lazyPage(
      () => import('./pages/Users'),
      (m) => m.Offices,
    ),
    adminOnly: true,
  },
  {
    path: paths.adminTransactions,
    page: lazyPage(
      () => import('./pages/AdminTransactions'),
      (m) => m.AdminTransactions,
    ),
    adminOnly: true,
  },
  {
    path: paths.adminTransaction,
    page: lazyPage(
      () => import('./pages/AdminTransaction'),
      (m) => m.AdminTransaction,
    ),
    adminOnly: true,
  },
  {
    path: paths.reviewQueue,
    page: lazyPage(
      () => import('./pages/ReviewQueue'),
      (m) => m.ReviewQueue,
    ),
    adminOnly: true,
  },
  {
    path: paths.rejectionReasons,
    page: lazyPage(
      () => import('./pages/RejectionReasons'),
      (m) => m.RejectionReasons,
    ),
    adminOnly: true,
  },
  {
    path: paths.apiKeys,
    page: lazyPage(
      () => import('./pages/ApiKeys'),
      (m) => m.ApiKeys,
    ),
    adminOnly: true,
  },
  {
    path: paths.templates,
    page: lazyPage(
      () => import('./pages/Templates'),
      (m) => m.Templates,
    ),
    adminOnly: true,
  },
  {
    path: paths.commissionPlans,
    page: lazyPage(
      () => import('./pages/CommissionPlans'),
      (m) => m.CommissionPlans,
    ),
    adminOnly: true,
  },
  {
    path: paths.webhooks,
    page: lazyPage(
      () => import('./pages/Webhooks'),
      (m) => m.Webhooks,
    ),
    adminOnly: true,
  },
  {
    path: paths.audit,
    page: lazyPage(
      () => import('./pages/Audit'),
      (m) => m.Audit,
    ),
    adminOnly: true,
  },
];

/**
 * Loads the page that `pathname` shows, if it is a lazy one, so the first render shows it without
 * a loader in between. Never rejects: a page that failed to load is tried again when it renders.
 */
export async function preloadPageAt(pathname: string): Promise<void> {
  const route = [...SIGNED_IN_ROUTES, ...PUBLIC_LAZY_ROUTES].find(({ path }) =>
    matchesPattern(path, pathname),
  );
  await route?.page.preload().catch(() => {});
}

/**
 * Public pages rarely opened, so their code loads on demand rather than with every visit's first
 * bytes: registration (once per agent), a mail's unsubscribe link, a signer's link to sign a
 * document (pdf.js comes later still), single sign-on's landing.
 */
const PUBLIC_LAZY_ROUTES: readonly LazyRoute[] = [
  {
    path: paths.register,
    page: lazyPage(
      () => import('./pages/Register'),
      (m) => m.Register,
    ),
  },
  {
    path: paths.unsubscribe,
    page: lazyPage(
      () => import('./pages/Unsubscribe'),
      (m) => m.Unsubscribe,
    ),
  },
  {
    path: paths.sign,
    page: lazyPage(
      () => import('./pages/Sign'),
      (m) => m.Sign,
    ),
  },
  {
    path: paths.sso,
    page: lazyPage(
      () => import('./pages/SsoLanding'),
      (m) => m.SsoLanding,
    ),
  },
];

function PublicPage({ page }: { page: LazyPage }) {
  return (
    <Suspense
      fallback={
        <Center py="xl">
          <Loader aria-label="Loading page" />
        </Center>
      }
    >
      <LoadedPage page={page} />
    </Suspense>
  );
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

/**
 * The 404 page, in the application shell when someone is signed in. An element, not a component,
 * so the shell is the same <SignedIn> element as on every other signed-in route and stays mounted.
 */
function notFoundInPlace(): ReactNode {
  if (!isSignedIn()) return <NotFound />;
  return (
    <SignedIn>
      <NotFound />
    </SignedIn>
  );
}

export function AppRoutes() {
  return (
    <Switch>
      <Route path={paths.root} component={RootRedirect} />

      {/* Signed-out screens: no guard, no shell. */}
      <Route path={paths.login} component={Login} />
      <Route path={paths.reset} component={ResetPassword} />
      <Route path={paths.verification} component={Verification} />
      <Route path={paths.verifyEmail} component={VerifyEmail} />
      <Route path={paths.newPassword} component={NewPassword} />
      {PUBLIC_LAZY_ROUTES.map(({ path, page }) => (
        <Route key={path} path={path}>
          <PublicPage page={page} />
        </Route>
      ))}

      {/* Every signed-in route sits at this same place in the tree with the same key (Switch
          renders only the one that matches), so moving between them keeps one shell mounted
          instead of rebuilding it (and refetching its data). */}
      {SIGNED_IN_ROUTES.map(({ path, page, adminOnly }) => (
        <Route key="signed-in" path={path}>
          <SignedIn adminOnly={adminOnly}>
            <LoadedPage page={page} />
          </SignedIn>
        </Route>
      ))}
      {/* Matches none of the paths above, so its place among them does not matter. */}
      <Route path={paths.transactionAlias}>
        {(params) => <Redirect to={routeTo.transaction(decodeParam(params.id))} replace />}
      </Route>

      {/* Unknown paths keep their URL and show the 404 page in place: inside the shell for a
          signed-in user, who keeps the navigation (and the same shell, by the shared key). */}
      <Route key="signed-in" path={paths.notFound}>
        {notFoundInPlace()}
      </Route>
      <Route key="signed-in">{notFoundInPlace()}</Route>
    </Switch>
  );
}
