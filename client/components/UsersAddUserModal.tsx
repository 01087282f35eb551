import { Alert, NativeSelect, PasswordInput, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { ROLES } from '../../shared/constants';
import { alerts } from '../../shared/messages';
import { createUserInput, type PublicUser } from '../../shared/schemas/users';
import { answeredMessageOr } from '../api/errors';
import { useTRPC } from '../trpc';
import { DialogActions } from './DialogActions';
import { FormModal } from './FormModal';
import { NameInputs } from './NameInputs';
import { isBrokerageWideViewer, officeChoices, useOffices, useViewer } from './offices/scope';

/** The dialog's fields; Role starts empty so 'Role is required' can show. */
type AddUserValues = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  company: string;
  password: string;
  role: string;
  /** '' for no office. */
  officeId: string;
};

const EMPTY: AddUserValues = {
  firstName: '',
  lastName: '',
  email: '',
  phoneNumber: '',
  company: '',
  password: '',
  role: '',
  officeId: '',
};

// The office is chosen from a list and checked by the server; the rest by the shared schema.
const formSchema = createUserInput.omit({ officeId: true, coordinatesFor: true });

const ROLE_CHOICES = [
  { value: '', label: 'Select a role' },
  ...ROLES.map((role) => ({ value: role, label: role })),
];

type UsersAddUserModalProps = {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: PublicUser) => void;
};

/** The Add user dialog of the users page. */
export function UsersAddUserModal({ opened, onClose, onCreated }: UsersAddUserModalProps) {
  return (
    <FormModal opened={opened} title="Add user" onClose={onClose}>
      <AddUserForm onCancel={onClose} onCreated={onCreated} />
    </FormModal>
  );
}

function AddUserForm({
  onCancel,
  onCreated,
}: {
  onCancel: () => void;
  onCreated: (user: PublicUser) => void;
}) {
  const trpc = useTRPC();
  const create = useMutation(trpc.users.create.mutationOptions());
  const brokerageWide = isBrokerageWideViewer(useViewer());
  const offices = useOffices();
  const officeOptions = officeChoices(offices.data, brokerageWide);
  const form = useForm<AddUserValues>({
    mode: 'uncontrolled',
    // An office admin's new user joins its office: the one choice it has.
    initialValues: { ...EMPTY, officeId: brokerageWide ? '' : (officeOptions[0]?.value ?? '') },
    validate: schemaResolver(formSchema, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    const input = formSchema.parse(values);
    create.mutate(values.officeId ? { ...input, officeId: values.officeId } : input, {
      onSuccess: onCreated,
    });
  });
  const sending = create.isPending;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <NameInputs form={form} sideBySideFrom="xs" />
        <TextInput
          label="Email"
          type="email"
          withAsterisk
          key={form.key('email')}
          {...form.getInputProps('email')}
        />
        <TextInput
          label="Phone number"
          type="tel"
          placeholder="123-456-7890"
          withAsterisk
          key={form.key('phoneNumber')}
          {...form.getInputProps('phoneNumber')}
        />
        <TextInput
          label="Company"
          withAsterisk
          key={form.key('company')}
          {...form.getInputProps('company')}
        />
        <PasswordInput
          label="Password"
          withAsterisk
          autoComplete="new-password"
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <NativeSelect
          label="Role"
          withAsterisk
          data={ROLE_CHOICES}
          key={form.key('role')}
          {...form.getInputProps('role')}
        />
        {(offices.data?.length ?? 0) > 0 && (
          <NativeSelect
            label="Office"
            data={officeOptions}
            key={form.key('officeId')}
            {...form.getInputProps('officeId')}
          />
        )}
        {/* A failure shows the server's message, or 'Failed to add user. Please try again.' without one. */}
        {create.error && (
          <Alert color="red" role="alert">
            {answeredMessageOr(create.error, alerts.addUserFailed)}
          </Alert>
        )}
        <DialogActions pending={sending} onCancel={onCancel} />
      </Stack>
    </form>
  );
}
