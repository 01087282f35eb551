import { Container, Title } from '@mantine/core';

/** Placeholder for the transactions list (spec section 2, /home), built by a later issue. */
export function Home() {
  return (
    <Container size="lg" py="xl">
      <Title order={1}>Transactions</Title>
    </Container>
  );
}
