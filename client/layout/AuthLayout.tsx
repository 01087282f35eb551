import { Box, Center, Flex, Paper, Stack, Title } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { Logo } from '../components/Logo';

/**
 * Decoration, drawn once the form is there: kept out of the first download, which has a budget
 * (scripts/check-bundle-budget.mjs). Its box has its size already, so nothing moves when it comes.
 */
const SkylineIllustration = lazy(() =>
  import('../components/SkylineIllustration').then((module) => ({ default: module.SkylineIllustration })),
);

type AuthLayoutProps = {
  title: string;
  children: ReactNode;
  /** The decorative picture beside the form on wide screens (the sign-in page). */
  withIllustration?: boolean;
  /** Maximum width of the card; the registration form needs two columns. */
  width?: number;
};

/**
 * The frame of the signed-out screens: logo, a titled card, no application shell. The whole
 * screen is the page's one main landmark: without one, a screen reader's "skip to main" finds
 * nothing, and axe reports every piece of content as outside any landmark.
 */
export function AuthLayout({ title, children, withIllustration = false, width = 440 }: AuthLayoutProps) {
  return (
    <Flex component="main" mih="100vh">
      <Center flex={1} p="md">
        <Stack w="100%" maw={width} gap="lg">
          <Logo />
          <Paper withBorder shadow="sm" p="xl">
            <Stack gap="md">
              <Title order={1} size="h2">
                {title}
              </Title>
              {children}
            </Stack>
          </Paper>
        </Stack>
      </Center>
      {withIllustration && (
        <Box
          visibleFrom="md"
          flex={1}
          mah="100vh"
          pos="sticky"
          top={0}
          style={{ overflow: 'hidden' }}
          data-testid="login-illustration"
        >
          <Suspense fallback={null}>
            <SkylineIllustration />
          </Suspense>
        </Box>
      )}
    </Flex>
  );
}
