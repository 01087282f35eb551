import { Button, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { CommissionPlan } from '../../shared/schemas/commission';
import { formatCents } from '../components/commission/money';
import { PlanForm } from '../components/commission/PlanForm';
import { FormModal } from '../components/FormModal';
import { ListPage } from '../components/ListPage';
import { ListTable } from '../components/ListTable';
import { isBrokerageWideViewer, useViewer } from '../components/offices/scope';
import { notifySuccess, useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const LOAD_ERROR_TOAST_ID = 'commission-plans-load-error';
const LOAD_ERROR_TEXT = 'The commission plans could not be loaded.';

export const planToasts = { added: 'Plan added', saved: 'Plan saved' } as const;

/** The dialog open: adding a plan, or changing one. */
type Editing = { mode: 'add' } | { mode: 'update'; plan: CommissionPlan };

/**
 * The commission plans (/admin/commission-plans): how each agent's commissions split with the
 * brokerage. Every admin reads them; only a brokerage-wide admin changes them, as the server
 * holds (an office admin is shown the list alone).
 */
export function CommissionPlans() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const viewer = useViewer();
  const canChange = isBrokerageWideViewer(viewer);
  const list = useQuery(trpc.commission.listPlans.queryOptions());
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, list.error, list.refetch);
  const [term, setTerm] = useState('');
  const [editing, setEditing] = useState<Editing | null>(null);

  // A handful of plans, all in one answer: the search narrows what is loaded.
  const needle = term.trim().toLowerCase();
  const rows = needle ? list.data?.filter((plan) => plan.name.toLowerCase().includes(needle)) : list.data;
  const columns = canChange
    ? ['Name', 'Agent split', 'Annual cap', 'Transaction fee', 'Actions']
    : ['Name', 'Agent split', 'Annual cap', 'Transaction fee'];

  const saved = (mode: Editing['mode']) => {
    setEditing(null);
    notifySuccess(mode === 'add' ? planToasts.added : planToasts.saved);
    void queryClient.invalidateQueries(trpc.commission.listPlans.pathFilter());
  };

  const addButton = (label: string) =>
    canChange && <Button onClick={() => setEditing({ mode: 'add' })}>{label}</Button>;

  return (
    <>
      <ListPage
        title="Commission Plans"
        action={addButton('Add plan')}
        emptyAction={addButton('Add the first plan')}
        intro={
          // Said once the viewer is known, so a brokerage-wide admin never sees it flash.
          viewer &&
          !canChange && (
            <Text size="sm" c="dimmed">
              Only a brokerage-wide admin can add or change plans.
            </Text>
          )
        }
        onSearch={setTerm}
      >
        <ListTable
          columns={columns}
          minWidth={720}
          rows={rows}
          loading={list.isPending || (list.isError && list.isFetching)}
          failure={list.error ? LOAD_ERROR_TEXT : null}
          empty={needle ? `No plans match "${term.trim()}".` : 'No commission plans yet.'}
          renderRow={(plan) => (
            <Table.Tr key={plan._id}>
              <Table.Td>{plan.name}</Table.Td>
              <Table.Td>{plan.agentSplit}%</Table.Td>
              <Table.Td>
                {plan.capCents === null ? (
                  <Text span size="sm" c="dimmed">
                    No cap
                  </Text>
                ) : (
                  formatCents(plan.capCents)
                )}
              </Table.Td>
              <Table.Td>{formatCents(plan.transactionFeeCents)}</Table.Td>
              {canChange && (
                <Table.Td>
                  <Button
                    size="xs"
                    variant="default"
                    aria-label={`Edit ${plan.name}`}
                    onClick={() => setEditing({ mode: 'update', plan })}
                  >
                    Edit
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          )}
        />
      </ListPage>
      <FormModal
        opened={editing !== null}
        title={editing?.mode === 'update' ? 'Edit plan' : 'Add plan'}
        onClose={() => setEditing(null)}
      >
        {editing && (
          <PlanForm
            plan={editing.mode === 'update' ? editing.plan : undefined}
            onCancel={() => setEditing(null)}
            onSaved={() => saved(editing.mode)}
          />
        )}
      </FormModal>
    </>
  );
}
