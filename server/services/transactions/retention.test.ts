import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/schemas/transactions';
import type { AppDeps } from '../../deps';
import { transactionFileKey } from '../../storage/keys';
import { bearer, TINY_PDF } from '../../test/api-calls';
import {
  accessTokenFor,
  attachTestFile,
  createAdmin,
  createTransaction,
  createUser,
} from '../../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { purgeExpiredFiles } from './purge';

/**
 * Retention and legal holds through their REST paths, on a real database and the real local
 * storage: retainUntil on the answers, placing and releasing a hold, the deletes it refuses, and
 * the daily purge of files past retention.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-09T10:00:00.000Z'));
let deps: AppDeps;
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number; officeId?: string | null };
let agent: Actor;
let northAgent: Actor;
let admin: Actor;
let southAdmin: Actor;
let northOfficeId: string;

const RUN = Date.now().toString(36);

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  const north = await database.db.office.create({ data: { name: `North ${RUN}`, retentionYears: 10 } });
  const south = await database.db.office.create({ data: { name: `South ${RUN}` } });
  northOfficeId = north.id;
  agent = await createUser(database.db);
  northAgent = await createUser(database.db, { office: { connect: { id: north.id } } });
  admin = await createAdmin(database.db);
  southAdmin = await createAdmin(database.db, { office: { connect: { id: south.id } } });
});
afterAll(() => app.close());

async function call(method: 'GET' | 'PUT' | 'DELETE', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}

const closedOn = (at: string, userId = agent.id) =>
  createTransaction(database.db, { userId, closedAt: new Date(at) });
const holdOf = (id: string, who: Actor, body: unknown) =>
  call('PUT', `/api/admin/transactions/${id}/legal-hold`, who, body);

describe('retainUntil and legalHold on the answers', () => {
  it('is the closing day plus seven years without an office, plus the office retention with one', async () => {
    const plain = await closedOn('2026-03-04T23:30:00.000Z');
    const inNorth = await closedOn('2024-02-29T08:00:00.000Z', northAgent.id);
    const open = await createTransaction(database.db, { userId: agent.id });

    const answer = (
      await call('GET', `/api/admin/transactions/individual/${plain.id}`, admin)
    ).json<Transaction>();
    expect(answer).toMatchObject({
      retainUntil: '2033-03-04',
      legalHold: false,
      legalHoldReason: null,
      purgedAt: null,
    });
    const agents = await call(
      'GET',
      `/api/transactions/individual/${inNorth.id}/${northAgent.id}`,
      northAgent,
    );
    expect(agents.statusCode, agents.body).toBe(200);
    // Ten years of the office; 29 February falls on the 28th in a common year.
    expect(agents.json<Transaction>().retainUntil).toBe('2034-02-28');
    const opened = (
      await call('GET', `/api/admin/transactions/individual/${open.id}`, admin)
    ).json<Transaction>();
    expect(opened.retainUntil).toBeNull();
  });

  it('follows a change of the office retention', async () => {
    const file = await closedOn('2026-01-15T12:00:00.000Z', northAgent.id);
    await database.db.office.update({ where: { id: northOfficeId }, data: { retentionYears: 3 } });
    try {
      const answer = (
        await call('GET', `/api/admin/transactions/individual/${file.id}`, admin)
      ).json<Transaction>();
      expect(answer.retainUntil).toBe('2029-01-15');
    } finally {
      await database.db.office.update({ where: { id: northOfficeId }, data: { retentionYears: 10 } });
    }
  });
});

describe('PUT /api/admin/transactions/{id}/legal-hold', () => {
  it('places a hold with its reason, refuses the delete with the hold message, then releases it', async () => {
    const file = await closedOn('2026-06-01T12:00:00.000Z');
    const held = await holdOf(file.id, admin, { hold: true, reason: '  Subpoena 26-CV-0412  ' });
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json<Transaction>()).toMatchObject({
      _id: file.id,
      legalHold: true,
      legalHoldReason: 'Subpoena 26-CV-0412',
    });
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id: file.id } });
    expect(row).toMatchObject({ legalHold: true, legalHoldById: admin.id, legalHoldAt: clock.now() });

    // Inside retention and held: the hold's message wins.
    const refused = await call('DELETE', `/api/admin/transactions/${file.id}`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: 'This transaction is under legal hold' });

    const released = await holdOf(file.id, admin, { hold: false });
    expect(released.json<Transaction>()).toMatchObject({ legalHold: false, legalHoldReason: null });
    const kept = await call('DELETE', `/api/admin/transactions/${file.id}`, admin);
    expect(kept.statusCode).toBe(409);
    expect(kept.json()).toMatchObject({ message: 'This transaction is kept until 2033-06-01' });

    const events = await database.db.auditEvent.findMany({
      where: { transactionId: file.id },
      orderBy: { createdAt: 'asc' },
      select: { action: true, actorId: true, after: true },
    });
    expect(events).toEqual([
      {
        action: 'transaction.legal-hold',
        actorId: admin.id,
        after: { legalHold: true, reason: 'Subpoena 26-CV-0412' },
      },
      { action: 'transaction.legal-hold-release', actorId: admin.id, after: { legalHold: false } },
    ]);
  });

  it('needs a reason to place a hold; a repeated request changes nothing', async () => {
    const file = await closedOn('2026-06-01T12:00:00.000Z');
    for (const body of [{ hold: true }, { hold: true, reason: '   ' }]) {
      const refused = await holdOf(file.id, admin, body);
      expect(refused.statusCode).toBe(400);
      expect(refused.json().issues).toEqual([
        { path: 'reason', message: 'Give a reason for the legal hold' },
      ]);
    }
    expect((await holdOf(file.id, admin, { hold: true, reason: 'x'.repeat(501) })).statusCode).toBe(400);
    await holdOf(file.id, admin, { hold: true, reason: 'Audit by the state' });
    await holdOf(file.id, admin, { hold: true, reason: 'Audit by the state' });
    await holdOf(file.id, admin, { hold: false });
    await holdOf(file.id, admin, { hold: false });
    expect(await database.db.auditEvent.count({ where: { transactionId: file.id } })).toBe(2);
  });

  it('is for admins who reach the file: agents 403, another office 404', async () => {
    const file = await closedOn('2026-06-01T12:00:00.000Z', northAgent.id);
    const body = { hold: true, reason: 'Dispute' };
    expect((await holdOf(file.id, northAgent, body)).statusCode).toBe(403);
    expect((await holdOf(file.id, southAdmin, body)).statusCode).toBe(404);
    expect((await holdOf(file.id, admin, body)).statusCode).toBe(200);
  });
});

describe('deleting a transaction', () => {
  it('deletes open files as before, and closed ones from their retainUntil on', async () => {
    const open = await createTransaction(database.db, { userId: agent.id });
    expect((await call('DELETE', `/api/admin/transactions/${open.id}`, admin)).statusCode).toBe(200);

    const old = await closedOn('2019-12-09T09:00:00.000Z');
    const oneDayShort = await closedOn('2019-12-10T00:30:00.000Z');
    expect((await call('DELETE', `/api/admin/transactions/${old.id}`, admin)).statusCode).toBe(200);
    const refused = await call('DELETE', `/api/admin/transactions/${oneDayShort.id}`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This transaction is kept until 2026-12-10');
  });

  it('refuses an open file under legal hold', async () => {
    const open = await createTransaction(database.db, { userId: agent.id });
    await holdOf(open.id, admin, { hold: true, reason: 'Litigation' });
    const refused = await call('DELETE', `/api/admin/transactions/${open.id}`, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This transaction is under legal hold');
  });
});

describe('the daily purge', () => {
  async function storedFile(transactionId: string, name: string) {
    const key = transactionFileKey(transactionId, name, 'pdf');
    await deps.storage.put(key, Readable.from([TINY_PDF]), { contentType: 'application/pdf' });
    await database.db.storedFile.create({
      data: { key, size: TINY_PDF.length, contentType: 'application/pdf', transactionId },
    });
    return key;
  }

  it('deletes the stored files of files past retention, keeps the row, its audit and purgedAt; held and recent files stay', async () => {
    const expired = await closedOn('2018-01-10T12:00:00.000Z');
    const held = await closedOn('2018-01-10T12:00:00.000Z');
    const recent = await closedOn('2025-01-10T12:00:00.000Z');
    await holdOf(held.id, admin, { hold: true, reason: 'Regulator inquiry' });
    const keys = new Map<string, string[]>();
    for (const file of [expired, held, recent]) {
      const form = file.forms[0];
      if (!form) throw new Error('no form');
      // A version of an item (its bytes stored too) and a CDA-like stored file of the transaction.
      const { fileKey } = await attachTestFile(database.db, form);
      if (!fileKey) throw new Error('no file');
      await deps.storage.put(fileKey, Readable.from([TINY_PDF]), { contentType: 'application/pdf' });
      keys.set(file.id, [fileKey, await storedFile(file.id, 'CDA-v1')]);
    }
    await database.db.auditEvent.create({
      data: {
        action: 'transaction.close',
        entity: 'Transaction',
        entityId: expired.id,
        transactionId: expired.id,
      },
    });

    const ctx = serviceContext(deps);
    expect(await purgeExpiredFiles(ctx)).toBeGreaterThanOrEqual(1);

    for (const key of keys.get(expired.id) ?? []) expect(await deps.storage.exists(key)).toBe(false);
    for (const id of [held.id, recent.id])
      for (const key of keys.get(id) ?? []) expect(await deps.storage.exists(key)).toBe(true);
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id: expired.id } });
    expect(row.purgedAt).toEqual(clock.now());
    expect(await database.db.storedFile.count({ where: { transactionId: expired.id } })).toBe(0);
    expect(await database.db.storedFile.count({ where: { transactionId: held.id } })).toBe(1);
    const actions = await database.db.auditEvent.findMany({
      where: { transactionId: expired.id },
      orderBy: { createdAt: 'asc' },
      select: { action: true, actorId: true, after: true },
    });
    expect(actions).toEqual([
      { action: 'transaction.close', actorId: null, after: null },
      {
        action: 'transaction.purge',
        actorId: null,
        after: { purgedAt: clock.now().toISOString(), files: 2 },
      },
    ]);
    const answer = (
      await call('GET', `/api/admin/transactions/individual/${expired.id}`, admin)
    ).json<Transaction>();
    expect(answer.purgedAt).toBe(clock.now().toISOString());
    // The objects are gone, so no link leads to them; the names stay as the record.
    const purgedForm = answer.forms[0];
    expect(purgedForm?.url).toBeNull();
    expect(purgedForm?.fileName).not.toBeNull();
    const versions = await call(
      'GET',
      `/api/transactions/${expired.id}/forms/${purgedForm?._id}/versions`,
      admin,
    );
    expect(versions.json().versions.map((v: { url: string | null }) => v.url)).toEqual([null]);
    const heldAnswer = (
      await call('GET', `/api/admin/transactions/individual/${held.id}`, admin)
    ).json<Transaction>();
    expect(heldAnswer.forms[0]?.url).toEqual(expect.any(String));

    // Its documents gone, the file cannot be reopened.
    const reopened = await app.inject({
      method: 'POST',
      url: `/api/admin/transactions/${expired.id}/reopen`,
      headers: bearer(await accessTokenFor(admin, { now: clock.now() })),
    });
    expect(reopened.statusCode).toBe(409);
    expect(reopened.json().message).toBe(
      'The documents of this transaction were purged after its retention: it cannot be reopened',
    );

    // Idempotent: nothing left to purge, no second event.
    expect(await purgeExpiredFiles(ctx)).toBe(0);
    expect(
      await database.db.auditEvent.count({
        where: { transactionId: expired.id, action: 'transaction.purge' },
      }),
    ).toBe(1);
  });
});
