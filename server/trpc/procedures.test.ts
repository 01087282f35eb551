import { createTRPCClient, createWSClient, TRPCClientError, wsLink } from '@trpc/client';
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { ACCESS_TOKEN_TTL_SECONDS } from '../security/access-tokens';
import { accessTokenFor, createAdmin, createOwner, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testContext, testDeps } from '../test/harness';
import {
  accessOf,
  adminProcedure,
  createCallerFactory,
  ownerProcedure,
  protectedProcedure,
  publicProcedure,
  router,
} from './init';
import { proceduresOf } from './internals';

/** The four base procedures every router builds on, against real users in a real database. */

const testRouter = router({
  open: publicProcedure.query(() => 'anyone'),
  whoAmI: protectedProcedure.query(({ ctx }) => ctx.user),
  admin: adminProcedure.query(() => 'admin'),
  owner: ownerProcedure.query(() => 'owner'),
});
const createCaller = createCallerFactory(testRouter);

const database = setupTestDatabase();
const clock = new TestClock();

/** A caller with the context the HTTP layer would build for a request bearing `token`. */
async function callerWith(token: string | undefined) {
  return createCaller(await testContext(testDeps(database.db, { clock }), token));
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    return (error as { code?: string }).code ?? 'UNKNOWN';
  }
}

describe('base procedures', () => {
  test('each declares who may call it, for the REST docs and the authorization matrix', () => {
    const access = Object.fromEntries(
      [...proceduresOf(testRouter)].map(([name, procedure]) => [name, accessOf(procedure)]),
    );
    expect(access).toEqual({ open: 'public', whoAmI: 'user', admin: 'admin', owner: 'owner' });
  });

  test('a public procedure needs no token', async () => {
    expect(await (await callerWith(undefined)).open()).toBe('anyone');
  });

  test('a protected procedure answers with the user loaded from the database', async () => {
    const agent = await createUser(database.db);
    const caller = await callerWith(await accessTokenFor(agent, { now: clock.now() }));
    expect(await caller.whoAmI()).toEqual({
      id: agent.id,
      role: 'user',
      isOwner: false,
      officeId: null,
      coordinatesFor: [],
      secondFactor: null,
    });
  });

  test('no token, an expired token, a foreign signature or alg=none: UNAUTHORIZED', async () => {
    const agent = await createUser(database.db);
    const claims = { sub: agent.id, role: agent.role, ver: agent.tokenVersion };
    expect(await codeOf((await callerWith(undefined)).whoAmI())).toBe('UNAUTHORIZED');

    const expired = await accessTokenFor(agent, {
      now: new Date(clock.now().getTime() - (ACCESS_TOKEN_TTL_SECONDS + 1) * 1000),
    });
    expect(await codeOf((await callerWith(expired)).whoAmI())).toBe('UNAUTHORIZED');

    const foreign = await accessTokenFor(agent, {
      secret: 'another-secret-of-sufficient-length-0123456789',
      now: clock.now(),
    });
    expect(await codeOf((await callerWith(foreign)).whoAmI())).toBe('UNAUTHORIZED');

    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ ...claims, iat: 1, exp: 9_999_999_999 })).toString(
      'base64url',
    );
    expect(await codeOf((await callerWith(`${header}.${payload}.`)).whoAmI())).toBe('UNAUTHORIZED');

    const hs512 = await new SignJWT({ role: 'user', ver: 0 })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject(agent.id)
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('test-secret-that-is-long-enough-for-hs256-0123456789'));
    expect(await codeOf((await callerWith(hs512)).whoAmI())).toBe('UNAUTHORIZED');
  });

  test('a valid token stops working at once when the user is deactivated, deleted or changes password', async () => {
    const agent = await createUser(database.db);
    const token = await accessTokenFor(agent, { now: clock.now() });
    expect(await codeOf((await callerWith(token)).whoAmI())).toBe('OK');

    await database.db.user.update({ where: { id: agent.id }, data: { tokenVersion: { increment: 1 } } });
    expect(await codeOf((await callerWith(token)).whoAmI())).toBe('UNAUTHORIZED');

    const other = await createUser(database.db);
    const otherToken = await accessTokenFor(other, { now: clock.now() });
    await database.db.user.update({ where: { id: other.id }, data: { isAdminApproved: false } });
    expect(await codeOf((await callerWith(otherToken)).whoAmI())).toBe('UNAUTHORIZED');

    const gone = await createUser(database.db);
    const goneToken = await accessTokenFor(gone, { now: clock.now() });
    await database.db.user.delete({ where: { id: gone.id } });
    expect(await codeOf((await callerWith(goneToken)).whoAmI())).toBe('UNAUTHORIZED');
  });

  test('admin procedures follow the role in the database, not the one in the token', async () => {
    const admin = await createAdmin(database.db);
    const token = await accessTokenFor(admin, { now: clock.now() });
    expect(await (await callerWith(token)).admin()).toBe('admin');

    await database.db.user.update({ where: { id: admin.id }, data: { role: 'user' } });
    expect(await codeOf((await callerWith(token)).admin())).toBe('FORBIDDEN');
    expect(
      await codeOf((await callerWith(await accessTokenFor(await createUser(database.db)))).admin()),
    ).toBe('FORBIDDEN');
  });

  test('owner procedures admit the owner only', async () => {
    const owner = await createOwner(database.db);
    expect(await (await callerWith(await accessTokenFor(owner, { now: clock.now() }))).owner()).toBe('owner');
    const admin = await createAdmin(database.db);
    expect(await codeOf((await callerWith(await accessTokenFor(admin, { now: clock.now() }))).owner())).toBe(
      'FORBIDDEN',
    );
  });
});

describe('over a WebSocket', () => {
  let app: FastifyInstance;
  let url: string;
  beforeAll(async () => {
    app = buildTestApp(testDeps(database.db, { clock }), { api: { router: testRouter } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    url = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/trpc`;
  });
  afterAll(() => app.close());

  function clientWith(token: string | undefined) {
    const wsClient = createWSClient({
      url,
      WebSocket: WebSocket as never, // Node 20 has no global WebSocket
      connectionParams: () => (token ? { token } : null),
    });
    return {
      client: createTRPCClient<typeof testRouter>({ links: [wsLink({ client: wsClient })] }),
      wsClient,
    };
  }

  test('the token travels in connectionParams and authenticates the calls on the socket', async () => {
    const agent = await createUser(database.db);
    const { client, wsClient } = clientWith(await accessTokenFor(agent, { now: clock.now() }));
    try {
      expect(await client.whoAmI.query()).toEqual({
        id: agent.id,
        role: 'user',
        isOwner: false,
        officeId: null,
        coordinatesFor: [],
        secondFactor: null,
      });
    } finally {
      await wsClient.close();
    }
  });

  test('without a token the socket opens but protected calls are refused', async () => {
    const { client, wsClient } = clientWith(undefined);
    try {
      expect(await client.open.query()).toBe('anyone');
      const error = await client.whoAmI.query().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      expect((error as TRPCClientError<typeof testRouter>).data?.httpStatus).toBe(401);
    } finally {
      await wsClient.close();
    }
  });
});
