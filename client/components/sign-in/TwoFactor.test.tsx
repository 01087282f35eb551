import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { STORAGE_KEYS } from '../../../shared/constants';
import { twoFactorMessages } from '../../../shared/two-factor-messages';
import { Login } from '../../pages/Login';
import { field } from '../../test-utils/forms';
import { renderWithProviders } from '../../test-utils/render';
import { stubTrpcClient, trpcError } from '../../test-utils/trpc-stub';
import { TotpSetup } from './TotpSetup';

const USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';
const session = { token: 'access.jwt.token', refreshToken: 'opaque-refresh', _id: USER_ID };
const CODES = Array.from(
  { length: 10 },
  (_, i) => `aaaa-bbbb-cccc-dddd-eeee-ff${String(i).padStart(2, '0')}`,
);

describe('the sign-in code step', () => {
  async function toCodeStep(handlers: Parameters<typeof stubTrpcClient>[0]) {
    const stub = stubTrpcClient({
      'auth.login': () => ({ twoFactorRequired: true, challenge: 'the-challenge' }),
      ...handlers,
    });
    const view = renderWithProviders(<Login />, { path: '/auth/login', trpcClient: stub.client });
    await view.user.type(field('Email'), 'admin@example.com');
    await view.user.type(field('Password'), 'correct horse');
    await view.user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByLabelText(twoFactorMessages.codeStepPrompt);
    return { ...view, stub };
  }

  it('asks for the code after the password, stores no session before it, then signs in', async () => {
    const { user, stub, currentPath } = await toCodeStep({ 'twoFactor.verify': () => session });
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBeNull();
    await user.type(field(twoFactorMessages.codeStepPrompt), '123456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(currentPath()).toBe('/home'));
    expect(stub.callsTo('twoFactor.verify')).toEqual([{ challenge: 'the-challenge', code: '123456' }]);
    expect(window.localStorage.getItem(STORAGE_KEYS.accessToken)).toBe(session.token);
  });

  it('switches to a recovery code, and shows the server refusal', async () => {
    const { user, stub } = await toCodeStep({
      'twoFactor.verify': () => {
        throw trpcError(401, twoFactorMessages.invalidCode);
      },
    });
    await user.click(screen.getByRole('button', { name: twoFactorMessages.useRecoveryCode }));
    await user.type(field(twoFactorMessages.recoveryStepPrompt), 'aaaa-bbbb');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText(twoFactorMessages.invalidCode)).toBeVisible();
    expect(stub.callsTo('twoFactor.verify')).toEqual([
      { challenge: 'the-challenge', recoveryCode: 'aaaa-bbbb' },
    ]);
  });
});

describe('setting up two-factor sign-in', () => {
  it('shows the secret and a QR code, enables with a code, then the recovery codes once', async () => {
    let enabled = false;
    const stub = stubTrpcClient({
      'twoFactor.status': () => ({
        totpEnabled: enabled,
        recoveryCodesLeft: enabled ? 10 : 0,
        setupRequired: false,
      }),
      'twoFactor.totpSetup': () => ({
        secret: 'JBSWY3DPEHPK3PXP',
        otpauthUrl: 'otpauth://totp/Portal:a%40example.com?secret=JBSWY3DPEHPK3PXP',
      }),
      'twoFactor.totpEnable': () => {
        enabled = true;
        return { recoveryCodes: CODES };
      },
    });
    const { user } = renderWithProviders(<TotpSetup />, { path: '/settings', trpcClient: stub.client });
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    expect(await screen.findByTestId('totp-secret')).toHaveTextContent('JBSWY3DPEHPK3PXP');
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    await user.type(field(twoFactorMessages.codeStepPrompt), '654321');
    await user.click(screen.getByRole('button', { name: 'Turn on' }));
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('[role="listitem"]')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Download' })).toBeVisible();
    expect(stub.callsTo('twoFactor.totpEnable')).toEqual([{ code: '654321' }]);
    await user.click(screen.getByRole('button', { name: 'I saved them' }));
    expect(await screen.findByText(/Recovery codes left: 10/)).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
  });

  it('says why when the owner requires a second factor of admins', async () => {
    const stub = stubTrpcClient({
      'twoFactor.status': () => ({ totpEnabled: false, recoveryCodesLeft: 0, setupRequired: true }),
    });
    renderWithProviders(<TotpSetup />, { path: '/settings', trpcClient: stub.client });
    expect(await screen.findByText(twoFactorMessages.setupBanner)).toBeVisible();
  });
});
