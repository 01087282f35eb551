import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';

/** The owner's switch: require admins to sign in with a second factor (the server enforces it). */
export function AdminPolicySwitch() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const policy = useQuery(trpc.adminSecurity.get.queryOptions());
  const update = useMutation(
    trpc.adminSecurity.update.mutationOptions({
      onSuccess: (answer) => {
        queryClient.setQueryData(trpc.adminSecurity.get.queryKey(), answer);
        notifySuccess(
          answer.requireTwoFactorForAdmins
            ? 'Admins must now sign in with a second factor'
            : 'Admins may sign in with a password alone',
        );
      },
    }),
  );
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="admin-policy-heading">
      <Stack gap="sm">
        <Title order={2} size="h3" id="admin-policy-heading">
          Sign-in security for admins
        </Title>
        <Switch
          label="Require two-factor sign-in for admins"
          description="Admins whose sign-in proved no second factor can only set one up until they do."
          checked={policy.data?.requireTwoFactorForAdmins ?? false}
          disabled={!policy.data || update.isPending}
          onChange={(event) => update.mutate({ requireTwoFactorForAdmins: event.currentTarget.checked })}
        />
        {(policy.error || update.error) && (
          <Text c="red" size="sm" role="alert">
            {serverMessageOf(policy.error ?? update.error)}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
