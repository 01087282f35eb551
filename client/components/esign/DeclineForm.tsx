import { Alert, Button, Group, Stack, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { serverMessageOf } from '../../api/errors';
import { declineSigning } from './sign-api';

type DeclineFormProps = { token: string; onDeclined: () => void };

/** "Decline to sign", opening a small form whose reason is required: the sender is told why. */
export function DeclineForm({ token, onDeclined }: DeclineFormProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const decline = useMutation({
    mutationFn: (why: string) => declineSigning(token, why),
    onSuccess: onDeclined,
    onError: (error) => setProblem(serverMessageOf(error)),
  });

  if (!open)
    return (
      <Button variant="subtle" color="red" onClick={() => setOpen(true)}>
        Decline to sign
      </Button>
    );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    // The server refuses an empty reason in its own words.
    decline.mutate(reason.trim());
  };

  return (
    <form onSubmit={submit} aria-label="Decline to sign" noValidate>
      <Stack gap="sm">
        <Textarea
          label="Why do you decline?"
          description="The sender sees this. Declining closes the request for every signer."
          required
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(event) => setReason(event.currentTarget.value)}
          data-autofocus
        />
        {problem && (
          <Alert color="red" role="alert" p="xs">
            {problem}
          </Alert>
        )}
        <Group gap="xs">
          <Button type="submit" color="red" loading={decline.isPending}>
            Decline
          </Button>
          <Button variant="default" onClick={() => setOpen(false)}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
