import { Alert, Button, Group, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ui } from '../../shared/messages';
import { type PublicUser, updateProfileInput } from '../../shared/schemas/users';
import { serverMessageOf } from '../api/errors';
import { notifySuccess } from '../notify';
import { useTRPC } from '../trpc';

export const PROFILE_UPDATED = 'Profile updated successfully';

/** The profile fields (spec section 5): the shared input without `userId`, which the page adds. */
const profileSchema = updateProfileInput.omit({ userId: true });

export type ProfileValues = {
  firstName: string;
  lastName: string;
  company: string;
  phoneNumber: string;
};

/** The 'Update Profile' form, prefilled from the user's record; the email is shown, never sent. */
export function ProfileForm({ profile }: { profile: PublicUser }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.settings.updateUser.mutationOptions());
  const form = useForm<ProfileValues>({
    mode: 'uncontrolled',
    initialValues: {
      firstName: profile.firstName,
      lastName: profile.lastName,
      company: profile.company,
      phoneNumber: profile.phoneNumber,
    },
    validate: schemaResolver(profileSchema, { sync: true }),
  });

  const submit = form.onSubmit((values) => {
    update.mutate(
      { userId: profile._id, ...profileSchema.parse(values) },
      {
        onSuccess: async (saved) => {
          notifySuccess(PROFILE_UPDATED);
          form.setValues({
            firstName: saved.firstName,
            lastName: saved.lastName,
            company: saved.company,
            phoneNumber: saved.phoneNumber,
          });
          form.resetDirty();
          // The sidebar's 'Welcome {firstName}' reads the same query.
          await queryClient.invalidateQueries({
            queryKey: trpc.settings.getUser.queryKey({ userId: profile._id }),
          });
        },
      },
    );
  });

  return (
    <form onSubmit={submit} noValidate aria-label="Profile">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
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
          label="Company"
          withAsterisk
          key={form.key('company')}
          {...form.getInputProps('company')}
        />
        <TextInput
          label="Phone number"
          type="tel"
          withAsterisk
          key={form.key('phoneNumber')}
          {...form.getInputProps('phoneNumber')}
        />
        <TextInput label="Email" type="email" value={profile.email} readOnly disabled />
        {update.error && (
          <Alert color="red" role="alert">
            {serverMessageOf(update.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? ui.loading : 'Submit'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
