import { Alert, Button, Stack, Text } from '@mantine/core';
import { httpStatusOf, serverMessageOf } from '../../api/errors';

/** A failed load: the server's reason (a bad range says what is wrong with it), and a retry. */
export function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const badRange = httpStatusOf(error) === 400;
  return (
    <Alert
      color="red"
      role="alert"
      title={badRange ? 'These dates cannot be shown' : 'The figures could not be loaded'}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{serverMessageOf(error)}</Text>
        {badRange ? (
          <Text size="sm">Choose another range above.</Text>
        ) : (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Retry
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
