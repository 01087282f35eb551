import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { apiMessages, notificationSettingsMessages, validation } from '../../shared/messages';
import type { NotificationSettings } from '../../shared/schemas/notification-settings';
import type { PublicUser } from '../../shared/schemas/users';
import { getAccessToken, getRefreshToken, getUserId, setSession } from '../auth/session';
import { PROFILE_UPDATED } from '../components/ProfileForm';
import { AppRoutes } from '../routes';
import { renderWithProviders } from '../test-utils/render';
import { fakeAccessToken } from '../test-utils/tokens';
import { deferred, type StubHandler, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { Settings } from './Settings';

type Handlers = Record<string, StubHandler>;

const AGENT_SETTINGS: NotificationSettings = {
  timezone: 'America/New_York',
  reminderDays: [3, 1],
  events: { documentReviewed: 'email', comment: 'in-app', keyDate: 'email' },
};

function renderSettings(handlers: Handlers = {}) {
  const stub = stubTrpcClient({
    'settings.getUser': () => testProfile(),
    'notificationSettings.get': () => AGENT_SETTINGS,
    ...handlers,
  });
  const view = renderWithProviders(<Settings />, { path: '/settings', trpcClient: stub.client });
  return { ...view, stub };
}

const profileForm = () => within(screen.getByRole('form', { name: 'Profile' }));
const passwordForm = () => within(screen.getByRole('form', { name: 'Change password' }));
const toast = (text: string) =>
  screen.findByText(text, {
    selector: '.mantine-Notification-description, .mantine-Notification-description *',
  });

beforeEach(() => {
  setSession({
    accessToken: fakeAccessToken({ sub: TEST_USER_ID, role: 'user' }),
    refreshToken: 'stored-refresh',
    userId: TEST_USER_ID,
  });
});

afterEach(() => {
  notifications.clean();
});

describe('Settings page', () => {
  it("shows 'Update Profile' at once, then the form prefilled from the profile with the email read-only", async () => {
    const answer = deferred();
    const { stub } = renderSettings({ 'settings.getUser': () => answer.promise });
    expect(screen.getByRole('heading', { level: 1, name: 'Update Profile' })).toBeVisible();
    expect(screen.getByText('Loading...')).toBeVisible();

    answer.resolve(testProfile());
    expect(await screen.findByRole('textbox', { name: /^First name/ })).toHaveValue('Dana');
    const form = profileForm();
    expect(form.getByRole('textbox', { name: /^Last name/ })).toHaveValue('Agent');
    expect(form.getByRole('textbox', { name: /^Company/ })).toHaveValue('Acme Realty');
    expect(form.getByRole('textbox', { name: /^Phone number/ })).toHaveValue('+1 555 0100');
    const email = form.getByRole('textbox', { name: /^Email/ });
    expect(email).toHaveValue('dana@example.com');
    // Read-only but not disabled: readable at full contrast, focusable and copyable.
    expect(email).not.toBeDisabled();
    expect(email).toHaveAttribute('readonly');
    expect(email).toHaveAccessibleDescription('Your sign-in e-mail; it cannot be changed here.');
    expect(stub.callsTo('settings.getUser')).toEqual([{ userId: TEST_USER_ID }]);
  });

  it('shows the Profile messages and sends nothing', async () => {
    const { user, stub } = renderSettings();
    await screen.findByRole('textbox', { name: /^First name/ });
    const form = profileForm();
    for (const name of [/^First name/, /^Last name/, /^Company/, /^Phone number/]) {
      await user.clear(form.getByRole('textbox', { name }));
    }
    await user.click(form.getByRole('button', { name: 'Submit' }));
    expect(await form.findByText('First name is required')).toBeVisible();
    expect(form.getByText(validation.lastNameRequired)).toBeVisible();
    expect(form.getByText('Company is required')).toBeVisible();
    expect(form.getByText(validation.phoneRequired)).toBeVisible();

    await user.type(form.getByRole('textbox', { name: /^Phone number/ }), '555 0100');
    await user.click(form.getByRole('button', { name: 'Submit' }));
    expect(await form.findByText('Invalid phone number format')).toBeVisible();

    await user.clear(form.getByRole('textbox', { name: /^Phone number/ }));
    await user.type(form.getByRole('textbox', { name: /^Phone number/ }), '+1 555 0100 0100 0100 01');
    await user.click(form.getByRole('button', { name: 'Submit' }));
    expect(await form.findByText('Phone number cannot exceed 20 characters')).toBeVisible();

    expect(stub.callsTo('settings.updateUser')).toEqual([]);
  });

  it('saves the profile, toasts, and refreshes the Welcome name in the sidebar', async () => {
    let current: PublicUser = testProfile();
    const stub = stubTrpcClient({
      'settings.getUser': () => current,
      'settings.updateUser': (input) => {
        const { userId: _userId, ...fields } = input as PublicUser & { userId: string };
        current = { ...current, ...fields };
        return current;
      },
    });
    const { user } = renderWithProviders(<AppRoutes />, { path: '/settings', trpcClient: stub.client });
    expect(await screen.findByText('Welcome Dana')).toBeVisible();
    await screen.findByRole('textbox', { name: /^First name/ });
    const form = profileForm();

    await user.clear(form.getByRole('textbox', { name: /^First name/ }));
    await user.type(form.getByRole('textbox', { name: /^First name/ }), '  Danielle ');
    await user.clear(form.getByRole('textbox', { name: /^Phone number/ }));
    await user.type(form.getByRole('textbox', { name: /^Phone number/ }), '123-456-7890');
    await user.click(form.getByRole('button', { name: 'Submit' }));

    expect(await toast(PROFILE_UPDATED)).toBeVisible();
    expect(stub.callsTo('settings.updateUser')).toEqual([
      {
        userId: TEST_USER_ID,
        firstName: 'Danielle',
        lastName: 'Agent',
        company: 'Acme Realty',
        phoneNumber: '123-456-7890',
      },
    ]);
    expect(await screen.findByText('Welcome Danielle')).toBeVisible();
    expect(stub.callsTo('settings.getUser').length).toBeGreaterThanOrEqual(2);
  });

  it("shows the server's message under the profile form when saving fails", async () => {
    const { user } = renderSettings({
      'settings.updateUser': () => {
        throw trpcError(403, 'You do not have permission to do this');
      },
    });
    await screen.findByRole('textbox', { name: /^First name/ });
    await user.click(profileForm().getByRole('button', { name: 'Submit' }));
    expect(await profileForm().findByRole('alert')).toHaveTextContent(
      'You do not have permission to do this',
    );
  });

  it('validates the change-password form with the shared messages', async () => {
    const { user, stub } = renderSettings();
    const form = passwordForm();
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findAllByText(validation.passwordRequired)).toHaveLength(2);
    expect(form.getByText(validation.fieldRequired)).toBeVisible();

    await user.type(form.getByLabelText(/^Current password/), 'old-password');
    await user.type(form.getByLabelText(/^New password/), 'short');
    await user.type(form.getByLabelText(/^Confirm password/), 'other');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText(validation.passwordMin)).toBeVisible();
    expect(form.getByText(validation.passwordsDoNotMatch)).toBeVisible();
    expect(stub.callsTo('settings.changePassword')).toEqual([]);
  });

  it('changes the password, stores the new session pair and toasts', async () => {
    const newToken = fakeAccessToken({ sub: TEST_USER_ID, role: 'user' });
    const { user, stub } = renderSettings({
      'settings.changePassword': () => ({ token: newToken, refreshToken: 'new-refresh', _id: TEST_USER_ID }),
    });
    const form = passwordForm();
    await user.type(form.getByLabelText(/^Current password/), 'old-password');
    await user.type(form.getByLabelText(/^New password/), 'new-password');
    await user.type(form.getByLabelText(/^Confirm password/), 'new-password');
    await user.click(form.getByRole('button', { name: 'Change password' }));

    expect(await toast(apiMessages.passwordChanged)).toBeVisible();
    expect(screen.getByText('Password changed. Other sessions were signed out.')).toBeVisible();
    expect(stub.callsTo('settings.changePassword')).toEqual([
      {
        userId: TEST_USER_ID,
        currentPassword: 'old-password',
        password: 'new-password',
        confirmPassword: 'new-password',
      },
    ]);
    expect(getAccessToken()).toBe(newToken);
    expect(getRefreshToken()).toBe('new-refresh');
    expect(getUserId()).toBe(TEST_USER_ID);
    await waitFor(() => expect(form.getByLabelText(/^Current password/)).toHaveValue(''));
  });

  it("shows the server's message under the form when the current password is wrong, keeping the session", async () => {
    const { user } = renderSettings({
      'settings.changePassword': () => {
        throw trpcError(400, 'Current password is incorrect');
      },
    });
    const form = passwordForm();
    await user.type(form.getByLabelText(/^Current password/), 'wrong-password');
    await user.type(form.getByLabelText(/^New password/), 'new-password');
    await user.type(form.getByLabelText(/^Confirm password/), 'new-password');
    await user.click(form.getByRole('button', { name: 'Change password' }));

    expect(await form.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(getRefreshToken()).toBe('stored-refresh');
  });

  it("offers the account's events only, and saves the deliveries, reminder days and timezone chosen", async () => {
    const { user, stub } = renderSettings({
      'notificationSettings.update': (input) => {
        const { userId: _userId, ...saved } = input as NotificationSettings & { userId: string };
        return saved;
      },
    });
    const form = within(await screen.findByRole('form', { name: 'Notifications' }));
    // An agent's events; the admin ones are not offered.
    expect(
      form.getAllByRole('radiogroup').map((group) => group.getAttribute('aria-labelledby')),
    ).toHaveLength(3);
    expect(form.queryByRole('radiogroup', { name: 'Registration' })).not.toBeInTheDocument();
    const comment = within(form.getByRole('radiogroup', { name: 'Comment' }));
    expect(comment.getByRole('radio', { name: 'In-app' })).toBeChecked();
    await user.click(comment.getByRole('radio', { name: 'Daily digest' }));
    await user.click(
      within(form.getByRole('radiogroup', { name: 'Key date reminder' })).getByRole('radio', {
        name: 'In-app',
      }),
    );

    expect(form.getByRole('checkbox', { name: '3 days before' })).toBeChecked();
    await user.click(form.getByRole('checkbox', { name: '3 days before' }));
    await user.click(form.getByRole('checkbox', { name: '7 days before' }));
    await user.type(form.getByRole('textbox', { name: /^Another day/ }), '21');
    await user.click(form.getByRole('button', { name: 'Add day' }));
    expect(form.getByRole('checkbox', { name: '21 days before' })).toBeChecked();

    const zone = form.getByRole('combobox', { name: /^Timezone/ });
    await user.clear(zone);
    await user.type(zone, 'Europe/Par');
    await user.click(await screen.findByRole('option', { name: 'Europe/Paris' }));

    await user.click(form.getByRole('button', { name: 'Save notifications' }));
    expect(await toast(notificationSettingsMessages.saved)).toBeVisible();
    expect(stub.callsTo('notificationSettings.update')).toEqual([
      {
        userId: TEST_USER_ID,
        timezone: 'Europe/Paris',
        reminderDays: [21, 7, 1],
        events: { documentReviewed: 'email', comment: 'digest', keyDate: 'in-app' },
      },
    ]);
    expect(stub.callsTo('notificationSettings.get')).toEqual([{ userId: TEST_USER_ID }]);
  }, 15_000);

  it("allows five reminder days at most, and toasts a refusal in the server's words", async () => {
    const { user } = renderSettings({
      'notificationSettings.get': () => ({ ...AGENT_SETTINGS, reminderDays: [1, 2, 3, 4, 5] }),
      'notificationSettings.update': () => {
        throw trpcError(400, 'Timezone must be an IANA zone such as America/New_York');
      },
    });
    const form = within(await screen.findByRole('form', { name: 'Notifications' }));
    expect(form.getByRole('checkbox', { name: '6 days before' })).toBeDisabled();
    expect(form.getByRole('button', { name: 'Add day' })).toBeDisabled();
    await user.click(form.getByRole('button', { name: 'Save notifications' }));
    expect(await toast('Timezone must be an IANA zone such as America/New_York')).toBeVisible();
  });
});
