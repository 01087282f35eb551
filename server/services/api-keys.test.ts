import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, integrationMessages } from '../../shared/messages';
import type { ApiKeyAnswer, CreatedApiKeyAnswer } from '../../shared/schemas/api-keys';
import type { HistoryEntry, Transaction } from '../../shared/schemas/transactions';
import { createAdmin, createTemplate, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * API keys through the real REST paths: made by admins and shown once, stored
 * as a hash, accepted as `Authorization: Bearer bpk_...` on exactly what their scopes allow, with
 * the creator's rights; revoked, expired, tampered or orphaned keys refused; counted per key;
 * their changes audited under their name.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-28T12:00:00.000Z'));
const RUN = Date.now().toString(36);
const TYPE = `ApiKeys-${RUN}`;
const PER_MINUTE = 8;
let app: FastifyInstance;
let admin: Actor;
let agent: Actor;

beforeAll(async () => {
  app = buildTestApp(
    testDeps(database.db, {
      clock,
      config: testConfig({ apiKeyRateLimitPerMin: PER_MINUTE }),
    }),
  );
  admin = await createAdmin(database.db);
  agent = await createUser(database.db);
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Disclosure'] });
});
afterAll(() => app?.close());

const { call, ok, refused } = restCalls(() => app, clock);

function createKey(scopes: string[], extra: object = {}, who: Actor = admin) {
  return ok<CreatedApiKeyAnswer>(201, 'POST', '/api/admin/api-keys', who, {
    name: `Books ${RUN}`,
    scopes,
    ...extra,
  });
}

/** A call with the key instead of a person's token. */
function withKey(key: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
  });
}

const PORTLAND = { city: 'Portland', state: 'ME', zip: '04101' };
const newDeal = (userId = agent.id) =>
  createTransaction(database.db, { userId, type: TYPE, role: 'Seller', streetAddress: `1 Key St ${RUN}` });

