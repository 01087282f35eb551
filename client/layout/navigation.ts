import type { Role } from '../auth/claims';
import { paths } from '../paths';

export type NavigationItem = { label: string; href: string };

/**
 * The four links of the sidebar, with the banner designer before Settings: the /banner page
 * would otherwise have no link to it, and a page people can only reach by typing its address is lost to them.
 */
const USER_NAVIGATION: NavigationItem[] = [
  { label: 'Transactions', href: paths.home },
  { label: 'Calendar', href: paths.calendar },
  { label: 'Forms', href: paths.forms },
  { label: 'Tutorials', href: paths.tutorials },
  { label: 'Banner', href: paths.banner },
  { label: 'Settings', href: paths.settings },
];

// The dashboard first: a broker opens the portal to see how the desk is doing.
const ADMIN_NAVIGATION: NavigationItem[] = [
  { label: 'Dashboard', href: paths.dashboard },
  ...USER_NAVIGATION,
  { label: 'Users', href: paths.users },
  { label: 'Offices', href: paths.offices },
  { label: 'Review Queue', href: paths.reviewQueue },
  { label: 'Admin Transactions', href: paths.adminTransactions },
  { label: 'Transactions Forms', href: paths.templates },
  { label: 'Commission Plans', href: paths.commissionPlans },
  { label: 'API Keys', href: paths.apiKeys },
  { label: 'Webhooks', href: paths.webhooks },
];

// The audit trail spans every office: only admins without one may read it.
const BROKERAGE_NAVIGATION: NavigationItem[] = [...ADMIN_NAVIGATION, { label: 'Audit', href: paths.audit }];

/** The admin list when the token's role claim is admin; with Audit for a brokerage-wide admin. */
export function navigationFor(role: Role, brokerageWide = false): NavigationItem[] {
  if (role !== 'admin') return USER_NAVIGATION;
  return brokerageWide ? BROKERAGE_NAVIGATION : ADMIN_NAVIGATION;
}

/** A link stays highlighted on the pages below it (/home for /home/transactions/:id). */
export function isActive(href: string, location: string): boolean {
  return location === href || location.startsWith(`${href}/`);
}
