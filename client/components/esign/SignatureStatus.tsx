import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import { serverMessageOf } from '../../api/errors';
import { formatDateTime } from '../../dates';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { VoidRequestModal } from './VoidRequestModal';

type Signer = SignatureRequest['signers'][number];

const SIGNER_LABEL: Record<Signer['status'], string> = {
  pending: 'Waiting',
  viewed: 'Opened',
  signed: 'Signed',
  declined: 'Declined',
};
const SIGNER_COLOR: Record<Signer['status'], string> = {
  pending: 'gray',
  viewed: 'blue',
  signed: 'green',
  declined: 'red',
};
const REQUEST_LABEL: Record<SignatureRequest['status'], string> = {
  sent: 'Out for signature',
  completed: 'Signed by everyone',
  declined: 'Declined',
  voided: 'Voided',
};

/** While a request is out, its signers' progress is asked for again this often (opened, signed). */
const OPEN_REFRESH_MS = 30_000;

/**
 * The item's signature requests: each signer as a chip (waiting, opened, signed, declined), the
 * request's state, and, while it is out, a reminder now or voiding it. The requests still out
 * show, and the latest closed one. The transaction's list is asked for once for all its items.
 */
export function SignatureStatus({ transactionId, formId }: { transactionId: string; formId: string }) {
  const trpc = useTRPC();
  const list = useQuery({
    ...trpc.signatures.list.queryOptions({ id: transactionId }),
    refetchInterval: (query) =>
      query.state.data?.some((request) => request.status === 'sent') ? OPEN_REFRESH_MS : false,
  });
  const mine = (list.data ?? []).filter((request) => request.formId === formId);
  const latestClosed = mine.find((request) => request.status !== 'sent');
  const shown = mine.filter((request) => request.status === 'sent' || request === latestClosed);
  if (shown.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="signature-requests">
      {shown.map((request) => (
        <RequestLine key={request._id} transactionId={transactionId} request={request} />
      ))}
    </Stack>
  );
}

function RequestLine({ transactionId, request }: { transactionId: string; request: SignatureRequest }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remind = useMutation(trpc.signatures.remind.mutationOptions());
  const [voiding, setVoiding] = useState(false);
  const open = request.status === 'sent';
  const refresh = () =>
    queryClient.invalidateQueries(trpc.signatures.list.queryFilter({ id: transactionId }));

  const sendReminder = async () => {
    try {
      await remind.mutateAsync({ id: transactionId, reqId: request._id });
    } catch (failure) {
      notifyError('The reminder was not sent', serverMessageOf(failure));
      return;
    }
    notifySuccess('Reminder sent');
    await refresh();
  };

  return (
    <Stack gap={4} data-testid={`signature-request-${request._id}`}>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        <b>{REQUEST_LABEL[request.status]}</b>
        {`: ${request.subject}`}
        {request.completedAt ? ` · ${formatDateTime(request.completedAt)}` : ''}
        {request.closedReason ? ` · ${request.closedReason}` : ''}
      </Text>
      <Group gap={6} wrap="wrap" role="list" aria-label={`Signers of ${request.subject}`}>
        {request.signers.map((signer) => (
          <Badge
            key={signer._id}
            role="listitem"
            color={SIGNER_COLOR[signer.status]}
            variant="light"
            tt="none"
            data-status={signer.status}
            title={signer.signedAt ? `Signed ${formatDateTime(signer.signedAt)}` : signer.email}
            style={{ maxWidth: '100%' }}
          >
            {`${signer.name}: ${SIGNER_LABEL[signer.status]}`}
          </Badge>
        ))}
      </Group>
      {open && (
        <Group gap="xs">
          <Button size="compact-xs" variant="default" loading={remind.isPending} onClick={sendReminder}>
            Send a reminder
          </Button>
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => setVoiding(true)}>
            Void
          </Button>
        </Group>
      )}
      {voiding && (
        <VoidRequestModal
          transactionId={transactionId}
          request={request}
          onClose={() => setVoiding(false)}
          onVoided={refresh}
        />
      )}
    </Stack>
  );
}
