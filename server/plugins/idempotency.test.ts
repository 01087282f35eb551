import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, integrationMessages } from '../../shared/messages';
import type { Transaction } from '../../shared/schemas/transactions';
import { IDEMPOTENCY_WINDOW_MS, pruneIdempotencyKeys } from '../services/idempotency';
import { bearer, multipartBody, TINY_PDF } from '../test/api-calls';
import {
  accessTokenFor,
  createAdmin,
  createTemplate,
  createTransaction,
  createUser,
} from '../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import type { Actor } from '../test/rest-calls';

/**
 * Idempotency-Key on the real POST paths: a repeat answers the first answer with
 * `Idempotent-Replayed: true` and does nothing more; another body under the key is 422; two
 * identical requests racing make one change; keys are per caller and last 24 h; answers worth
 * retrying (401, 5xx) are not kept.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-28T12:00:00.000Z'));
const RUN = Date.now().toString(36);
const TYPE = `Idem-${RUN}`;
/** A checklist long enough that the new transaction's answer is compressed (over 8 KiB of JSON). */
const LONG_TYPE = `Idem-long-${RUN}`;
const LONG_CHECKLIST = Array.from(
  { length: 60 },
  (_, i) => `Signed addendum number ${i + 1} to the agreement`,
);
let app: FastifyInstance;
let agent: Actor;
let other: Actor;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await createUser(database.db);
  other = await createUser(database.db);
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Disclosure'] });
  await createTemplate(database.db, { type: LONG_TYPE, role: 'Seller', documents: LONG_CHECKLIST });
});
afterAll(() => app?.close());

let streets = 0;
const deal = (street = `${++streets} Idempotent Ln ${RUN}`) => ({
  type: TYPE,
  role: 'Seller',
  streetAddress: street,
  city: 'Portland',
  state: 'ME',
  zip: '04101',
});

async function post(url: string, who: Actor | undefined, key: string | undefined, payload: object) {
  const token = who ? await accessTokenFor(who, { now: clock.now() }) : undefined;
  return app.inject({
    method: 'POST',
    url,
    payload,
    headers: { ...bearer(token), ...(key === undefined ? {} : { 'idempotency-key': key }) },
  });
}

const countStreet = (street: string) => database.db.transaction.count({ where: { streetAddress: street } });

