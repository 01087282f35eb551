import { Alert, Group, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { commissionMessages } from '../../../shared/commission-messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { issuesOf, serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';
import { DetailCard } from '../transactions/DetailCard';
import {
  type CommissionDraft,
  type CommissionErrors,
  type CommissionMode,
  commissionInputOf,
  draftOfCommission,
  fieldOfMessage,
  fieldOfPath,
  grossOfRate,
} from './commission-form';
import { formatCents } from './money';

export const COMMISSION_SAVED = 'Commission saved';
export const CLOSED_COMMISSION = 'This transaction is closed: its commission shows only.';

type CommissionCardProps = {
  transaction: Transaction;
  /** The transaction as the save answered it, for the page's cache. */
  onSaved: (saved: Transaction) => void;
  /** What follows the form inside the card: the CDAs. */
  children?: ReactNode;
};

/**
 * The transaction's commission, on both detail pages: an amount or a rate of the sale price, a
 * referral, and the gross it comes to. A closed file shows it only (the server refuses a change).
 */
export function CommissionCard({ transaction, onSaved, children }: CommissionCardProps) {
  const closed = transaction.closedAt !== null;
  return (
    <DetailCard title="Commission">
      <GrossLine transaction={transaction} />
      {/* Keyed by what is stored: a save or a refetch starts the fields afresh. */}
      <CommissionForm
        key={`${JSON.stringify(transaction.commission)}-${closed}`}
        transaction={transaction}
        closed={closed}
        onSaved={onSaved}
      />
      {children}
    </DetailCard>
  );
}

/** What the commission comes to now, or why it cannot be told. */
function GrossLine({ transaction }: { transaction: Transaction }) {
  const commission = transaction.commission;
  if (!commission)
    return (
      <Text size="sm" c="dimmed">
        No commission set yet.
      </Text>
    );
  const referral = commission.referral
    ? ` · referral ${commission.referral.percent}% to ${commission.referral.name}`
    : '';
  const rate = commission.ratePercent !== null ? ` (${commission.ratePercent}% of the sale price)` : '';
  return (
    <Text size="sm" data-testid="commission-gross">
      {commission.grossCents === null ? (
        <>
          Gross commission: {commissionMessages.needsSalePrice}
          {rate}
        </>
      ) : (
        <>
          Gross commission: <strong>{formatCents(commission.grossCents)}</strong>
          {rate}
          {referral}
        </>
      )}
    </Text>
  );
}

const MODES: { value: CommissionMode; label: string }[] = [
  { value: 'amount', label: 'Amount' },
  { value: 'rate', label: 'Rate of sale price' },
];

function CommissionForm({
  transaction,
  closed,
  onSaved,
}: Omit<CommissionCardProps, 'children'> & { closed: boolean }) {
  const trpc = useTRPC();
  const set = useMutation(trpc.commission.setForTransaction.mutationOptions());
  const [draft, setDraft] = useState(() => draftOfCommission(transaction.commission));
  const [errors, setErrors] = useState<CommissionErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const salePriceCents = transaction.facts.salePriceCents;
  const preview = draft.mode === 'rate' ? grossOfRate(salePriceCents, draft.rate) : null;

  const change = (patch: Partial<CommissionDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors({});
    setFailure(null);
  };

  const refused = (error: unknown) => {
    const message = serverMessageOf(error);
    const fields: CommissionErrors = {};
    for (const issue of issuesOf(error)) {
      const field = fieldOfPath(issue.path);
      if (field) fields[field] ??= issue.message;
    }
    const field = fieldOfMessage(message);
    if (field) fields[field] = message;
    setErrors(fields);
    setFailure(Object.keys(fields).length ? null : message);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const result = commissionInputOf(transaction._id, draft);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    set.mutate(result.input, {
      onSuccess: (saved) => {
        notifySuccess(COMMISSION_SAVED);
        onSaved(saved);
      },
      onError: refused,
    });
  };

  return (
    <form onSubmit={save} noValidate>
      {/* A disabled fieldset disables every field and the button at once. */}
      <fieldset disabled={closed} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          {closed && (
            <Text size="sm" c="dimmed">
              {CLOSED_COMMISSION}
            </Text>
          )}
          <SegmentedControl
            aria-label="Commission as"
            data={MODES}
            value={draft.mode}
            disabled={closed}
            onChange={(mode) => change({ mode: mode as CommissionMode })}
            style={{ alignSelf: 'flex-start' }}
          />
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
            {draft.mode === 'amount' ? (
              <TextInput
                label="Gross commission"
                leftSection="$"
                inputMode="decimal"
                value={draft.amount}
                error={errors.amount}
                onChange={(event) => change({ amount: event.currentTarget.value })}
              />
            ) : (
              <TextInput
                label="Rate"
                rightSection="%"
                inputMode="decimal"
                value={draft.rate}
                error={errors.rate}
                description={
                  salePriceCents === null
                    ? commissionMessages.needsSalePrice
                    : preview !== null
                      ? `${formatCents(preview)} of ${formatCents(salePriceCents)}`
                      : `Of ${formatCents(salePriceCents)}`
                }
                onChange={(event) => change({ rate: event.currentTarget.value })}
              />
            )}
            <TextInput
              label="Referral name"
              description="Optional"
              maxLength={100}
              value={draft.referralName}
              error={errors.referralName}
              onChange={(event) => change({ referralName: event.currentTarget.value })}
            />
            <TextInput
              label="Referral percent"
              description="Of the gross commission"
              rightSection="%"
              inputMode="decimal"
              value={draft.referralPercent}
              error={errors.referralPercent}
              onChange={(event) => change({ referralPercent: event.currentTarget.value })}
            />
          </SimpleGrid>
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          {!closed && (
            <Group justify="flex-end">
              <SubmitButton pending={set.isPending}>Save commission</SubmitButton>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
