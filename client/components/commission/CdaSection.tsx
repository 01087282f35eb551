import { Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { Transaction } from '../../../shared/schemas/transactions';
import { useTRPC } from '../../trpc';
import { isBrokerageWideViewer, useViewer } from '../offices/scope';
import { CdaActions } from './CdaActions';
import { CdaList } from './CdaList';

type CdaSectionProps = {
  transaction: Transaction;
  /** The admin's page: issue and mark paid as well. */
  admin?: boolean;
};

/**
 * The CDAs under the commission: every version, and on the admin's page what can be done next.
 * Asked for once a commission is set, since none can be issued before.
 */
export function CdaSection({ transaction, admin = false }: CdaSectionProps) {
  const trpc = useTRPC();
  const withCommission = transaction.commission !== null;
  const cdas = useQuery(
    trpc.commission.listCdas.queryOptions({ id: transaction._id }, { enabled: withCommission }),
  );
  const canOverride = isBrokerageWideViewer(useViewer());
  if (!withCommission && !admin) return null;
  return (
    <Stack gap="md">
      <Divider />
      <CdaList cdas={withCommission ? cdas.data : []} failed={cdas.isError} />
      {admin && (cdas.data || !withCommission) && (
        <CdaActions transactionId={transaction._id} cdas={cdas.data ?? []} canOverride={canOverride} />
      )}
    </Stack>
  );
}
