import { MultiSelect, NativeSelect, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { commissionMessages } from '../../../shared/commission-messages';
import { MAX_PAGE_SIZE } from '../../../shared/constants';
import { officeMessages } from '../../../shared/messages';
import type { PublicUser } from '../../../shared/schemas/users';
import { serverMessageOf } from '../../api/errors';
import { notifyError } from '../../notify';
import { useTRPC } from '../../trpc';
import { DialogActions } from '../DialogActions';
import { FormModal } from '../FormModal';
import { isBrokerageWideViewer, officeChoices, useOffices, useViewer } from '../offices/scope';

export const OFFICE_DIALOG_TITLE = 'Office & coordination';

type UserOfficeModalProps = {
  /** The user whose office and coordination are edited; nothing keeps the dialog closed. */
  user: PublicUser | null;
  onClose: () => void;
  onSaved: (user: PublicUser) => void;
};

/** Edit office & coordination: the user's office and, for an agent, the agents it coordinates for. */
export function UserOfficeModal({ user, onClose, onSaved }: UserOfficeModalProps) {
  return (
    <FormModal opened={user !== null} title={OFFICE_DIALOG_TITLE} onClose={onClose}>
      {user && <UserOfficeForm user={user} onCancel={onClose} onSaved={onSaved} />}
    </FormModal>
  );
}

/** Where the server's refusal belongs: the field it is about, else a toast. */
const FIELD_OF_MESSAGE: Record<string, 'officeId' | 'coordinatesFor' | 'commissionPlanId'> = {
  [officeMessages.onlyActiveAgentsCoordinated]: 'coordinatesFor',
  [officeMessages.onlyAgentsCoordinate]: 'coordinatesFor',
  [officeMessages.officeAdminStaysInOffice]: 'officeId',
  [officeMessages.notFound]: 'officeId',
  [commissionMessages.unknownPlan]: 'commissionPlanId',
};

export const NO_PLAN = 'No plan';

function UserOfficeForm({
  user,
  onCancel,
  onSaved,
}: {
  user: PublicUser;
  onCancel: () => void;
  onSaved: (user: PublicUser) => void;
}) {
  const trpc = useTRPC();
  const brokerageWide = isBrokerageWideViewer(useViewer());
  const offices = useOffices();
  const coordinates = user.role === 'user';
  // The agents a coordinator can work for: active agents other than the user itself.
  const users = useQuery(
    trpc.users.list.queryOptions({ page: 1, limit: MAX_PAGE_SIZE }, { enabled: coordinates }),
  );
  const agents = useMemo(
    () =>
      (users.data?.users ?? [])
        .filter((other) => other.role === 'user' && other.status === 'active' && other._id !== user._id)
        .map((other) => ({ value: other._id, label: `${other.firstName} ${other.lastName}` })),
    [users.data, user._id],
  );

  const [officeId, setOfficeId] = useState(user.officeId ?? '');
  const [coordinatesFor, setCoordinatesFor] = useState<string[]>(user.coordinatesFor);
  // An agent's commissions split by its plan.
  const plans = useQuery(trpc.commission.listPlans.queryOptions(undefined, { enabled: coordinates }));
  const planChoices = [
    { value: '', label: NO_PLAN },
    ...(plans.data ?? []).map((plan) => ({ value: plan._id, label: plan.name })),
  ];
  const [commissionPlanId, setCommissionPlanId] = useState(user.commissionPlanId ?? '');
  const [errors, setErrors] = useState<{
    officeId?: string;
    coordinatesFor?: string;
    commissionPlanId?: string;
  }>({});
  const update = useMutation(trpc.users.update.mutationOptions());

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    update.mutate(
      {
        id: user._id,
        officeId: officeId || null,
        ...(coordinates ? { coordinatesFor, commissionPlanId: commissionPlanId || null } : {}),
      },
      {
        onSuccess: onSaved,
        onError: (failure) => {
          const message = serverMessageOf(failure);
          const field = FIELD_OF_MESSAGE[message];
          if (field) setErrors({ [field]: message });
          else notifyError(message);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Text size="sm">
          {user.firstName} {user.lastName} ({user.email})
        </Text>
        <NativeSelect
          label="Office"
          data-autofocus
          value={officeId}
          onChange={(event) => setOfficeId(event.currentTarget.value)}
          data={officeChoices(offices.data, brokerageWide)}
          error={errors.officeId}
        />
        {coordinates && (
          <MultiSelect
            label="Coordinates for"
            description="The agents whose transactions this user works on as their coordinator."
            placeholder={coordinatesFor.length ? undefined : 'No one'}
            data={agents}
            value={coordinatesFor}
            onChange={setCoordinatesFor}
            searchable
            clearable
            nothingFoundMessage="No active agent found"
            error={errors.coordinatesFor}
            comboboxProps={{ withinPortal: true }}
          />
        )}
        {coordinates && (
          <NativeSelect
            label="Commission plan"
            description="How this agent's commissions split with the brokerage."
            value={commissionPlanId}
            onChange={(event) => setCommissionPlanId(event.currentTarget.value)}
            // The current plan stays a choice while the list loads, so the field never reads wrong.
            data={
              plans.data || !commissionPlanId
                ? planChoices
                : [...planChoices, { value: commissionPlanId, label: 'Current plan' }]
            }
            error={errors.commissionPlanId}
          />
        )}
        <DialogActions pending={update.isPending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
