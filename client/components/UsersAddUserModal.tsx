import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  PasswordInput,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { ROLES } from '../../shared/constants';
import { alerts, ui } from '../../shared/messages';
import { createUserInput, type PublicUser } from '../../shared/schemas/users';
import { httpStatusOf } from '../api/errors';
import { useTRPC } from '../trpc';

/** The dialog's fields; Role starts empty so 'Role is required' can show. */
export type AddUserValues = {
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

/** Spec section 8: the server's message, or 'Failed to add user. Please try again.' without one. */
export function addUserFailureMessage(error: unknown): string {
  return httpStatusOf(error) !== undefined && error instanceof Error && error.message
    ? error.message
    : alerts.addUserFailed;
}

type UsersAddUserModalProps = {
  opened: boolean;
  onClose: () => void;
  onCreated: (user: PublicUser) => void;
};

/** The Add user dialog of the users page (spec sections 2, 5 and 8). */
export function UsersAddUserModal({ opened, onClose, onCreated }: UsersAddUserModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Add user"
      closeButtonProps={{ 'aria-label': 'Close dialog' }}
    >
      {/* The modal unmounts its content once closed: each opening starts empty, without an old error. */}
      <AddUserForm onCancel={onClose} onCreated={onCreated} />
    </Modal>
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
        <SimpleGrid cols={{ base: 1, xs: 2 }}>
          <TextInput
            label="First name"
            withAsterisk
            key={form.key('firstName')}
            {...form.getInputProps('firstName')}
          />
          <TextInput
            label="Last name"
            withAsterisk
            key={form.key('lastName')}
            {...form.getInputProps('lastName')}
          />
        </SimpleGrid>
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
        {create.error && (
          <Alert color="red" role="alert">
            {addUserFailureMessage(create.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={sending}>
            Cancel
          </Button>
          <Button type="submit" disabled={sending}>
            {sending ? ui.loading : 'Submit'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
