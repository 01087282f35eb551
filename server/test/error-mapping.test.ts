import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { apiMessages } from '../../shared/messages';
import { type ApiErrorId, apiError } from '../../shared/schemas/common';
import { createDb } from '../db/client';
import { freePort } from '../db/embedded';
import { AppError } from '../errors';
import { adminProcedure, ownerProcedure, protectedProcedure, publicProcedure, router } from '../trpc/init';
import { accessTokenFor, createAdmin, createOwner, createUser } from './factories';
import { buildTestApp, setupTestDatabase, testDeps } from './harness';
import { expectProtectiveHeaders } from './headers';
import { captureLogs } from './log-capture';
import { testRest } from './rest-meta';

/**
 * Every error class of the API, over REST and over tRPC, through the real plumbing:
 * the base procedures, the error formatter, the REST adapter and Fastify's error handler. The
 * failures are real ones (a unique violation, a missing row, a refused database connection).
 */

const SECRET_SQL = 'SELECT password_hash FROM users WHERE email = $1';

const ok = z.object({ ok: z.boolean() });
const testRouter = router({
  echo: publicProcedure
    .meta(testRest('POST', '/api/test/echo', { successStatus: 201 }))
    .input(
      z.object({
        name: z.string().min(2, { error: 'Name must be at least 2 characters' }),
        age: z.number().int(),
      }),
    )
    .output(z.object({ hello: z.string() }))
    .mutation(({ input }) => ({ hello: input.name })),
  me: protectedProcedure
    .meta(testRest('GET', '/api/test/me'))
    .output(z.object({ id: z.string() }))
    .query(({ ctx }) => ({ id: ctx.user.id })),
  adminOnly: adminProcedure
    .meta(testRest('GET', '/api/test/admin'))
    .output(ok)
    .query(() => ({ ok: true })),
  ownerOnly: ownerProcedure
    .meta(testRest('GET', '/api/test/owner'))
    .output(ok)
    .query(() => ({ ok: true })),
  missing: publicProcedure
    .meta(testRest('GET', '/api/test/missing', { errors: [404] }))
    .output(ok)
    .query(() => {
      throw new AppError('NOT_FOUND', 'Transaction not found');
    }),
  updateMissingRow: publicProcedure
    .meta(testRest('PUT', '/api/test/missing-row', { errors: [404] }))
    .output(ok)
    .mutation(async ({ ctx }) => {
      await ctx.db.user.update({
        where: { id: '00000000-0000-4000-8000-000000000000' },
        data: { company: 'x' },
      });
      return { ok: true };
    }),
  duplicateEmail: publicProcedure
    .meta(testRest('POST', '/api/test/users'))
    .input(z.object({ email: z.string() }))
    .output(z.object({ created: z.boolean() }))
    .mutation(async ({ ctx, input }) => {
      await ctx.db.user.create({
        data: {
          email: input.email,
          firstName: 'A',
          lastName: 'B',
          company: 'C',
          phoneNumber: '+1',
          passwordHash: 'x',
        },
      });
      return { created: true };
    }),
  crash: publicProcedure
    .meta(testRest('GET', '/api/test/crash'))
    .output(ok)
    .query(() => {
      const error = new Error(
        `${SECRET_SQL} failed: connection string postgresql://portal:hunter2@db/portal`,
      );
      error.stack = `${error.message}\n    at secretFunction (/srv/server/secret.ts:10:5)`;
      throw error;
    }),
  wrongAnswer: publicProcedure
    .meta(testRest('GET', '/api/test/wrong-answer'))
    .output(z.object({ users: z.number() }))
    // An answer its own schema refuses: the server's bug, never the caller's.
    .query(() => ({ users: 'many' }) as unknown as { users: number }),
  countUsers: publicProcedure
    .meta(testRest('GET', '/api/test/users/count'))
    .output(z.object({ users: z.number() }))
    .query(async ({ ctx }) => ({ users: await ctx.db.user.count() })),
});
const database = setupTestDatabase();
let app: FastifyInstance;
const captured = captureLogs();
const logLines = captured.lines;
const tokens: Record<'agent' | 'admin' | 'owner' | 'deactivated', string> = {
  agent: '',
  admin: '',
  owner: '',
  deactivated: '',
};

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db), {
    api: { router: testRouter },
    loggerInstance: captured.logger,
  });
  tokens.agent = await accessTokenFor(await createUser(database.db));
  tokens.admin = await accessTokenFor(await createAdmin(database.db));
  tokens.owner = await accessTokenFor(await createOwner(database.db));
  tokens.deactivated = await accessTokenFor(await createUser(database.db, { isAdminApproved: false }));
  await createUser(database.db, { email: 'taken@example.com' });
});
afterAll(() => app.close());

