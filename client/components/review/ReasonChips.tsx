import { Chip, Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { RejectionReason } from '../../../shared/schemas/compliance';
import type { ReasonRef } from '../../../shared/schemas/transactions';
import { useTRPC } from '../../trpc';

/** The active rejection reasons, in the desk's order (admins only: GET /api/admin/rejection-reasons). */
export function useRejectionReasons(): { reasons: RejectionReason[]; loading: boolean } {
  const trpc = useTRPC();
  const query = useQuery(trpc.rejectionReasons.list.queryOptions(undefined, { staleTime: 60_000 }));
  return { reasons: (query.data ?? []).filter((reason) => reason.active), loading: query.isPending };
}

type ReasonChipsProps = {
  /** Codes of the chosen reasons. */
  value: string[];
  onChange: (codes: string[]) => void;
  disabled?: boolean;
};

/** The reasons of a rejection, picked as chips (several at once). */
export function ReasonChips({ value, onChange, disabled = false }: ReasonChipsProps) {
  const { reasons } = useRejectionReasons();
  if (reasons.length === 0) return null;
  return (
    <Chip.Group multiple value={value} onChange={onChange}>
      <Group gap={6} role="group" aria-label="Rejection reasons">
        {reasons.map((reason) => (
          <Chip key={reason.code} value={reason.code} size="xs" variant="outline" disabled={disabled}>
            {reason.label}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}

/** The reasons a decision gave, as the agent and the desk read them. */
export function ReasonList({ reasons }: { reasons: readonly ReasonRef[] }) {
  if (reasons.length === 0) return null;
  return (
    <Text size="xs" c="red.8" fw={600}>
      {reasons.map((reason) => reason.label).join(' · ')}
    </Text>
  );
}
