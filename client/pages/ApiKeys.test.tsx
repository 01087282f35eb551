import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { integrationMessages } from '../../shared/messages';
import type { ApiKeyAnswer } from '../../shared/schemas/api-keys';
import { renderWithProviders } from '../test-utils/render';
import { signInAs } from '../test-utils/transactions';
import { stubTrpcClient } from '../test-utils/trpc-stub';
import { ApiKeys } from './ApiKeys';

const SECRET_KEY = `bpk_${'a'.repeat(32)}_${'B'.repeat(43)}`;

function key(n: number, overrides: Partial<ApiKeyAnswer> = {}): ApiKeyAnswer {
  return {
    _id: `00000000-0000-4000-8000-00000000000${n}`,
    name: `Key ${n}`,
    scopes: ['transactions:read'],
    createdAt: '2026-11-01T10:00:00.000Z',
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    createdBy: { _id: '00000000-0000-4000-8000-0000000000aa', name: 'Ada Admin' },
    officeId: null,
    ...overrides,
  };
}

/** The keys the server keeps: create and revoke change the list the page reads again. */
function renderKeys() {
  let keys: ApiKeyAnswer[] = [
    key(1, { lastUsedAt: '2026-11-20T10:00:00.000Z' }),
    key(2, { name: 'Old CRM', revokedAt: '2026-11-10T10:00:00.000Z' }),
  ];
  const stub = stubTrpcClient({
    'apiKeys.list': () => ({ items: keys }),
    'apiKeys.create': (input) => {
      const { name, scopes, expiresAt } = input as Pick<ApiKeyAnswer, 'name' | 'scopes' | 'expiresAt'>;
      const created = { ...key(3, { name, scopes, expiresAt }), key: SECRET_KEY };
      keys = [key(3, { name, scopes, expiresAt }), ...keys];
      return created;
    },
    'apiKeys.revoke': (input) => {
      const { id } = input as { id: string };
      keys = keys.map((k) => (k._id === id ? { ...k, revokedAt: '2026-11-28T10:00:00.000Z' } : k));
      return keys.find((k) => k._id === id);
    },
  });
  const view = renderWithProviders(<ApiKeys />, { path: '/admin/api-keys', trpcClient: stub.client });
  return { ...view, stub };
}

const rowOf = (name: string) => {
  const row = screen.getByText(name).closest('tr');
  if (!row) throw new Error(`no row for ${name}`);
  return within(row);
};

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('API Keys', () => {
  it('lists keys with their scopes, last use and state; revoked keys offer no Revoke', async () => {
    renderKeys();
    expect(screen.getByRole('heading', { level: 1, name: 'API Keys' })).toBeVisible();
    await screen.findByText('Key 1');
    expect(rowOf('Key 1').getByText('transactions:read')).toBeVisible();
    expect(rowOf('Key 1').getByText('Active')).toBeVisible();
    expect(rowOf('Key 1').queryByText('Never used')).toBeNull();
    expect(rowOf('Old CRM').getByText('Revoked')).toBeVisible();
    expect(rowOf('Old CRM').queryByRole('button', { name: /Revoke/ })).toBeNull();
  });

  it('creates a key with the scopes and expiry chosen and shows it once, with a copy button', async () => {
    const { user, stub } = renderKeys();
    await screen.findByText('Key 1');
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Create API key' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(integrationMessages.keyNameRequired)).toBeVisible();
    expect(stub.callsTo('apiKeys.create')).toEqual([]);

    await user.type(dialog.getByRole('textbox', { name: /^Name/ }), ' Books sync ');
    await user.click(dialog.getByRole('checkbox', { name: /^users:read/ }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    const shown = within(await screen.findByRole('dialog', { name: 'Copy your new API key' }));
    expect(shown.getByDisplayValue(SECRET_KEY)).toBeVisible();
    expect(shown.getByRole('button', { name: 'Copy' })).toBeVisible();
    const [call] = stub.callsTo('apiKeys.create') as Array<{
      name: string;
      scopes: string[];
      expiresAt: string;
    }>;
    expect(call?.name).toBe('Books sync');
    expect(call?.scopes).toEqual(['transactions:read', 'users:read']);
    // 90 days by default.
    const days = (new Date(call?.expiresAt ?? 0).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(89.9);
    expect(days).toBeLessThan(90.1);

    await user.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue(SECRET_KEY)).toBeNull();
    expect(await screen.findByText('Books sync')).toBeVisible();
  });

  it('revokes after confirmation', async () => {
    const { user, stub } = renderKeys();
    await screen.findByText('Key 1');
    await user.click(rowOf('Key 1').getByRole('button', { name: 'Revoke Key 1' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Revoke API key' }));
    expect(dialog.queryByRole('button', { name: 'Submit' })).not.toBeInTheDocument();
    await user.click(dialog.getByRole('button', { name: 'Revoke key' }));
    expect(
      await screen.findByText(integrationMessages.keyRevokedToast, {
        selector: '.mantine-Notification-description, .mantine-Notification-description *',
      }),
    ).toBeVisible();
    expect(stub.callsTo('apiKeys.revoke')).toEqual([{ id: key(1)._id }]);
    await waitFor(() => expect(rowOf('Key 1').getByText('Revoked')).toBeVisible());
  });
});
