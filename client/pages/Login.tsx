import { Center, Paper, Stack, Text, Title } from '@mantine/core';

/** Placeholder until the accounts feature brings the real sign-in form (spec section 2). */
export function Login() {
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="xl" w="100%" maw={420}>
        <Stack gap="sm">
          <Title order={1}>Sign in</Title>
          <Text c="dimmed">Sign-in arrives with the accounts feature.</Text>
        </Stack>
      </Paper>
    </Center>
  );
}
