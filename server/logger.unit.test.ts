import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { loggerOptions, RequestLines, redactUrl, requestIdFrom } from './logger';
import { captureLogs } from './test/log-capture';

describe('redactUrl', () => {
  test('removes signatures and tokens from query strings and the e-mailed link paths', () => {
    expect(redactUrl('/files/forms/a.pdf?exp=123&sig=abcdef')).toBe(
      '/files/forms/a.pdf?exp=123&sig=%5Bredacted%5D',
    );
    expect(redactUrl('/auth/verify-email/secret-token-value')).toBe('/auth/verify-email/[redacted]');
    expect(redactUrl('/auth/new-password/secret-token-value?x=1')).toBe('/auth/new-password/[redacted]?x=1');
    expect(redactUrl('/api/transactions/42?page=2&limit=10')).toBe('/api/transactions/42?page=2&limit=10');
    expect(redactUrl('/sign/signer-token-value')).toBe('/sign/[redacted]');
    expect(redactUrl('/api/sign/signer-token-value')).toBe('/api/sign/[redacted]');
    expect(redactUrl('/api/sign/signer-token-value/document')).toBe('/api/sign/[redacted]/document');
    expect(redactUrl('/api/sign/certificate')).toBe('/api/sign/certificate');
    expect(redactUrl('/unsubscribe/mail-token-value')).toBe('/unsubscribe/[redacted]');
    expect(redactUrl('/api/unsubscribe/mail-token-value')).toBe('/api/unsubscribe/[redacted]');
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

describe("each request's logger: Fastify's own pino child, with the app's request lines", () => {
  /** An app logging as buildApp's does, with three routes and a request id it can predict. */
  async function appLoggingAt(level: string) {
    const captured = captureLogs(loggerOptions(level));
    let requests = 0;
    const app = Fastify({
      loggerInstance: captured.logger,
      genReqId: () => `req-${++requests}`,
      logController: new RequestLines({ requestIdLogLabel: 'requestId' }),
    });
    app.get('/odd', async (req) => {
      req.log.warn({ body: { password: 'hunter2' } }, 'odd request');
      req.log.error('failed %s', 'twice');
      req.log.child({ job: 'j1' }).warn('from a child');
      req.log.info('only at info');
      return { ok: true };
    });
    app.get('/verbose', { logLevel: 'debug' }, async (req) => {
      req.log.debug('debugging this route');
      return { ok: true };
    });
    app.get('/down', async (_req, reply) => reply.code(503).send({ ok: false }));
    await app.ready();
    const linesOf = async (url: string) => {
      const before = captured.lines.length;
      await app.inject(url);
      return captured.entries().slice(before);
    };
    return { app, linesOf };
  }

  test("a route's lines carry the request id, are redacted as every line, and follow the level", async () => {
    const { app, linesOf } = await appLoggingAt('warn');
    try {
      expect(await linesOf('/odd')).toEqual([
        expect.objectContaining({ requestId: 'req-1', msg: 'odd request', body: { password: '[redacted]' } }),
        expect.objectContaining({ requestId: 'req-1', msg: 'failed twice', level: 50 }),
        expect.objectContaining({ requestId: 'req-1', job: 'j1', msg: 'from a child' }),
      ]);
      expect((await linesOf('/odd')).map((line) => line.requestId)).toEqual(['req-2', 'req-2', 'req-2']);
    } finally {
      await app.close();
    }
  });

  test("a route's own log level applies to its requests only", async () => {
    const { app, linesOf } = await appLoggingAt('warn');
    try {
      const lines = await linesOf('/verbose');
      expect(lines).toContainEqual(
        expect.objectContaining({ requestId: 'req-1', level: 20, msg: 'debugging this route' }),
      );
      expect(await linesOf('/odd')).not.toContainEqual(expect.objectContaining({ msg: 'only at info' }));
    } finally {
      await app.close();
    }
  });

  test('request lines: none at info for an answer that went well, one at debug; a 5xx at info', async () => {
    const atInfo = await appLoggingAt('info');
    const atDebug = await appLoggingAt('debug');
    try {
      expect(await atInfo.linesOf('/odd?sig=abc')).not.toContainEqual(
        expect.objectContaining({ msg: 'request completed' }),
      );
      expect(await atInfo.linesOf('/down')).toEqual([
        expect.objectContaining({
          requestId: 'req-2',
          level: 30,
          msg: 'request completed',
          res: { statusCode: 503 },
        }),
      ]);
      const lines = await atDebug.linesOf('/odd?token=secret-token');
      expect(lines.filter((line) => line.msg === 'request completed')).toEqual([
        expect.objectContaining({
          requestId: 'req-1',
          level: 20,
          req: expect.objectContaining({ method: 'GET', url: '/odd?token=%5Bredacted%5D' }),
          res: { statusCode: 200 },
        }),
      ]);
      expect(JSON.stringify(lines)).not.toContain('secret-token');
    } finally {
      await atInfo.app.close();
      await atDebug.app.close();
    }
  });
});
