import { Alert, Stack, Switch, Text, Textarea } from '@mantine/core';
import { IconArchive, IconGavel } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { retentionLabels, retentionMessages } from '../../../shared/retention-messages';
import { MAX_HOLD_REASON } from '../../../shared/schemas/retention';
import type { Transaction } from '../../../shared/schemas/transactions';
import { issuesOf, serverMessageOf } from '../../api/errors';
import { formatDateTime } from '../../dates';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { DialogActions } from '../DialogActions';
import { FormModal } from '../FormModal';

/**
 * Both detail pages: how long a closed file is kept, and the legal hold that keeps any file
 * whatever its date (with the reason the admin gave, so the agent knows why it cannot go).
 */
export function RetentionNote({ transaction }: { transaction: Transaction }) {
  const { retainUntil, legalHold, legalHoldReason, purgedAt } = transaction;
  if (retainUntil === null && !legalHold) return null;
  return (
    <Alert
      color={legalHold ? 'orange' : 'gray'}
      variant="light"
      icon={
        legalHold ? <IconGavel size={18} aria-hidden="true" /> : <IconArchive size={18} aria-hidden="true" />
      }
      data-testid="retention"
    >
      <Stack gap={4}>
        {legalHold && (
          <Text size="sm" fw={600}>
            {retentionLabels.underHold(legalHoldReason ?? '')}
          </Text>
        )}
        {retainUntil !== null && <Text size="sm">{retentionLabels.keptUntil(retainUntil)}</Text>}
        {purgedAt !== null && <Text size="sm">{retentionLabels.purged(formatDateTime(purgedAt))}</Text>}
      </Stack>
    </Alert>
  );
}

type LegalHoldSwitchProps = {
  transaction: Transaction;
  /** The answer of a successful change: the page shows it and reloads what depends on it. */
  onChanged: (saved: Transaction) => void;
};

/**
 * The admin's legal hold: the switch opens a dialog, with the reason required to place a hold
 * (the server requires it too) and an optional note to release one, which the history keeps.
 */
export function LegalHoldSwitch({ transaction, onChanged }: LegalHoldSwitchProps) {
  const trpc = useTRPC();
  const mutation = useMutation(trpc.adminTransactions.legalHold.mutationOptions());
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const placing = !transaction.legalHold;

  const open = () => {
    setReason('');
    setError(null);
    setOpened(true);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = reason.trim();
    if (placing && trimmed === '') {
      setError(retentionMessages.holdReasonRequired);
      return;
    }
    try {
      const saved = await mutation.mutateAsync({
        id: transaction._id,
        hold: placing,
        ...(trimmed ? { reason: trimmed } : {}),
      });
      setOpened(false);
      notifySuccess(placing ? retentionLabels.holdPlaced : retentionLabels.holdReleased);
      onChanged(saved);
    } catch (failure) {
      const issue = issuesOf(failure).find((entry) => entry.path === 'reason');
      if (issue) setError(issue.message);
      else notifyError(serverMessageOf(failure));
    }
  };

  return (
    <>
      <Switch
        label={retentionLabels.holdSwitch}
        checked={transaction.legalHold}
        onChange={open}
        disabled={mutation.isPending}
        color="orange"
      />
      <FormModal
        opened={opened}
        title={placing ? retentionLabels.placeHoldTitle : retentionLabels.releaseHoldTitle}
        onClose={() => setOpened(false)}
      >
        <form onSubmit={(event) => void submit(event)} noValidate>
          <Stack gap="md">
            <Textarea
              label={retentionLabels.reasonLabel}
              description={placing ? undefined : 'Optional: kept in the history'}
              required={placing}
              minRows={3}
              maxLength={MAX_HOLD_REASON}
              value={reason}
              error={error}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setError(null);
              }}
              data-autofocus
            />
            <DialogActions
              pending={mutation.isPending}
              onCancel={() => setOpened(false)}
              submitLabel={placing ? retentionLabels.placeHold : retentionLabels.releaseHold}
            />
          </Stack>
        </form>
      </FormModal>
    </>
  );
}