describe('creating, listing and revoking keys', () => {
  it('shows the key once, stores only the hash of its secret, and lists it without the key', async () => {
    const created = await createKey(['transactions:read', 'users:read'], {
      expiresAt: '2027-06-01T00:00:00Z',
    });
    expect(created.key).toMatch(/^bpk_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(created).toMatchObject({
      name: `Books ${RUN}`,
      scopes: ['transactions:read', 'users:read'],
      createdAt: clock.now().toISOString(),
      expiresAt: '2027-06-01T00:00:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
      createdBy: { _id: admin.id },
    });
    const row = await database.db.apiKey.findUniqueOrThrow({ where: { id: created._id } });
    const secret = created.key.split('_').slice(2).join('_');
    expect(Buffer.from(row.secretHash)).toEqual(createHash('sha256').update(secret).digest());
    expect(JSON.stringify(row)).not.toContain(secret);

    const list = await ok<{ items: ApiKeyAnswer[] }>(200, 'GET', '/api/admin/api-keys', admin);
    const listed = list.items.find((item) => item._id === created._id);
    expect(listed).toBeDefined();
    expect(listed).not.toHaveProperty('key');
    expect(JSON.stringify(list)).not.toContain(secret);
  });

  it('keeps scopes in their canonical order, once each', async () => {
    const created = await createKey(['users:read', 'transactions:read', 'users:read']);
    expect(created.scopes).toEqual(['transactions:read', 'users:read']);
  });

  it.each([
    [{ name: '', scopes: ['users:read'] }, integrationMessages.keyNameRequired],
    [{ name: 'x', scopes: [] }, integrationMessages.scopesRequired],
    [{ name: 'x', scopes: ['users:delete'] }, integrationMessages.scopeInvalid],
    [
      { name: 'x', scopes: ['users:read'], expiresAt: '2026-11-28T11:59:59Z' },
      integrationMessages.expiryInPast,
    ],
    [{ name: 'x', scopes: ['users:read'], expiresAt: 'tomorrow' }, 'expiresAt must be an ISO 8601 date-time'],
  ])('refuses %j with a clear message and creates nothing', async (body, message) => {
    const before = await database.db.apiKey.count();
    await refused(400, message, 'POST', '/api/admin/api-keys', admin, body);
    expect(await database.db.apiKey.count()).toBe(before);
  });

  it('is for admins only', async () => {
    await refused(403, apiMessages.forbidden, 'POST', '/api/admin/api-keys', agent, {
      name: 'mine',
      scopes: ['users:read'],
    });
    await refused(403, apiMessages.forbidden, 'GET', '/api/admin/api-keys', agent);
    await refused(401, apiMessages.notSignedIn, 'GET', '/api/admin/api-keys', undefined);
  });

  it('revokes at once: the next call is 401, and revoking again changes nothing', async () => {
    const { _id, key } = await createKey(['transactions:read']);
    expect((await withKey(key, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
    const revoked = await ok<ApiKeyAnswer>(200, 'DELETE', `/api/admin/api-keys/${_id}`, admin);
    expect(revoked.revokedAt).toBe(clock.now().toISOString());
    const res = await withKey(key, 'GET', '/api/admin/transactions');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(integrationMessages.keyRevoked);
    const again = await ok<ApiKeyAnswer>(200, 'DELETE', `/api/admin/api-keys/${_id}`, admin);
    expect(again.revokedAt).toBe(revoked.revokedAt);
    await refused(
      404,
      apiMessages.notFound,
      'DELETE',
      '/api/admin/api-keys/00000000-0000-4000-8000-000000000000',
      admin,
    );
  });
});

describe('calling with a key', () => {
  it('answers what the scope allows with an admin visibility, and records when it was used', async () => {
    const { _id, key } = await createKey(['transactions:read']);
    const deal = await newDeal();
    const res = await withKey(key, 'GET', `/api/admin/transactions/individual/${deal.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()._id).toBe(deal.id);
    const row = await database.db.apiKey.findUniqueOrThrow({ where: { id: _id } });
    expect(row.lastUsedAt?.toISOString()).toBe(clock.now().toISOString());
  });

  it('refuses a path its scopes do not name with 403 "This API key lacks the scope ..."', async () => {
    const { key } = await createKey(['transactions:read']);
    const deal = await newDeal();
    const cases: Array<[Parameters<typeof withKey>[1], string, string, object?]> = [
      ['PUT', `/api/admin/transactions/${deal.id}`, 'transactions:write', { city: 'Bangor' }],
      ['POST', `/api/admin/transactions/${deal.id}/close`, 'reviews:write'],
      ['GET', '/api/users', 'users:read'],
      ['POST', '/api/forms', 'libraries:write', { name: 'x', link: 'y' }],
    ];
    for (const [method, url, scope, payload] of cases) {
      const res = await withKey(key, method, url, payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(integrationMessages.lacksScope(scope));
    }
    const unchanged = await database.db.transaction.findUniqueOrThrow({ where: { id: deal.id } });
    expect(unchanged.city).toBe(deal.city);
  });

  it('never calls the paths of a person, nor manages keys, whatever its scopes', async () => {
    const { key } = await createKey([
      'transactions:read',
      'transactions:write',
      'reviews:write',
      'users:read',
      'users:write',
      'libraries:write',
      'webhooks:manage',
    ]);
    for (const [method, url] of [
      ['GET', `/api/notifications/${admin.id}`],
      ['POST', `/api/settings/changePassword/${admin.id}`],
      ['GET', '/api/admin/api-keys'],
      ['POST', '/api/admin/api-keys'],
      ['POST', '/api/calendar/feed'],
    ] as const) {
      const res = await withKey(key, method, url, method === 'POST' ? {} : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(integrationMessages.notForApiKeys);
    }
  });

  it('refuses a key on /trpc: integrators use /api', async () => {
    const { key } = await createKey(['transactions:read']);
    const res = await app.inject({
      method: 'GET',
      url: '/trpc/adminTransactions.list?input=%7B%7D',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.statusCode).toBe(401);
    expect(JSON.stringify(res.json())).toContain(integrationMessages.keyOnlyOnApi);
  });

  it('refuses tampered, malformed, unknown and expired keys with 401', async () => {
    const { key } = await createKey(['transactions:read'], { expiresAt: '2026-11-28T13:00:00Z' });
    const last = key.at(-1) === 'A' ? 'B' : 'A';
    for (const bad of [`${key.slice(0, -1)}${last}`, 'bpk_nope', `bpk_${'0'.repeat(32)}_${'a'.repeat(43)}`]) {
      const res = await withKey(bad, 'GET', '/api/admin/transactions');
      expect(res.statusCode, bad).toBe(401);
      expect(res.json().message).toBe(integrationMessages.keyInvalid);
    }
    expect((await withKey(key, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
    clock.advance(60 * 60 * 1000);
    const res = await withKey(key, 'GET', '/api/admin/transactions');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(integrationMessages.keyExpired);
  });

  it("dies with its creator's rights: deactivated or demoted, the key is refused", async () => {
    for (const change of [{ isAdminApproved: false }, { role: 'user' as const }]) {
      const creator = await createAdmin(database.db);
      const { key } = await createKey(['transactions:read'], {}, creator);
      expect((await withKey(key, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
      await database.db.user.update({ where: { id: creator.id }, data: change });
      const res = await withKey(key, 'GET', '/api/admin/transactions');
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(integrationMessages.keyCreatorInactive);
    }
  });

  it('replays no answer kept under its Idempotency-Key once its creator is deactivated', async () => {
    const creator = await createAdmin(database.db);
    const { key } = await createKey(['transactions:write'], {}, creator);
    const send = () =>
      app.inject({
        method: 'POST',
        url: '/api/transactions',
        headers: { authorization: `Bearer ${key}`, 'idempotency-key': `dead-creator-${RUN}` },
        payload: { type: TYPE, role: 'Seller', streetAddress: `3 Replay Rd ${RUN}`, ...PORTLAND },
      });
    expect((await send()).statusCode).toBe(201);
    await database.db.user.update({ where: { id: creator.id }, data: { isAdminApproved: false } });
    const again = await send();
    expect({ status: again.statusCode, message: again.json().message }).toEqual({
      status: 401,
      message: integrationMessages.keyCreatorInactive,
    });
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('audits its changes under the creator, naming the key', async () => {
    const { _id, key, name } = await createKey(['transactions:read', 'transactions:write']);
    const deal = await newDeal();
    const res = await withKey(key, 'PUT', `/api/admin/transactions/${deal.id}`, {
      streetAddress: deal.streetAddress,
      city: 'Bangor',
      state: 'ME',
      zip: '04401',
    });
    expect(res.statusCode, res.body).toBe(200);
    const history = await (await withKey(key, 'GET', `/api/admin/transactions/${deal.id}/history`)).json();
    const update = (history as HistoryEntry[]).find((entry) => entry.action === 'transaction.update');
    expect(update?.actor?._id).toBe(admin.id);
    expect(update?.apiKey).toEqual({ _id, name });
  });

  it("creates transactions with transactions:write, as its creator's own", async () => {
    const { key } = await createKey(['transactions:write']);
    const res = await withKey(key, 'POST', '/api/transactions', {
      type: TYPE,
      role: 'Seller',
      streetAddress: `9 Integration Ave ${RUN}`,
      city: 'Portland',
      state: 'ME',
      zip: '04101',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((res.json() as Transaction).streetAddress).toBe(`9 Integration Ave ${RUN}`);
    const row = await database.db.transaction.findUniqueOrThrow({
      where: { id: (res.json() as Transaction)._id },
    });
    expect(row.userId).toBe(admin.id);
  });

  it('counts calls per key: over the limit is 429, other keys and wrong secrets are not counted', async () => {
    clock.advance(2 * 60 * 1000);
    const busy = await createKey(['transactions:read']);
    const quiet = await createKey(['transactions:read']);
    const wrong = `${busy.key.slice(0, -1)}${busy.key.at(-1) === 'A' ? 'B' : 'A'}`;
    for (let i = 0; i < 20; i++)
      expect((await withKey(wrong, 'GET', '/api/admin/transactions')).statusCode).toBe(401);
    for (let i = 0; i < PER_MINUTE; i++) {
      expect((await withKey(busy.key, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
    }
    const over = await withKey(busy.key, 'GET', '/api/admin/transactions');
    expect(over.statusCode).toBe(429);
    expect(over.json().message).toBe(apiMessages.tooManyRequests);
    // The key's own limit, whose window (counted from its first call, the clock standing still) ends in 60 s.
    expect(over.headers).toMatchObject({
      'retry-after': '60',
      'x-ratelimit-limit': String(PER_MINUTE),
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '60',
    });
    expect((await withKey(quiet.key, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
    clock.advance(61 * 1000);
    expect((await withKey(busy.key, 'GET', '/api/admin/transactions')).statusCode).toBe(200);
  });
});

describe('office keys', () => {
  it("an office admin lists and revokes its office's keys only, and its key sees its office only", async () => {
    const north = await database.db.office.create({ data: { name: `North ${RUN}` } });
    const northAdmin = await createAdmin(database.db, { office: { connect: { id: north.id } } });
    const northAgent = await createUser(database.db, { office: { connect: { id: north.id } } });
    const wideKey = await createKey(['transactions:read']);
    const officeKey = await createKey(['transactions:read'], {}, northAdmin);
    expect([officeKey.officeId, wideKey.officeId]).toEqual([north.id, null]);

    const listed = await ok<{ items: ApiKeyAnswer[] }>(200, 'GET', '/api/admin/api-keys', northAdmin);
    expect(listed.items.map((item) => [item._id, item.officeId])).toEqual([[officeKey._id, north.id]]);
    const everyone = await ok<{ items: ApiKeyAnswer[] }>(200, 'GET', '/api/admin/api-keys', admin);
    expect(everyone.items.map((item) => item._id)).toEqual(
      expect.arrayContaining([officeKey._id, wideKey._id]),
    );
    await refused(404, apiMessages.notFound, 'DELETE', `/api/admin/api-keys/${wideKey._id}`, northAdmin);
    expect((await database.db.apiKey.findUniqueOrThrow({ where: { id: wideKey._id } })).revokedAt).toBeNull();

    // The key acts as its creator: the office's transactions, and another office's are not found.
    const ours = await newDeal(northAgent.id);
    const theirs = await newDeal();
    const list = await withKey(officeKey.key, 'GET', '/api/admin/transactions?limit=100');
    expect(list.statusCode, list.body).toBe(200);
    expect(
      (list.json() as { transactions: Array<{ _id: string }> }).transactions.map((row) => row._id),
    ).toEqual([ours.id]);
    const other = await withKey(officeKey.key, 'GET', `/api/admin/transactions/individual/${theirs.id}`);
    expect(other.statusCode, other.body).toBe(404);

    const revoked = await ok<ApiKeyAnswer>(200, 'DELETE', `/api/admin/api-keys/${officeKey._id}`, northAdmin);
    expect(revoked.revokedAt).toBe(clock.now().toISOString());
  });
});

it('a person with no key is unaffected by the key paths', async () => {
  const res = await call('GET', '/api/admin/transactions', admin);
  expect(res.statusCode).toBe(200);
});
