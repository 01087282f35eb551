import { Alert, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { commissionMessages } from '../../../shared/commission-messages';
import {
  type CommissionPlan,
  type CommissionPlanInput,
  commissionPlanInput,
} from '../../../shared/schemas/commission';
import { issuesOf, serverMessageOf } from '../../api/errors';
import { useTRPC } from '../../trpc';
import { DialogActions } from '../DialogActions';
import { centsOfDollars, dollarsText } from './money';

type PlanField = 'name' | 'agentSplit' | 'capCents' | 'transactionFeeCents';
type PlanErrors = Partial<Record<PlanField, string>>;
const PLAN_FIELDS: readonly string[] = ['name', 'agentSplit', 'capCents', 'transactionFeeCents'];

export const NOT_DOLLARS = 'Enter an amount in dollars, like 1,234.56';

/** The plan's fields as typed: money in dollars, '' for an empty field. */
export type PlanDraft = { name: string; agentSplit: number | string; cap: string; fee: string };

export function draftOfPlan(plan: CommissionPlan | undefined): PlanDraft {
  if (!plan) return { name: '', agentSplit: '', cap: '', fee: '' };
  return {
    name: plan.name,
    agentSplit: plan.agentSplit,
    cap: plan.capCents === null ? '' : dollarsText(plan.capCents),
    fee: plan.transactionFeeCents ? dollarsText(plan.transactionFeeCents) : '',
  };
}

/**
 * The draft as the plan it means, or the fields it gets wrong: an empty cap is no cap, an empty
 * fee none; the rest is the shared schema's, the same the server checks.
 */
export function planOfDraft(draft: PlanDraft): { plan: CommissionPlanInput } | { errors: PlanErrors } {
  const capCents = centsOfDollars(draft.cap);
  const feeCents = centsOfDollars(draft.fee);
  const errors: PlanErrors = {};
  if (Number.isNaN(capCents)) errors.capCents = NOT_DOLLARS;
  if (Number.isNaN(feeCents)) errors.transactionFeeCents = NOT_DOLLARS;
  const parsed = commissionPlanInput.safeParse({
    name: draft.name,
    agentSplit: draft.agentSplit === '' ? undefined : Number(draft.agentSplit),
    capCents,
    transactionFeeCents: feeCents ?? 0,
  });
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]) as PlanField;
      if (PLAN_FIELDS.includes(field)) errors[field] ??= issue.message;
    }
  if (Object.keys(errors).length || !parsed.success) return { errors };
  return { plan: parsed.data };
}

type PlanFormProps = {
  /** The plan being changed; nothing adds one. */
  plan?: CommissionPlan;
  onCancel: () => void;
  onSaved: (plan: CommissionPlan) => void;
};

/** Adds or changes a commission plan: dollars typed, cents sent, refusals on the field they name. */
export function PlanForm({ plan, onCancel, onSaved }: PlanFormProps) {
  const trpc = useTRPC();
  const create = useMutation(trpc.commission.createPlan.mutationOptions());
  const update = useMutation(trpc.commission.updatePlan.mutationOptions());
  const [draft, setDraft] = useState(() => draftOfPlan(plan));
  const [errors, setErrors] = useState<PlanErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const pending = create.isPending || update.isPending;

  const change = (patch: Partial<PlanDraft>) => setDraft((current) => ({ ...current, ...patch }));

  const refused = (error: unknown) => {
    const message = serverMessageOf(error);
    const fields: PlanErrors = {};
    for (const issue of issuesOf(error)) {
      const field = issue.path.split('.')[0] as PlanField;
      if (PLAN_FIELDS.includes(field)) fields[field] ??= issue.message;
    }
    // A name used already is a 409 that names no field: it is the name's.
    if (message === commissionMessages.nameTaken) fields.name = message;
    setErrors(fields);
    setFailure(Object.keys(fields).length ? null : message);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const result = planOfDraft(draft);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    const options = { onSuccess: onSaved, onError: refused };
    if (plan) update.mutate({ id: plan._id, ...result.plan }, options);
    else create.mutate(result.plan, options);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          required
          data-autofocus
          maxLength={100}
          value={draft.name}
          error={errors.name}
          onChange={(event) => change({ name: event.currentTarget.value })}
        />
        <NumberInput
          label="Agent split"
          description="The agent's percent of the commission after any referral; the brokerage takes the rest"
          required
          suffix="%"
          allowDecimal={false}
          allowNegative={false}
          min={0}
          max={100}
          clampBehavior="none"
          hideControls
          value={draft.agentSplit}
          error={errors.agentSplit}
          onChange={(agentSplit) => change({ agentSplit })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <TextInput
            label="Annual cap"
            description="The most the brokerage takes of an agent's year; empty for no cap"
            leftSection="$"
            inputMode="decimal"
            placeholder="No cap"
            value={draft.cap}
            error={errors.capCents}
            onChange={(event) => change({ cap: event.currentTarget.value })}
          />
          <TextInput
            label="Transaction fee"
            description="Moved from the agent's share to the brokerage on every transaction"
            leftSection="$"
            inputMode="decimal"
            placeholder="0.00"
            value={draft.fee}
            error={errors.transactionFeeCents}
            onChange={(event) => change({ fee: event.currentTarget.value })}
          />
        </SimpleGrid>
        {failure && (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        )}
        <DialogActions pending={pending} onCancel={onCancel} submitLabel={plan ? 'Save plan' : 'Add plan'} />
      </Stack>
    </form>
  );
}
