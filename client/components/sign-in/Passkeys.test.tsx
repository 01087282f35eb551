import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { passkeyMessages } from '../../../shared/passkey-messages';
import type { PasskeyAnswer } from '../../../shared/schemas/passkeys';
import { renderWithProviders } from '../../test-utils/render';
import { type StubHandler, stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import { PasskeySignIn } from './PasskeySignIn';
import { Passkeys } from './Passkeys';

const LAPTOP: PasskeyAnswer = {
  _id: '0b9e6a52-1111-4111-8111-0000000000a1',
  name: 'Laptop',
  createdAt: '2026-12-01T10:00:00.000Z',
  lastUsedAt: null,
};
const PHONE: PasskeyAnswer = {
  _id: '0b9e6a52-1111-4111-8111-0000000000a2',
  name: 'Phone',
  createdAt: '2026-12-02T10:00:00.000Z',
  lastUsedAt: '2026-12-03T10:00:00.000Z',
};

function renderPasskeys(items: PasskeyAnswer[], handlers: Record<string, StubHandler> = {}) {
  const stub = stubTrpcClient({ 'passkeys.list': () => ({ items }), ...handlers });
  const view = renderWithProviders(<Passkeys />, { path: '/settings', trpcClient: stub.client });
  return { ...view, stub };
}

afterEach(() => notifications.clean());

describe('the Passkeys section of settings', () => {
  it('lists the passkeys, renames one and removes one that is not the last without a password', async () => {
    const { user, stub } = renderPasskeys([LAPTOP, PHONE], {
      'passkeys.rename': (input) => ({ ...LAPTOP, name: (input as { name: string }).name }),
      'passkeys.remove': () => undefined,
    });
    const list = within(await screen.findByRole('list', { name: 'Your passkeys' }));
    expect(list.getByText('Laptop')).toBeVisible();
    expect(list.getByText(/Never used/)).toBeVisible();
    expect(list.getByText(/Last used/)).toBeVisible();

    await user.click(list.getByRole('button', { name: 'Rename Laptop' }));
    const rename = within(await screen.findByRole('dialog', { name: 'Rename passkey' }));
    await user.clear(rename.getByRole('textbox', { name: 'Name' }));
    await user.type(rename.getByRole('textbox', { name: 'Name' }), 'Desk laptop');
    await user.click(rename.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(stub.callsTo('passkeys.rename')).toEqual([{ id: LAPTOP._id, name: 'Desk laptop' }]),
    );

    await user.click(list.getByRole('button', { name: 'Remove Phone' }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Remove passkey' }));
    await user.click(confirm.getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(stub.callsTo('passkeys.remove')).toEqual([{ id: PHONE._id }]));
  });

  it('asks for the password to remove the last passkey and shows the refusal in its field', async () => {
    let attempts = 0;
    const { user, stub } = renderPasskeys([LAPTOP], {
      'passkeys.remove': () => {
        attempts += 1;
        if (attempts === 1) throw trpcError(400, passkeyMessages.wrongPassword);
        return undefined;
      },
    });
    const list = within(await screen.findByRole('list', { name: 'Your passkeys' }));
    await user.click(list.getByRole('button', { name: 'Remove Laptop' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove your last passkey' }));
    await user.type(dialog.getByLabelText('Password'), 'wrong one');
    await user.click(dialog.getByRole('button', { name: 'Remove passkey' }));
    expect(await dialog.findByText(passkeyMessages.wrongPassword)).toBeVisible();
    await user.clear(dialog.getByLabelText('Password'));
    await user.type(dialog.getByLabelText('Password'), 'right one');
    await user.click(dialog.getByRole('button', { name: 'Remove passkey' }));
    await waitFor(() => expect(stub.callsTo('passkeys.remove')).toHaveLength(2));
    expect(stub.callsTo('passkeys.remove')[1]).toEqual({ id: LAPTOP._id, password: 'right one' });
  });

  it('says so when the browser cannot use passkeys, and calls nothing', async () => {
    const { user, stub } = renderPasskeys([]);
    await user.click(await screen.findByRole('button', { name: 'Add a passkey' }));
    expect(await screen.findByText(passkeyMessages.unsupported)).toBeVisible();
    expect(stub.callsTo('passkeys.registerOptions')).toEqual([]);
  });
});

describe('Sign in with a passkey', () => {
  it('says so when the browser cannot use passkeys', async () => {
    const stub = stubTrpcClient({});
    const { user } = renderWithProviders(<PasskeySignIn onSignedIn={() => {}} />, {
      trpcClient: stub.client,
    });
    await user.click(screen.getByRole('button', { name: passkeyMessages.signInButton }));
    expect(await screen.findByRole('alert')).toHaveTextContent(passkeyMessages.unsupported);
    expect(stub.callsTo('passkeys.loginOptions')).toEqual([]);
  });
});
