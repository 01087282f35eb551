import '@mantine/dates/styles.css';
import { Button, Group, Modal, NativeSelect, Stack } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useLocation } from 'wouter';
import type { z } from 'zod';
import { NO_ROLE } from '../../../shared/constants';
import { toasts } from '../../../shared/messages';
import type { Template } from '../../../shared/schemas/templates';
import { createTransactionInput } from '../../../shared/schemas/transactions';
import { serverMessageOf } from '../../api/errors';
import { getUserId } from '../../auth/session';
import { notifySuccess, useLoadFailureToast } from '../../notify';
import { routeTo } from '../../paths';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';
import { AddressInputs } from './AddressInputs';
import { CLEAR_DATE_BUTTON_PROPS, DATE_PICKER_STYLES } from './key-dates';
import type { AgentChoice } from './useCoordinatedAgents';

/** The dialog's fields: the shared create input without `user`, which the dialog adds itself. */
const dialogSchema = createTransactionInput.omit({ user: true });
type DialogValues = z.input<typeof dialogSchema>;

// Role starts as '-': until a type asks for a role, none is shown and none is sent.
const EMPTY: DialogValues = {
  type: '',
  role: NO_ROLE,
  streetAddress: '',
  city: '',
  state: '',
  zip: '',
  closingDate: null,
};

function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

/** The Type choices: each template type once (the distinct types fill the Type select). */
export function typesOf(templates: Template[]): string[] {
  return distinct(templates.map((template) => template.type));
}

/** The roles of one type: choosing a Type sets Roles to that type's distinct roles. */
export function rolesOf(templates: Template[], type: string): string[] {
  return distinct(templates.filter((template) => template.type === type).map((template) => template.role));
}

/** The Role a newly chosen type starts with: its only role, none to pick ('') or '-'. */
export function initialRole(roles: string[]): string {
  if (!asksForRole(roles)) return NO_ROLE;
  return roles.length === 1 ? (roles[0] as string) : '';
}

/** The Role select shows only for a type with a role other than '-'. */
export function asksForRole(roles: string[]): boolean {
  return roles.some((role) => role !== NO_ROLE);
}

type CreateTransactionDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** A coordinator's choice of whose transaction it opens: itself first, then its agents. */
  agents?: AgentChoice[];
};

/** The Create Transaction dialog: Type, then Role when the type has roles, then the address. */
export function CreateTransactionDialog({ opened, onClose, agents = [] }: CreateTransactionDialogProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [, navigate] = useLocation();
  // Fetched when the dialog opens, not with the list behind it.
  const templatesQuery = useQuery(trpc.templates.all.queryOptions(undefined, { enabled: opened }));
  useLoadFailureToast(
    'templates-all',
    'Could not load transaction types',
    opened ? templatesQuery.error : null,
    templatesQuery.refetch,
  );
  const create = useMutation(trpc.transactions.create.mutationOptions());
  // Controlled: the Role select appears and disappears as the Type changes.
  const form = useForm<DialogValues>({
    mode: 'controlled',
    initialValues: EMPTY,
    validate: schemaResolver(dialogSchema, { sync: true }),
  });

  // '' until chosen: the coordinator itself, the first choice.
  const [agentId, setAgentId] = useState('');
  const templates = templatesQuery.data ?? [];
  const roles = rolesOf(templates, form.values.type);
  const showRole = asksForRole(roles);

  const chooseType = (type: string) => {
    form.setFieldValue('type', type);
    // A type without roles sends '-'; one with a single role takes it; one with several makes the
    // user pick again.
    form.setFieldValue('role', initialRole(rolesOf(templates, type)));
    form.clearFieldError('role');
  };

  const close = () => {
    form.reset();
    setAgentId('');
    create.reset();
    onClose();
  };

  const submit = form.onSubmit((values) => {
    const userId = getUserId();
    // No closing date is no field at all, as before key dates existed.
    const { closingDate, ...fields } = dialogSchema.parse(values);
    const input = {
      ...fields,
      ...(closingDate ? { closingDate } : {}),
      ...(userId ? { user: userId } : {}),
      ...(agentId ? { agentId } : {}),
    };
    create.mutate(input, {
      onSuccess: async (transaction) => {
        notifySuccess(toasts.transactionCreated);
        close();
        navigate(routeTo.transaction(transaction._id));
        await Promise.all([
          queryClient.invalidateQueries(trpc.transactions.pathFilter()),
          queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
        ]);
      },
      // A failure is a browser alert with the server's message; the dialog stays open.
      onError: (error) => window.alert(serverMessageOf(error)),
    });
  });

  return (
    <Modal opened={opened} onClose={close} title="Create Transaction" size="lg">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {agents.length > 0 && (
            <NativeSelect
              label="Agent"
              description="Whose transaction this is"
              data={agents}
              value={agentId || agents[0]?.value}
              onChange={(event) => setAgentId(event.currentTarget.value)}
            />
          )}
          <NativeSelect
            label="Type"
            withAsterisk
            disabled={templatesQuery.isPending}
            description={
              templatesQuery.isSuccess && templates.length === 0
                ? 'No transaction types are set up yet: an admin adds them under Transactions Forms.'
                : undefined
            }
            data={[{ value: '', label: 'Select a type' }, ...typesOf(templates)]}
            key={form.key('type')}
            {...form.getInputProps('type')}
            onChange={(event) => chooseType(event.currentTarget.value)}
          />
          {showRole && (
            <NativeSelect
              label="Role"
              withAsterisk
              data={[{ value: '', label: 'Select a role' }, ...roles]}
              key={form.key('role')}
              {...form.getInputProps('role')}
            />
          )}
          <AddressInputs form={form} />
          <DatePickerInput
            label="Closing date"
            description="Optional: the day the deal is set to close, if known"
            placeholder="Pick a date"
            styles={DATE_PICKER_STYLES}
            clearButtonProps={CLEAR_DATE_BUTTON_PROPS}
            clearable
            valueFormat="MMM D, YYYY"
            key={form.key('closingDate')}
            {...form.getInputProps('closingDate')}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <SubmitButton pending={create.isPending}>Submit</SubmitButton>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
