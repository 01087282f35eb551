import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, test, vi } from 'vitest';
import { loggerOptions, redactUrl, requestIdFrom, requestLogger } from './logger';
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

describe('requestLogger: the logger Fastify gives each request', () => {
  function setUp(level: string) {
    const { logger, entries } = captureLogs(loggerOptions(level));
    const child = vi.spyOn(logger, 'child');
    const made = (options = {}) =>
      requestLogger.call(null, logger as unknown as FastifyBaseLogger, { requestId: 'req-7' }, options);
    return { logger, entries, child, made };
  }

  test('makes no pino child for a request that writes nothing at the level in force', () => {
    const { entries, child, made } = setUp('warn');
    const log = made();
    log.info({ step: 1 }, 'not at warn');
    log.debug({ step: 2 }, 'nor this');
    expect(child).not.toHaveBeenCalled();
    expect(entries()).toEqual([]);
  });

  test('a line that is written carries the request id and is redacted as every other line', () => {
    const { entries, child, made } = setUp('warn');
    const log = made();
    log.warn({ body: { password: 'hunter2' } }, 'odd request');
    log.error('failed %s', 'twice');
    expect(child).toHaveBeenCalledTimes(1);
    expect(entries()).toEqual([
      expect.objectContaining({ requestId: 'req-7', msg: 'odd request', body: { password: '[redacted]' } }),
      expect.objectContaining({ requestId: 'req-7', msg: 'failed twice', level: 50 }),
    ]);
  });

  test("its level, a level set on it alone, and its children are a pino child's", () => {
    const { logger, entries, made } = setUp('warn');
    const log = made();
    expect(log.level).toBe('warn');
    log.level = 'debug';
    log.debug('now written');
    expect(logger.level).toBe('warn');
    log.child({ job: 'j1' }).info('from a child');
    expect(entries()).toEqual([
      expect.objectContaining({ requestId: 'req-7', msg: 'now written' }),
      expect.objectContaining({ requestId: 'req-7', job: 'j1', msg: 'from a child' }),
    ]);
  });

  test("a route's own options (its log level) give it a child at once", () => {
    const { entries, child, made } = setUp('warn');
    const log = made({ level: 'debug' });
    expect(child).toHaveBeenCalledWith({ requestId: 'req-7' }, { level: 'debug' });
    log.debug('debugging this route');
    expect(entries()).toEqual([expect.objectContaining({ requestId: 'req-7', msg: 'debugging this route' })]);
  });
});
