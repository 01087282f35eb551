import {
  Anchor,
  AppShell,
  Box,
  Burger,
  Button,
  Drawer,
  Group,
  NavLink,
  Skeleton,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { ui } from '../../shared/messages';
import { storedRole } from '../auth/claims';
import { clearSession, getRefreshToken, getUserId } from '../auth/session';
import { PHONE_QUERY } from '../breakpoints';
import { Logo } from '../components/Logo';
import { paths } from '../paths';
import { useTRPC, useTRPCClient } from '../trpc';
import { NotificationBell } from './NotificationBell';
import { NotificationFeedProvider, useNotificationFeed } from './NotificationFeed';
import { isActive, navigationFor } from './navigation';
import classes from './SkipLink.module.css';
import { useDetectTimezone } from './useDetectTimezone';

/** Below this breakpoint the sidebar gives way to a burger and a slide-over menu. */
const SIDEBAR_BREAKPOINT = 'sm';
const SIDEBAR_WIDTH = 260;

/**
 * The signed-in user's first name for the greeting: null while it loads (a placeholder shows, not
 * a wrong name), then the name, or the fallback 'User' when it is empty or cannot be had.
 */
function useWelcomeName(): string | null {
  const trpc = useTRPC();
  const userId = getUserId();
  const { data, isPending } = useQuery(trpc.settings.getUser.queryOptions(userId ? { userId } : skipToken));
  // Without a stored user id the query never runs: 'User' at once.
  if (userId && isPending) return null;
  return data?.firstName || ui.welcomeFallbackName;
}

/**
 * Whether the signed-in admin reads the whole brokerage (the owner, or an admin without an office),
 * from the profile the greeting loads: the navigation then offers the pages only such admins use.
 */
function useBrokerageWide(): boolean {
  const trpc = useTRPC();
  const userId = getUserId();
  const { data } = useQuery(trpc.settings.getUser.queryOptions(userId ? { userId } : skipToken));
  return data?.role === 'admin' && (data.isOwner || data.officeId === null);
}

function Welcome() {
  const name = useWelcomeName();
  if (name === null) {
    return (
      <Group gap={6} wrap="nowrap" aria-busy="true">
        <Text fw={600}>Welcome</Text>
        <Skeleton height={16} width={72} radius="sm" data-testid="welcome-name-placeholder" />
      </Group>
    );
  }
  return (
    <Text fw={600} truncate>
      Welcome {name}
    </Text>
  );
}

/** How long sign-out waits for the server to revoke the refresh token before leaving anyway. */
const REVOKE_TIMEOUT_MS = 4000;

function settledWithin(promise: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

function useSignOut() {
  const trpcClient = useTRPCClient();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  const [signingOut, setSigningOut] = useState(false);

  const signOut = async () => {
    setSigningOut(true);
    const refreshToken = getRefreshToken();
    if (refreshToken) {
      // Revoked before the local copy goes, so the token is dead by the time sign-in shows. Best
      // effort and bounded: offline or failing, the user still signs out, and a token that is no
      // longer stored anywhere expires on its own.
      await settledWithin(
        trpcClient.auth.logout.mutate({ refreshToken }).catch(() => {}),
        REVOKE_TIMEOUT_MS,
      );
    }
    clearSession();
    queryClient.clear();
    navigate(paths.login);
  };

  return { signOut, signingOut };
}

/** The bell wired to the shell's feed: opening it clears the dot and shows the notifications. */
function ShellBell({ onOpen }: { onOpen?: () => void }) {
  const [, navigate] = useLocation();
  const { hasUnread, markSeen } = useNotificationFeed();
  return (
    <NotificationBell
      hasUnread={hasUnread}
      onOpen={() => {
        markSeen();
        navigate(paths.notifications);
        onOpen?.();
      }}
    />
  );
}

type SidebarProps = {
  /** Called after any navigation from the sidebar, so the slide-over menu can close. */
  onNavigate?: () => void;
};

function Sidebar({ onNavigate }: SidebarProps) {
  const [location] = useLocation();
  const { signOut, signingOut } = useSignOut();
  const navigation = navigationFor(storedRole(), useBrokerageWide());

  return (
    <Stack h="100%" gap="md" justify="space-between">
      <Stack gap="md">
        <Group justify="space-between" wrap="nowrap">
          <Welcome />
          <ShellBell onOpen={onNavigate} />
        </Group>
        <Box component="nav" aria-label="Main">
          {navigation.map((item) => (
            <NavLink
              key={item.href}
              component={Link}
              href={item.href}
              label={item.label}
              active={isActive(item.href, location)}
              aria-current={isActive(item.href, location) ? 'page' : undefined}
              onClick={onNavigate}
            />
          ))}
        </Box>
      </Stack>
      <Button
        variant="light"
        color="gray"
        leftSection={<IconLogout size={18} aria-hidden="true" />}
        onClick={signOut}
        disabled={signingOut}
      >
        Logout
      </Button>
    </Stack>
  );
}

/** Where the skip link leads: the page itself, past the navigation. */
export const MAIN_CONTENT_ID = 'main-content';

/**
 * The application shell around every signed-in page: a sidebar on
 * wide screens; on narrow ones a top bar whose burger opens the same sidebar as a drawer. It
 * holds the live notification feed, so both bells and the notifications page share one dot.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  useDetectTimezone();
  // The slide-over menu is open for the page it was opened on only: whatever moves the page
  // (a link, Back, a redirect) closes it without an effect to keep in step.
  const [menuOpenAt, setMenuOpenAt] = useState<string | null>(null);
  const menuOpen = menuOpenAt === location;
  // Read at once, so a phone's first render already has the bell in its top bar.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const closeMenu = () => setMenuOpenAt(null);

  return (
    <NotificationFeedProvider>
      {/* First in the tab order: without it a keyboard passed 15 stops of navigation first. */}
      <a href={`#${MAIN_CONTENT_ID}`} className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell
        navbar={{ width: SIDEBAR_WIDTH, breakpoint: SIDEBAR_BREAKPOINT, collapsed: { mobile: true } }}
        padding="md"
      >
        {/* Collapsed, the navbar is only moved off-screen; hiding it keeps its links out of the
            keyboard order and the accessibility tree while the drawer serves narrow screens. */}
        {/* Scrolls when the admin's links are taller than a short screen: Logout, last, stays reachable. */}
        <AppShell.Navbar
          p="md"
          aria-label="Sidebar"
          visibleFrom={SIDEBAR_BREAKPOINT}
          style={{ overflowY: 'auto' }}
        >
          <AppShell.Section mb="md">
            {/* The name starts with the logo's visible words, so a voice user can say them to follow it. */}
            <Anchor
              component={Link}
              href={paths.home}
              aria-label="Brokerage Portal home"
              underline="never"
              c="inherit"
            >
              <Logo size={32} />
            </Anchor>
          </AppShell.Section>
          <AppShell.Section grow>
            <Sidebar />
          </AppShell.Section>
        </AppShell.Navbar>
        <AppShell.Main>
          {/* The top bar of narrow screens. It has the sidebar's bell, so a new notification shows
              its dot without opening the menu. */}
          <Group
            hiddenFrom={SIDEBAR_BREAKPOINT}
            justify="space-between"
            wrap="nowrap"
            mb="md"
            data-testid="top-bar"
          >
            <Burger
              opened={menuOpen}
              onClick={() => setMenuOpenAt(menuOpen ? null : location)}
              aria-label={menuOpen ? 'Close navigation' : 'Open navigation'}
              aria-expanded={menuOpen}
              size="sm"
            />
            <Logo size={28} />
            {/* Only where the top bar shows; elsewhere the sidebar's bell is the one in sight. */}
            {phone && <ShellBell />}
          </Group>
          {/* Focusable by script only, so the skip link moves the keyboard here, not just the view. */}
          <div id={MAIN_CONTENT_ID} tabIndex={-1} className={classes.content}>
            {children}
          </div>
        </AppShell.Main>
        <Drawer opened={menuOpen} onClose={closeMenu} size={SIDEBAR_WIDTH + 40} title={<Logo size={28} />}>
          <Sidebar onNavigate={closeMenu} />
        </Drawer>
      </AppShell>
    </NotificationFeedProvider>
  );
}
