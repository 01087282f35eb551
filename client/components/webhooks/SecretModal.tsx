import { Alert, Button, Code, CopyButton, Group, Modal, Stack, Text } from '@mantine/core';
import { webhookToasts } from './toasts';

/** A secret shown once, when it is made: what to do with it, the secret, and a copy button. */
export type ShownSecret = { value: string; intro: string };

export function SecretModal({ secret, onClose }: { secret: ShownSecret | null; onClose: () => void }) {
  return (
    <Modal
      opened={secret !== null}
      onClose={onClose}
      title="Signing secret"
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      <Stack gap="md">
        <Text size="sm">{secret?.intro}</Text>
        <Code block style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="webhook-secret">
          {secret?.value}
        </Code>
        <Alert color="yellow" variant="light">
          {webhookToasts.secretShownOnce}
        </Alert>
        <Group justify="flex-end">
          <CopyButton value={secret?.value ?? ''}>
            {({ copied, copy }) => (
              <Button variant="default" onClick={copy}>
                {copied ? 'Copied' : 'Copy secret'}
              </Button>
            )}
          </CopyButton>
          <Button onClick={onClose}>Done</Button>
        </Group>
      </Stack>
    </Modal>
  );
}