describe('Idempotency-Key on POST /api/transactions', () => {
  it('answers the first answer again, marked replayed, and creates one transaction', async () => {
    const body = deal();
    const first = await post('/api/transactions', agent, `create-${RUN}-1`, body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await post('/api/transactions', agent, `create-${RUN}-1`, body);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toContain('application/json');
    expect(again.json()).toEqual(first.json());
    expect(await countStreet(body.streetAddress)).toBe(1);
  });

  it('replays a compressed answer exactly, whatever encoding the retry accepts', async () => {
    const body = { ...deal(), type: LONG_TYPE };
    const token = await accessTokenFor(agent, { now: clock.now() });
    const send = (acceptEncoding: string) =>
      app.inject({
        method: 'POST',
        url: '/api/transactions',
        payload: body,
        headers: {
          ...bearer(token),
          'idempotency-key': `create-${RUN}-br`,
          'accept-encoding': acceptEncoding,
        },
      });
    const first = await send('br');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['content-encoding']).toBe('br');
    const firstAnswer = JSON.parse(brotliDecompressSync(first.rawPayload).toString('utf8'));
    expect(firstAnswer.forms).toHaveLength(LONG_CHECKLIST.length);
    const plain = await send('identity');
    expect(plain.headers['idempotent-replayed']).toBe('true');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(firstAnswer);
    const compressed = await send('br');
    expect(compressed.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(compressed.rawPayload).toString('utf8'))).toEqual(firstAnswer);
    expect(await countStreet(body.streetAddress)).toBe(1);
  });

  it('takes the same body with its keys in another order and other whitespace as the same request', async () => {
    const body = deal();
    const first = await post('/api/transactions', agent, `create-${RUN}-order`, body);
    expect(first.statusCode, first.body).toBe(201);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const token = await accessTokenFor(agent, { now: clock.now() });
    const again = await app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: JSON.stringify(reordered, null, 3),
      headers: {
        ...bearer(token),
        'content-type': 'application/json',
        'idempotency-key': `create-${RUN}-order`,
      },
    });
    expect(again.statusCode, again.body).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await countStreet(body.streetAddress)).toBe(1);
  });

  it('refuses the same key with another body with 422, changing nothing', async () => {
    const body = deal();
    await post('/api/transactions', agent, `create-${RUN}-2`, body);
    const other = deal();
    const res = await post('/api/transactions', agent, `create-${RUN}-2`, other);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: integrationMessages.idempotencyMismatch,
      code: 'UNPROCESSABLE',
      error: 'idempotency-mismatch',
    });
    expect(await countStreet(other.streetAddress)).toBe(0);
  });

  it('makes one change when two identical requests race (repeated)', async () => {
    for (let round = 0; round < 6; round++) {
      const body = deal();
      const key = `race-${RUN}-${round}`;
      const answers = await Promise.all([1, 2, 3].map(() => post('/api/transactions', agent, key, body)));
      for (const res of answers) expect(res.statusCode, res.body).toBe(201);
      const ids = new Set(answers.map((res) => (res.json() as Transaction)._id));
      expect(ids.size).toBe(1);
      expect(answers.filter((res) => res.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
      expect(await countStreet(body.streetAddress)).toBe(1);
    }
  });

  it('keeps keys apart per caller: the same key from someone else is a request of its own', async () => {
    const mine = deal();
    const theirs = deal();
    const a = await post('/api/transactions', agent, `shared-${RUN}`, mine);
    const b = await post('/api/transactions', other, `shared-${RUN}`, theirs);
    expect(a.statusCode).toBe(201);
    expect(b.statusCode).toBe(201);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect((b.json() as Transaction).streetAddress).toBe(theirs.streetAddress);
  });

  it('runs the request again once its 24 h have passed, and the hourly prune removes old answers', async () => {
    const body = deal();
    await post('/api/transactions', agent, `day-${RUN}`, body);
    clock.advance(IDEMPOTENCY_WINDOW_MS + 1000);
    const later = await post('/api/transactions', agent, `day-${RUN}`, body);
    expect(later.statusCode).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(await countStreet(body.streetAddress)).toBe(2);
    clock.advance(IDEMPOTENCY_WINDOW_MS + 1000);
    const admin = await createAdmin(database.db);
    expect(
      await pruneIdempotencyKeys(serviceContext(testDeps(database.db, { clock }), admin)),
    ).toBeGreaterThan(0);
    expect(await database.db.idempotencyKey.count({ where: { key: `day-${RUN}` } })).toBe(0);
  });

  it.each([
    ['', 'empty'],
    ['x'.repeat(256), '256 characters'],
    ['caf\u00e9', 'not ASCII'],
  ])('refuses the key %j (%s) with 400 before doing anything', async (key) => {
    const body = deal();
    const res = await post('/api/transactions', agent, key, body);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(integrationMessages.idempotencyKeyInvalid);
    expect(await countStreet(body.streetAddress)).toBe(0);
  });

  it('keeps a refusal of the request itself (400), but not a 401: signed in, the retry runs', async () => {
    const invalid = await post('/api/transactions', agent, `bad-${RUN}`, { type: TYPE });
    expect(invalid.statusCode).toBe(400);
    const replayed = await post('/api/transactions', agent, `bad-${RUN}`, { type: TYPE });
    expect(replayed.statusCode).toBe(400);
    expect(replayed.headers['idempotent-replayed']).toBe('true');

    const body = deal();
    const anonymous = await post('/api/transactions', undefined, `later-${RUN}`, body);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json().message).toBe(apiMessages.notSignedIn);
    // Another caller's (anonymous) claim never reaches this user's key anyway; nor is it kept.
    expect(await database.db.idempotencyKey.count({ where: { key: `later-${RUN}` } })).toBe(0);
    const signedIn = await post('/api/transactions', agent, `later-${RUN}`, body);
    expect(signedIn.statusCode).toBe(201);
  });

  it('refuses a body nested too deep to fingerprint with 400, not 500 (found by fuzzing)', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
      headers: {
        'content-type': 'application/json',
        'idempotency-key': `deep-${RUN}`,
        ...bearer(await accessTokenFor(agent, { now: clock.now() })),
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(apiMessages.invalidInput);
  });

  it('is not kept for requests without the header', async () => {
    const before = await database.db.idempotencyKey.count();
    expect((await post('/api/transactions', agent, undefined, deal())).statusCode).toBe(201);
    expect(await database.db.idempotencyKey.count()).toBe(before);
  });
});

describe('Idempotency-Key on an upload', () => {
  it('stores the file once and replays the answer', async () => {
    const t = await createTransaction(database.db, { userId: agent.id, type: TYPE, role: 'Seller' });
    const token = await accessTokenFor(agent, { now: clock.now() });
    const upload = () => {
      const body = multipartBody(Buffer.concat([TINY_PDF, Buffer.from(`% ${RUN}\n`)]));
      return app.inject({
        method: 'POST',
        url: `/api/uploads/transactions/${t.id}`,
        payload: body.payload,
        headers: { ...body.headers, ...bearer(token), 'idempotency-key': `upload-${RUN}` },
      });
    };
    const before = await database.db.storedFile.count();
    const first = await upload();
    expect(first.statusCode, first.body).toBe(201);
    const again = await upload();
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await database.db.storedFile.count()).toBe(before + 1);
  });
});

it('stores answers sealed: a sign-in replayed carries its tokens, the table does not', async () => {
  const who = await createUser(database.db);
  const login = {
    email: (await database.db.user.findUniqueOrThrow({ where: { id: who.id } })).email,
    password: 'correct-horse-battery',
  };
  const first = await post('/api/auth/login', undefined, `login-${RUN}`, login);
  expect(first.statusCode, first.body).toBe(200);
  const again = await post('/api/auth/login', undefined, `login-${RUN}`, login);
  expect(again.json()).toEqual(first.json());
  const row = await database.db.idempotencyKey.findFirstOrThrow({ where: { key: `login-${RUN}` } });
  expect(row.body).not.toContain(first.json().accessToken);
  expect(row.body).not.toContain(login.password);
});
