import { Alert, Button, Group, Text } from '@mantine/core';
import { IconLock, IconLockOpen } from '@tabler/icons-react';
import { useId } from 'react';
import { complianceMessages } from '../../../shared/messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';
import { isOutstanding, itemState } from './compliance';

/** Both detail pages of a closed transaction: nothing but comments changes any more. */
export function ClosedBanner({ transaction }: { transaction: Transaction }) {
  if (transaction.closedAt === null) return null;
  return (
    <Alert color="gray" variant="light" icon={<IconLock size={18} aria-hidden="true" />}>
      <Text size="sm" fw={600}>
        {complianceMessages.transactionClosed}
      </Text>
      <Text size="sm">Closed on {formatDateTime(transaction.closedAt)}. Comments still work.</Text>
    </Alert>
  );
}

/** "Not compliant yet: Disclosure (missing), Inspection (awaiting review)", or null when compliant. */
export function notCompliantText(transaction: Transaction): string | null {
  const outstanding = transaction.forms.filter(isOutstanding);
  if (transaction.compliant || outstanding.length === 0)
    return transaction.compliant ? null : 'Not compliant yet';
  const items = outstanding.map((form) => `${form.label} (${itemState(form).toLowerCase()})`);
  return `Not compliant yet: ${items.join(', ')}`;
}

type CloseControlsProps = {
  transaction: Transaction;
  busy: boolean;
  onClose: () => void;
  onReopen: () => void;
};

/** The admin's 'Close transaction' (compliant files only) and 'Reopen'. */
export function CloseControls({ transaction, busy, onClose, onReopen }: CloseControlsProps) {
  const reasonId = useId();
  if (transaction.closedAt !== null) {
    return (
      <Group gap="sm">
        <Button
          variant="default"
          loading={busy}
          leftSection={<IconLockOpen size={16} aria-hidden="true" />}
          onClick={onReopen}
        >
          Reopen
        </Button>
      </Group>
    );
  }
  const why = notCompliantText(transaction);
  return (
    <Group gap="sm" wrap="wrap">
      <Button
        loading={busy}
        disabled={why !== null}
        aria-describedby={why ? reasonId : undefined}
        leftSection={<IconLock size={16} aria-hidden="true" />}
        onClick={onClose}
      >
        Close transaction
      </Button>
      {why && (
        <Text id={reasonId} size="sm" c="dimmed" data-testid="not-compliant">
          {why}
        </Text>
      )}
    </Group>
  );
}
