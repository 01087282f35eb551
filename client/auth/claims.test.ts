import { afterEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '../../shared/constants';
import { fakeAccessToken } from '../test-utils/tokens';
import { roleFromToken, storedRole } from './claims';

describe('role claim', () => {
  afterEach(() => vi.restoreAllMocks());

  it('reads admin and user from the payload', () => {
    expect(roleFromToken(fakeAccessToken({ role: 'admin' }))).toBe('admin');
    expect(roleFromToken(fakeAccessToken({ role: 'user' }))).toBe('user');
  });

  it('decodes base64url payloads, including characters plain base64 would write as + and /', () => {
    // "?>?" encodes to "Pz4/" in base64 and "Pz4_" in base64url; the name forces such bytes.
    const token = fakeAccessToken({ role: 'admin', name: '?>?~~~ Zoë' });
    expect(token.split('.')[1]).toMatch(/[-_]/);
    expect(roleFromToken(token)).toBe('admin');
  });

  it('falls back to user for a missing, malformed or role-less token, and logs the failed decode', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(roleFromToken(null)).toBe('user');
    expect(warn).not.toHaveBeenCalled();
    expect(roleFromToken('header.payload.signature')).toBe('user');
    expect(roleFromToken('no-dots-at-all')).toBe('user');
    expect(roleFromToken(`x.${btoa('[1,2]')}.y`)).toBe('user');
    expect(roleFromToken(fakeAccessToken({ role: 'superuser' }))).toBe('user');
    expect(warn).toHaveBeenCalledTimes(2);
    // The same bad token again is not logged again.
    expect(roleFromToken('no-dots-at-all')).toBe('user');
    expect(warn).toHaveBeenCalledTimes(2);
  });

  it('reads the token from storage', () => {
    expect(storedRole()).toBe('user');
    window.localStorage.setItem(STORAGE_KEYS.accessToken, fakeAccessToken({ role: 'admin' }));
    expect(storedRole()).toBe('admin');
  });
});