type Call = { method: 'GET' | 'POST' | 'PUT'; rest: string; trpc: string; body?: unknown; token?: string };

async function overRest({ method, rest, body, token }: Call) {
  const res = await app.inject({
    method,
    url: rest,
    ...(body === undefined ? {} : { payload: body as object }),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

async function overTrpc({ method, trpc, body, token }: Call) {
  const url =
    method === 'GET' && body !== undefined
      ? `/trpc/${trpc}?input=${encodeURIComponent(JSON.stringify(body))}`
      : `/trpc/${trpc}`;
  const res = await app.inject({
    method: method === 'GET' ? 'GET' : 'POST',
    url,
    ...(method !== 'GET' ? { payload: (body ?? {}) as object } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const json = res.json() as {
    error?: {
      message: string;
      data: { httpStatus: number; appCode: string; code: string; error: string; issues?: unknown };
    };
  };
  return { status: res.statusCode, error: json.error, raw: res.body };
}

/** The same failure must look the same over both transports, with the same error id. */
async function expectError(
  call: Call,
  status: number,
  code: string,
  error: ApiErrorId,
  message: string | RegExp,
) {
  const rest = await overRest(call);
  expect(rest.status).toBe(status);
  expect(apiError.strict().parse(rest.body)).toMatchObject({ code, error, message });
  expect(rest.raw).not.toMatch(/\bat\s.+:\d+:\d+|stack|SELECT|prisma\.|postgresql:\/\//i);

  const trpc = await overTrpc(call);
  expect(trpc.status).toBe(status);
  expect(trpc.error?.message).toEqual(message instanceof RegExp ? expect.stringMatching(message) : message);
  expect(trpc.error?.data).toMatchObject({ httpStatus: status, appCode: code, error });
  expect(trpc.raw).not.toMatch(/\bat\s.+:\d+:\d+|stack|SELECT|prisma\.|postgresql:\/\//i);
  return { rest, trpc };
}

describe('error mapping over REST and tRPC', () => {
  test('400: invalid input lists every issue, with the first one as the message', async () => {
    const { rest, trpc } = await expectError(
      { method: 'POST', rest: '/api/test/echo', trpc: 'echo', body: { name: 'x', age: 'old' } },
      400,
      'BAD_REQUEST',
      'validation',
      'Name must be at least 2 characters',
    );
    expect(rest.body.issues).toEqual([
      { path: 'name', message: 'Name must be at least 2 characters' },
      { path: 'age', message: 'age must be a number' },
    ]);
    expect(trpc.error?.data.issues).toEqual(rest.body.issues);
  });

  test('400: a body that is not JSON', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: 'Request body is not valid JSON',
      code: 'BAD_REQUEST',
      error: 'validation',
    });
  });

  test('valid input passes through both transports', async () => {
    expect(
      await overRest({ method: 'POST', rest: '/api/test/echo', trpc: 'echo', body: { name: 'Ann', age: 3 } }),
    ).toMatchObject({
      status: 201,
      body: { hello: 'Ann' },
    });
    const trpc = await app.inject({ method: 'POST', url: '/trpc/echo', payload: { name: 'Ann', age: 3 } });
    expect(trpc.json()).toEqual({ result: { data: { hello: 'Ann' } } });
  });

  test('401: no token, a malformed token, or a deactivated user', async () => {
    await expectError(
      { method: 'GET', rest: '/api/test/me', trpc: 'me' },
      401,
      'UNAUTHORIZED',
      'unauthenticated',
      apiMessages.notSignedIn,
    );
    await expectError(
      { method: 'GET', rest: '/api/test/me', trpc: 'me', token: 'not-a-jwt' },
      401,
      'UNAUTHORIZED',
      'unauthenticated',
      apiMessages.sessionInvalid,
    );
    await expectError(
      { method: 'GET', rest: '/api/test/me', trpc: 'me', token: tokens.deactivated },
      401,
      'UNAUTHORIZED',
      'unauthenticated',
      apiMessages.sessionInvalid,
    );
    expect(
      (await overRest({ method: 'GET', rest: '/api/test/me', trpc: 'me', token: tokens.agent })).status,
    ).toBe(200);
  });

  test('401 comes before input validation: an anonymous caller learns nothing about the input', async () => {
    const anonymousRouter = router({
      secret: protectedProcedure.input(z.object({ id: z.uuid() })).query(() => 1),
    });
    const guarded = buildTestApp(testDeps(database.db), {
      api: { router: anonymousRouter },
    });
    const res = await guarded.inject({
      method: 'GET',
      url: `/trpc/secret?input=${encodeURIComponent('{"id":"nope"}')}`,
    });
    expect(res.statusCode).toBe(401);
    await guarded.close();
  });

  test('403: signed in but not allowed (agent on an admin call, admin on an owner call)', async () => {
    await expectError(
      { method: 'GET', rest: '/api/test/admin', trpc: 'adminOnly', token: tokens.agent },
      403,
      'FORBIDDEN',
      'forbidden',
      apiMessages.forbidden,
    );
    await expectError(
      { method: 'GET', rest: '/api/test/owner', trpc: 'ownerOnly', token: tokens.admin },
      403,
      'FORBIDDEN',
      'forbidden',
      apiMessages.forbidden,
    );
    expect(
      (await overRest({ method: 'GET', rest: '/api/test/admin', trpc: '', token: tokens.admin })).status,
    ).toBe(200);
    expect(
      (await overRest({ method: 'GET', rest: '/api/test/owner', trpc: '', token: tokens.owner })).status,
    ).toBe(200);
  });

  test('404: a service saying so, and a row Prisma did not find (P2025)', async () => {
    await expectError(
      { method: 'GET', rest: '/api/test/missing', trpc: 'missing' },
      404,
      'NOT_FOUND',
      'not-found',
      'Transaction not found',
    );
    await expectError(
      { method: 'PUT', rest: '/api/test/missing-row', trpc: 'updateMissingRow' },
      404,
      'NOT_FOUND',
      'not-found',
      apiMessages.notFound,
    );
  });

  test('404: unknown API paths and procedures answer JSON, not the client', async () => {
    const rest = await app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(rest.statusCode).toBe(404);
    expect(rest.json()).toEqual({ message: apiMessages.notFound, code: 'NOT_FOUND', error: 'not-found' });
    const trpc = await app.inject({ method: 'GET', url: '/trpc/nothing.here' });
    expect(trpc.statusCode).toBe(404);
    expect(trpc.json().error.data.appCode).toBe('NOT_FOUND');
  });

  test('409: a unique constraint (P2002) is a conflict', async () => {
    await expectError(
      {
        method: 'POST',
        rest: '/api/test/users',
        trpc: 'duplicateEmail',
        body: { email: 'taken@example.com' },
      },
      409,
      'CONFLICT',
      'conflict',
      apiMessages.conflict,
    );
  });

  test('413: a JSON body over 1 MiB', async () => {
    const big = { name: 'x'.repeat(1024 * 1024 + 10), age: 1 };
    const rest = await overRest({ method: 'POST', rest: '/api/test/echo', trpc: 'echo', body: big });
    expect(rest.status).toBe(413);
    expect(rest.body).toEqual({
      message: apiMessages.payloadTooLarge,
      code: 'PAYLOAD_TOO_LARGE',
      error: 'payload-too-large',
    });
    const trpc = await overTrpc({ method: 'POST', rest: '', trpc: 'echo', body: big });
    expect(trpc.status).toBe(413);
  });

  test("500, not 400: an answer that fails its own schema is the server's fault", async () => {
    await expectError(
      { method: 'GET', rest: '/api/test/wrong-answer', trpc: 'wrongAnswer' },
      500,
      'INTERNAL',
      'internal',
      apiMessages.internal,
    );
  });

  test('500: an unexpected failure says nothing about itself, and is logged without stack, SQL or secret', async () => {
    logLines.length = 0;
    const { rest, trpc } = await expectError(
      { method: 'GET', rest: '/api/test/crash', trpc: 'crash' },
      500,
      'INTERNAL',
      'internal',
      apiMessages.internal,
    );
    expect(rest.body).toEqual({ message: 'Internal server error', code: 'INTERNAL', error: 'internal' });
    expect(trpc.error?.data.code).toBe('INTERNAL_SERVER_ERROR');

    const failures = logLines.map((line) => JSON.parse(line)).filter((entry) => entry.level >= 50);
    expect(failures).toHaveLength(2); // one per transport
    for (const entry of failures) {
      expect(entry.requestId).toEqual(expect.any(String));
      expect(entry.error).toMatchObject({ type: 'Error', message: '[withheld: the message quotes SQL]' });
    }
    const everything = logLines.join('\n');
    expect(everything).not.toContain('secretFunction');
    expect(everything).not.toContain('password_hash');
    expect(everything).not.toContain('hunter2');

    // A failure still carries every protective header, and is not cached.
    for (const url of ['/api/test/crash', '/trpc/crash']) {
      const res = await app.inject(url);
      expect(res.statusCode).toBe(500);
      expectProtectiveHeaders(res, url, { overHttps: false });
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
  });

  test('the request id is returned to the caller and is the one in the log', async () => {
    logLines.length = 0;
    const res = await app.inject({
      method: 'GET',
      url: '/api/test/crash',
      headers: { 'x-request-id': 'trace-42' },
    });
    expect(res.headers['x-request-id']).toBe('trace-42');
    expect(logLines.some((line) => JSON.parse(line).requestId === 'trace-42')).toBe(true);
    const hostile = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'a b\nc' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('when the database is unreachable', () => {
  let down: FastifyInstance;
  beforeAll(async () => {
    const closedPort = await freePort();
    const unreachable = createDb(`postgresql://postgres:secret@127.0.0.1:${closedPort}/portal`);
    down = buildTestApp(testDeps(unreachable), { api: { router: testRouter } });
  });
  afterAll(() => down.close());

  test('503 over REST and tRPC, promptly, without details', async () => {
    const started = Date.now();
    const rest = await down.inject({ method: 'GET', url: '/api/test/users/count' });
    expect(rest.statusCode).toBe(503);
    expect(rest.json()).toEqual({
      message: apiMessages.serviceUnavailable,
      code: 'SERVICE_UNAVAILABLE',
      error: 'service-unavailable',
    });

    const trpc = await down.inject({ method: 'GET', url: '/trpc/countUsers' });
    expect(trpc.statusCode).toBe(503);
    expect(trpc.json().error.data).toMatchObject({ httpStatus: 503, appCode: 'SERVICE_UNAVAILABLE' });
    expect(trpc.body).not.toContain('secret');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  test('a signed-in call also answers 503, not 401: the session check needs the database', async () => {
    const res = await down.inject({
      method: 'GET',
      url: '/api/test/me',
      headers: { authorization: `Bearer ${tokens.agent}` },
    });
    expect(res.statusCode).toBe(503);
  });

  test('/readyz answers 503 while /healthz still answers 200', async () => {
    expect((await down.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
    expect((await down.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
  });
});
