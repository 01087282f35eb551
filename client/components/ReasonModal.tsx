import { Button, Group, Stack, Textarea } from '@mantine/core';
import { useState } from 'react';
import { FormModal } from './FormModal';

type ReasonModalProps = {
  opened: boolean;
  title: string;
  /** Shown under the field: what giving the reason will do. */
  description?: string;
  placeholder?: string;
  submitLabel: string;
  submitColor?: string;
  /** The message when the reason is left blank. */
  requiredMessage: string;
  /** Whether the call is under way: the buttons wait for it. */
  pending: boolean;
  onClose: () => void;
  /** Does the thing with the trimmed reason; a message it returns is shown under the field. */
  onSubmit: (reason: string) => Promise<string | undefined>;
};

/**
 * A dialog that asks why before doing something (asking for a waiver, voiding a signature
 * request): a reason is required, and what the server refuses shows under the field, which keeps
 * what was typed.
 */
export function ReasonModal(props: ReasonModalProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const close = () => {
    setReason('');
    setError(null);
    props.onClose();
  };

  const submit = async () => {
    const trimmed = reason.trim();
    if (!trimmed) {
      setError(props.requiredMessage);
      return;
    }
    const refused = await props.onSubmit(trimmed);
    if (refused) setError(refused);
    else {
      setReason('');
      setError(null);
    }
  };

  return (
    <FormModal opened={props.opened} onClose={close} title={props.title}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label="Reason"
            description={props.description}
            placeholder={props.placeholder}
            rows={3}
            value={reason}
            error={error}
            data-autofocus
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setError(null);
            }}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close} disabled={props.pending}>
              Cancel
            </Button>
            <Button type="submit" color={props.submitColor} loading={props.pending}>
              {props.submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </FormModal>
  );
}
