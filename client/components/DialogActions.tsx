import { Button, Group } from '@mantine/core';
import { SubmitButton } from './SubmitButton';

type DialogActionsProps = {
  /** The dialog's call is under way: neither button can be used meanwhile. */
  pending: boolean;
  /** Submit is held back for another reason as well (a file still uploading). */
  submitDisabled?: boolean;
  onCancel: () => void;
  /** What the confirming button does, where 'Submit' would not say it ('Revoke key'). */
  submitLabel?: string;
};

/** The Cancel and Submit buttons at the foot of a form dialog. */
export function DialogActions({
  pending,
  submitDisabled = false,
  onCancel,
  submitLabel = 'Submit',
}: DialogActionsProps) {
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={onCancel} disabled={pending}>
        Cancel
      </Button>
      <SubmitButton pending={pending} disabled={submitDisabled}>
        {submitLabel}
      </SubmitButton>
    </Group>
  );
}
