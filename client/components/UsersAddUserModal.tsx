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

/** The dialog's fields; Role starts empty so 'Role is required' can show. */
type AddUserValues = {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  company: string;
  password: string;
  role: string;
};

const EMPTY: AddUserValues = {
  firstName: '',
  lastName: '',
  email: '',
  phoneNumber: '',
  company: '',
  password: '',
  role: '',
};

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
  const form = useForm<AddUserValues>({
    mode: 'uncontrolled',
    initialValues: EMPTY,
    validate: schemaResolver(createUserInput, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    create.mutate(createUserInput.parse(values), { onSuccess: onCreated });
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
