import { Anchor, Container, Stack, Title } from '@mantine/core';
import { Link } from 'wouter';
import { ui } from '../../shared/messages';

export function NotFound() {
  return (
    <Container size="sm" py="xl">
      <Stack gap="md" align="flex-start">
        {/* The spec's sentence is the page's only message, so it is the heading, at body-like size. */}
        <Title order={1} size="h3" fw={500}>
          {ui.notFound}
        </Title>
        {/* To /, which sends a signed-in user home and anyone else to sign-in. */}
        <Anchor component={Link} href="/">
          Back to home
        </Anchor>
      </Stack>
    </Container>
  );
}
