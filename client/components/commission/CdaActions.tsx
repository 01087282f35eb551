import { Alert, Button, Group, List, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { commissionMessages } from '../../../shared/commission-messages';
import type { Cda } from '../../../shared/schemas/commission';
import type { MissingItem } from '../../../shared/schemas/common';
import { issuesOf, missingItemsOf, serverMessageOf } from '../../api/errors';
import { notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';
import { localDay, paidAtOf } from './cda-view';

export const cdaToasts = { issued: 'CDA issued', paid: 'CDA marked paid' } as const;

type CdaActionsProps = {
  transactionId: string;
  /** The versions, newest first. */
  cdas: Cda[];
  /** Only a brokerage-wide admin may issue for a file that is not compliant (the server holds it). */
  canOverride: boolean;
};

/** The admin's side of the CDAs: issue a version (or override compliance), mark the current one paid. */
export function CdaActions({ transactionId, cdas, canOverride }: CdaActionsProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const current = cdas.find((cda) => cda.status !== 'superseded');
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries(trpc.commission.listCdas.pathFilter()),
      queryClient.invalidateQueries(trpc.adminTransactions.history.pathFilter()),
    ]);
  return (
    <Stack gap="md">
      {current?.status === 'paid' ? (
        <Text size="sm" c="dimmed">
          {commissionMessages.cdaPaidCannotReplace}
        </Text>
      ) : (
        <IssueCda
          transactionId={transactionId}
          replaces={current}
          canOverride={canOverride}
          onIssued={refresh}
        />
      )}
      {current?.status === 'issued' && (
        <MarkPaid key={current._id} transactionId={transactionId} cda={current} onPaid={refresh} />
      )}
    </Stack>
  );
}

type Refusal = { message: string; missing: MissingItem[] };

function IssueCda({
  transactionId,
  replaces,
  canOverride,
  onIssued,
}: {
  transactionId: string;
  replaces: Cda | undefined;
  canOverride: boolean;
  onIssued: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const issue = useMutation(trpc.commission.issueCda.mutationOptions());
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);

  const send = (override?: { reason: string }) => {
    issue.mutate(
      { id: transactionId, ...(override ? { override } : {}) },
      {
        onSuccess: (cda) => {
          setRefusal(null);
          setReason('');
          notifySuccess(`${cdaToasts.issued}: version ${cda.version}`);
          void onIssued();
        },
        onError: (error) => {
          const reasonIssue = issuesOf(error).find((found) => found.path.startsWith('override'));
          if (reasonIssue) setReasonError(reasonIssue.message);
          else setRefusal({ message: serverMessageOf(error), missing: missingItemsOf(error) });
        },
      },
    );
  };

  const override = (event: FormEvent) => {
    event.preventDefault();
    if (!reason.trim()) {
      setReasonError(commissionMessages.overrideReasonRequired);
      return;
    }
    setReasonError(null);
    send({ reason: reason.trim() });
  };

  return (
    <Stack gap="sm">
      <Group>
        <Button onClick={() => send()} disabled={issue.isPending}>
          {replaces ? 'Issue new version' : 'Issue CDA'}
        </Button>
      </Group>
      {refusal && (
        <Alert color="red" variant="light" role="alert" title={refusal.message}>
          {refusal.missing.length > 0 && (
            <List size="sm" data-testid="cda-missing">
              {refusal.missing.map((item) => (
                <List.Item key={item.formId}>{item.label}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {refusal && refusal.missing.length > 0 && canOverride && (
        <form onSubmit={override} noValidate>
          <Stack gap="xs">
            <Textarea
              label="Override with a reason"
              description="Issues the CDA before the file is compliant; the reason is printed on it and kept in the history."
              rows={3}
              maxLength={500}
              value={reason}
              error={reasonError}
              onChange={(event) => {
                setReason(event.currentTarget.value);
                setReasonError(null);
              }}
            />
            <Group>
              <SubmitButton pending={issue.isPending}>Override and issue</SubmitButton>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function MarkPaid({
  transactionId,
  cda,
  onPaid,
}: {
  transactionId: string;
  cda: Cda;
  onPaid: () => Promise<unknown>;
}) {
  const trpc = useTRPC();
  const markPaid = useMutation(trpc.commission.markCdaPaid.mutationOptions());
  const today = localDay(new Date());
  const [day, setDay] = useState(today);
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) {
      setError('Choose the day it was paid');
      return;
    }
    setError(null);
    const paidAt = paidAtOf(day);
    markPaid.mutate(
      { id: transactionId, cdaId: cda._id, ...(paidAt ? { paidAt } : {}) },
      {
        onSuccess: () => {
          notifySuccess(`${cdaToasts.paid}: version ${cda.version}`);
          void onPaid();
        },
        onError: (failure) => setError(serverMessageOf(failure)),
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-label={`Mark version ${cda.version} paid`}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <TextInput
          type="date"
          label="Paid on"
          max={today}
          required
          value={day}
          error={error}
          onChange={(event) => {
            setDay(event.currentTarget.value);
            setError(null);
          }}
        />
        <SubmitButton pending={markPaid.isPending}>Mark paid</SubmitButton>
      </Group>
    </form>
  );
}
