import { describe, expect, test } from 'vitest';
import { loggerOptions, redactUrl, requestIdFrom } from './logger';
import { captureLogs } from './test/log-capture';

describe('redactUrl', () => {
  test('removes signatures and tokens from query strings and the e-mailed link paths', () => {
    expect(redactUrl('/files/forms/a.pdf?exp=123&sig=abcdef')).toBe(
      '/files/forms/a.pdf?exp=123&sig=%5Bredacted%5D',
    );
    expect(redactUrl('/auth/verify-email/secret-token-value')).toBe('/auth/verify-email/[redacted]');
    expect(redactUrl('/auth/new-password/secret-token-value?x=1')).toBe('/auth/new-password/[redacted]?x=1');
    expect(redactUrl('/api/transactions/42?page=2&limit=10')).toBe('/api/transactions/42?page=2&limit=10');
  });
});

describe('log lines', () => {
  test('passwords, tokens and authorization headers are redacted wherever they appear', () => {
    const { logger: log, lines } = captureLogs(loggerOptions('info'));
    log.info({ body: { email: 'a@b.c', password: 'hunter2', confirmPassword: 'hunter2' } }, 'register');
    log.info({ refreshToken: 'rt-secret', nested: { deeper: { token: 't-secret' } } }, 'refresh');
    log.info({ req: { headers: { authorization: 'Bearer jwt-secret' } } }, 'headers');
    const all = lines.join('');
    for (const secret of ['hunter2', 'rt-secret', 't-secret', 'jwt-secret'])
      expect(all).not.toContain(secret);
    expect(all).toContain('a@b.c');
  });

  test('a raw error logged as err is described without its stack', () => {
    const { logger, entries } = captureLogs(loggerOptions('info'));
    logger.error({ err: new Error('boom') }, 'failed');
    expect(entries()[0]?.err).toEqual({ type: 'Error', message: 'boom' });
  });
});

describe('requestIdFrom', () => {
  test('keeps a sane incoming id and replaces anything else', () => {
    const make = () => 'generated';
    expect(requestIdFrom('abc-123.x:y', make)).toBe('abc-123.x:y');
    expect(requestIdFrom(undefined, make)).toBe('generated');
    expect(requestIdFrom('has space', make)).toBe('generated');
    expect(requestIdFrom('x'.repeat(65), make)).toBe('generated');
    expect(requestIdFrom(['first', 'second'], make)).toBe('first');
  });
});
