import { Container, Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { skipToken, useQuery } from '@tanstack/react-query';
import { ui } from '../../shared/messages';
import { getUserId } from '../auth/session';
import { PasswordChangeForm } from '../components/PasswordChangeForm';
import { ProfileForm } from '../components/ProfileForm';
import { NotificationSettingsForm } from '../components/settings/NotificationSettingsForm';
import { AdminPolicySwitch } from '../components/sign-in/AdminPolicySwitch';
import { Passkeys } from '../components/sign-in/Passkeys';
import { TotpSetup } from '../components/sign-in/TotpSetup';
import { useLoadFailureToast } from '../notify';
import { useTRPC } from '../trpc';

const LOAD_ERROR_TOAST_ID = 'profile-load-error';
const LOAD_ERROR_TEXT = 'Your profile could not be loaded.';

/** Profile settings (/settings): 'Update Profile' with a read-only email. */
export function Settings() {
  const trpc = useTRPC();
  const userId = getUserId();
  const profile = useQuery(trpc.settings.getUser.queryOptions(userId ? { userId } : skipToken));
  useLoadFailureToast(LOAD_ERROR_TOAST_ID, LOAD_ERROR_TEXT, profile.error, profile.refetch);

  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Update Profile</Title>
        <Paper withBorder p="lg" radius="md">
          {profile.data ? (
            // Keyed by the user, so the fields start from that user's record.
            <ProfileForm key={profile.data._id} profile={profile.data} />
          ) : (
            <Text>{profile.error ? LOAD_ERROR_TEXT : ui.loading}</Text>
          )}
        </Paper>
        <TotpSetup />
        {profile.data?.isOwner && <AdminPolicySwitch />}
        {userId && (
          <>
            <Divider />
            <Paper withBorder p="lg" radius="md">
              <PasswordChangeForm userId={userId} />
            </Paper>
            <Divider />
            <Passkeys />
            <Divider />
            <NotificationsSection userId={userId} />
          </>
        )}
      </Stack>
    </Container>
  );
}

/** Notification preferences: deliveries, reminder days, timezone. */
function NotificationsSection({ userId }: { userId: string }) {
  const trpc = useTRPC();
  const settings = useQuery(trpc.notificationSettings.get.queryOptions({ userId }));
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="notifications-heading">
      <Stack gap="md">
        <Title order={2} size="h3" id="notifications-heading">
          Notifications
        </Title>
        {settings.data ? (
          // Keyed by the answer, so a refetch starts the choices from what is stored.
          <NotificationSettingsForm key={settings.dataUpdatedAt} userId={userId} settings={settings.data} />
        ) : (
          <Text>
            {settings.error
              ? 'Your notification settings could not be loaded.'
              : 'Loading notification settings...'}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
