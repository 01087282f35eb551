import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiMessages, authMessages } from '../../shared/messages';
import type { SessionAnswer } from '../../shared/schemas/auth';
import { deferred, stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { TEST_USER_ID, testProfile } from '../test-utils/users';
import { createSessionRefresher } from './refresh';
import { sessionRefreshLink } from './refresh-link';
import { getAccessToken, getRefreshToken, getUserId, setSession } from './session';

const USER_ID = TEST_USER_ID;
const user = testProfile();

/** The server's view: only the access token a refresh hands out is still good. */
function acceptsOnly(goodToken: string) {
  return () => {
    if (getAccessToken() !== goodToken) throw trpcError(401, apiMessages.sessionInvalid);
    return user;
  };
}

function setup(
  handlers: Parameters<typeof stubTrpcClient>[0],
  renew: () => Promise<SessionAnswer> = async () => ({
    token: 'new-access',
    refreshToken: 'new-refresh',
    _id: USER_ID,
  }),
) {
  const renewSpy = vi.fn(renew);
  const leave = vi.fn();
  const refresher = createSessionRefresher({ renew: renewSpy, leave });
  const stub = stubTrpcClient(handlers, { before: [sessionRefreshLink(refresher)] });
  return { ...stub, renew: renewSpy, leave };
}

describe('session refresh link', () => {
  let alert: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    setSession({ accessToken: 'old-access', refreshToken: 'old-refresh', userId: USER_ID });
    alert = vi.spyOn(window, 'alert').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  it('refreshes once for two concurrent 401s and retries both with the new token', async () => {
    const answer = deferred<SessionAnswer>();
    const { client, calls, renew } = setup(
      { 'settings.getUser': acceptsOnly('new-access') },
      () => answer.promise,
    );
    const first = client.settings.getUser.query({ userId: USER_ID });
    const second = client.settings.getUser.query({ userId: USER_ID });
    await vi.waitFor(() => expect(renew).toHaveBeenCalledTimes(1));
    answer.resolve({ token: 'new-access', refreshToken: 'new-refresh', _id: USER_ID });
    await expect(Promise.all([first, second])).resolves.toEqual([user, user]);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(calls.map((call) => call.path)).toEqual(Array(4).fill('settings.getUser'));
    expect(getRefreshToken()).toBe('new-refresh');
    expect(alert).not.toHaveBeenCalled();
  });

  it('alerts, clears the session and leaves for sign-in when the refresh is refused', async () => {
    const { client, calls, leave } = setup({ 'settings.getUser': acceptsOnly('new-access') }, async () => {
      throw new Error('refresh refused');
    });
    await expect(client.settings.getUser.query({ userId: USER_ID })).rejects.toMatchObject({
      data: { httpStatus: 401 },
    });
    expect(alert).toHaveBeenCalledExactlyOnceWith('Token expired. Logging out...');
    expect(getUserId()).toBeNull();
    expect(getAccessToken()).toBeNull();
    expect(leave).toHaveBeenCalledExactlyOnceWith('/auth/login');
    expect(calls).toHaveLength(1);
  });

  it('ends the session when the retry is refused too', async () => {
    const { client, calls, renew, leave } = setup({ 'settings.getUser': acceptsOnly('never') });
    await expect(client.settings.getUser.query({ userId: USER_ID })).rejects.toMatchObject({
      data: { httpStatus: 401 },
    });
    expect(renew).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(2);
    expect(alert).toHaveBeenCalledTimes(1);
    expect(leave).toHaveBeenCalledWith('/auth/login');
    expect(getUserId()).toBeNull();
  });

  it("leaves auth.* calls alone: a wrong password's 401 is the sign-in form's to show", async () => {
    const { client, renew, leave } = setup({
      'auth.login': () => {
        throw trpcError(401, authMessages.invalidCredentials);
      },
    });
    await expect(
      client.auth.login.mutate({ email: 'dana@example.com', password: 'wrong password' }),
    ).rejects.toThrow(authMessages.invalidCredentials);
    expect(renew).not.toHaveBeenCalled();
    expect(alert).not.toHaveBeenCalled();
    expect(leave).not.toHaveBeenCalled();
    expect(getUserId()).toBe(USER_ID);
  });

  it('passes other errors through untouched', async () => {
    const { client, calls, renew } = setup({
      'settings.getUser': () => {
        throw trpcError(403, apiMessages.forbidden);
      },
    });
    await expect(client.settings.getUser.query({ userId: USER_ID })).rejects.toThrow(apiMessages.forbidden);
    expect(renew).not.toHaveBeenCalled();
    expect(calls).toHaveLength(1);
    expect(alert).not.toHaveBeenCalled();
  });
});
