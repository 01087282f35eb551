import { Anchor, Box, Container, Stack, Title } from '@mantine/core';
import { Link } from 'wouter';
import { ui } from '../../shared/messages';
import { isSignedIn } from '../auth/session';
import { Logo } from '../components/Logo';
import { paths } from '../paths';

/**
 * The 404 page. Signed in, it sits in the application shell (which has the main
 * landmark and the navigation) and leads to the transactions; signed out, it is a page of its
 * own, with the logo and its own main landmark, and leads to sign-in.
 */
export function NotFound() {
  const signedIn = isSignedIn();
  const content = (
    <Stack gap="md" align="flex-start">
      {!signedIn && <Logo size={40} />}
      {/* The product's sentence is the page's only message, so it is the heading, at body-like size. */}
      <Title order={1} size="h3" fw={500}>
        {ui.notFound}
      </Title>
      <Anchor component={Link} href={signedIn ? paths.home : paths.login}>
        {signedIn ? 'Back to transactions' : 'Go to sign in'}
      </Anchor>
    </Stack>
  );
  if (signedIn) return content;
  return (
    <Box component="main" py="xl">
      <Container size="sm">{content}</Container>
    </Box>
  );
}
