import { Alert, Group, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type PublicUser, updateProfileInput } from '../../shared/schemas/users';
import { serverMessageOf } from '../api/errors';
import { notifySuccess } from '../notify';
import { useTRPC } from '../trpc';
import { NameInputs } from './NameInputs';
import { SubmitButton } from './SubmitButton';

export const PROFILE_UPDATED = 'Profile updated successfully';

/** The profile fields: the shared input without `userId`, which the page adds. */
const profileSchema = updateProfileInput.omit({ userId: true });

type ProfileValues = {
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
        <NameInputs form={form} sideBySideFrom="sm" />
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
        {/* Read-only (the email cannot be changed here), not disabled: a disabled field is drawn
            too faint to read and cannot be focused or copied; this one reads at full contrast on a
            filled ground. */}
        <TextInput
          label="Email"
          type="email"
          value={profile.email}
          readOnly
          variant="filled"
          description="Your sign-in e-mail; it cannot be changed here."
        />
        {update.error && (
          <Alert color="red" role="alert">
            {serverMessageOf(update.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <SubmitButton pending={update.isPending}>Submit</SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
