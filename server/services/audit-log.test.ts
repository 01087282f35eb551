import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { auditMessages } from '../../shared/audit-messages';
import { apiMessages } from '../../shared/messages';
import type { AuditLogEvent, AuditLogPage } from '../../shared/schemas/audit';
import { parseCsv } from '../test/csv-reader';
import { createAdmin, createAuditEvent, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * GET /api/admin/audit and /api/admin/audit.csv on a real database: newest first, each
 * filter alone and together, keyset pages that walk the whole trail once, the CSV's exact
 * columns, bad filters as 400s, and brokerage-wide admins only.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-03-10T12:00:00.000Z'));
let app: FastifyInstance;
const { call, ok, refused } = restCalls(() => app, clock);

let admin: Actor & { email: string };
let officeAdmin: Actor;
let agent: Actor & { email: string };
const transactionId = randomUUID();
const formId = randomUUID();
/** The events this file wrote, by name. */
const ids: Record<'upload' | 'review' | 'purge' | 'userUpdate', string> = {} as never;
const BULK = 25;

const list = (query = '', who: Actor = admin) =>
  ok<AuditLogPage>(200, 'GET', `/api/admin/audit${query}`, who);
const idsOf = (page: AuditLogPage) => page.items.map((event) => event._id);

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  admin = await createAdmin(database.db, { firstName: 'Ada', lastName: 'Admin', email: 'ada@audit.test' });
  const office = await database.db.office.create({ data: { name: `Audit office ${randomUUID()}` } });
  officeAdmin = await createAdmin(database.db, { office: { connect: { id: office.id } } });
  agent = await createUser(database.db, {
    firstName: 'Agnes',
    lastName: 'Agent',
    // A spreadsheet would run this as a formula: the CSV defuses it.
    email: '=agnes@audit.test',
  });
  const at = (iso: string) => new Date(iso);
  ids.upload = (
    await createAuditEvent(database.db, {
      actorId: agent.id,
      action: 'form.upload',
      entity: 'TransactionForm',
      entityId: formId,
      transactionId,
      after: { label: 'Purchase agreement', version: 1 },
      createdAt: at('2026-03-01T00:00:00.000Z'),
    })
  ).id;
  ids.review = (
    await createAuditEvent(database.db, {
      actorId: admin.id,
      onBehalfOf: agent.id,
      action: 'form.review',
      entity: 'TransactionForm',
      entityId: formId,
      transactionId,
      before: { status: 'pending' },
      after: { status: 'rejected', text: 'Sign, "please", page 2' },
      createdAt: at('2026-03-01T23:59:59.999Z'),
    })
  ).id;
  ids.purge = (
    await createAuditEvent(database.db, {
      actorId: null,
      action: 'transaction.purge',
      entity: 'Transaction',
      entityId: transactionId,
      transactionId,
      after: { files: 3 },
      createdAt: at('2026-03-02T00:00:00.000Z'),
    })
  ).id;
  ids.userUpdate = (
    await createAuditEvent(database.db, {
      actorId: admin.id,
      action: 'user.update',
      entity: 'User',
      entityId: agent.id,
      createdAt: at('2026-03-05T12:00:00.000Z'),
    })
  ).id;
  for (let i = 0; i < BULK; i++)
    await createAuditEvent(database.db, {
      actorId: agent.id,
      action: 'transaction.key-dates',
      entityId: randomUUID(),
      // Two by two at one moment, as the events of one database transaction are: the cursor
      // must tell them apart by seq.
      createdAt: at(`2026-03-06T00:00:${String(Math.floor(i / 2)).padStart(2, '0')}.000Z`),
    });
});

describe('GET /api/admin/audit', () => {
  it('answers the newest events first, each with its actor, chain links and snapshots', async () => {
    const page = await list('?limit=100');
    const order = page.items.map((event) => [event.createdAt, event.seq] as const);
    expect(order).toEqual(
      [...order].sort(([at1, seq1], [at2, seq2]) => (at1 === at2 ? seq2 - seq1 : at2.localeCompare(at1))),
    );
    // Consecutive events link: each names the hash of the one written before it.
    for (let i = 0; i + 1 < page.items.length; i++)
      if (page.items[i]?.seq === (page.items[i + 1]?.seq ?? 0) + 1)
        expect(page.items[i]?.prevHash).toBe(page.items[i + 1]?.hash);
    const review = page.items.find((event) => event._id === ids.review) as AuditLogEvent;
    expect(review).toMatchObject({
      actor: { _id: admin.id, name: 'Ada Admin', email: 'ada@audit.test' },
      apiKeyId: null,
      onBehalfOf: agent.id,
      action: 'form.review',
      entity: 'TransactionForm',
      entityId: formId,
      transactionId,
      before: { status: 'pending' },
      after: { status: 'rejected', text: 'Sign, "please", page 2' },
      createdAt: '2026-03-01T23:59:59.999Z',
    });
    expect(review.hash).toMatch(/^[0-9a-f]{64}$/);
    const purge = page.items.find((event) => event._id === ids.purge);
    expect(purge?.actor).toBeNull();
  });

  it('pages by cursor through every event once, in order, ending with a null cursor', async () => {
    const everything = idsOf(await list('?limit=100'));
    const walked: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: AuditLogPage = await list(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.items.length).toBeLessThanOrEqual(3);
      walked.push(...idsOf(page));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== null && pages < 50);
    expect(walked).toEqual(everything);
    expect(pages).toBe(Math.ceil(everything.length / 3));
    // A page exactly full at the end says so with a null cursor, not an empty page after it.
    const exact = await list(`?limit=${everything.length}`);
    expect(exact.nextCursor).toBeNull();
  });

  it('keeps its place when events are written between two pages', async () => {
    const writer = await createUser(database.db);
    const write = (minute: number) =>
      createAuditEvent(database.db, {
        actorId: writer.id,
        action: 'transaction.key-dates',
        entityId: randomUUID(),
        createdAt: new Date(`2026-03-08T00:${String(minute).padStart(2, '0')}:00.000Z`),
      });
    for (let minute = 0; minute < 8; minute++) await write(minute);
    const query = `?actorId=${writer.id}&limit=3`;
    const first = await list(query);
    await write(30);
    const second = await list(`${query}&cursor=${first.nextCursor}`);
    const all = idsOf(await list(`?actorId=${writer.id}&limit=100`));
    // The page after the first is what followed it before the new event, not shifted by one.
    expect(idsOf(first)).toEqual(all.slice(1, 4));
    expect(idsOf(second)).toEqual(all.slice(4, 7));
  });

  it('filters by actor, entity, record, action and transaction', async () => {
    expect(idsOf(await list(`?actorId=${admin.id}`))).toEqual([ids.userUpdate, ids.review]);
    expect(idsOf(await list('?entity=Transaction&action=transaction.purge'))).toEqual([ids.purge]);
    expect(idsOf(await list(`?entityId=${formId}`))).toEqual([ids.review, ids.upload]);
    expect(idsOf(await list('?action=form.review'))).toEqual([ids.review]);
    expect(idsOf(await list(`?transactionId=${transactionId}`))).toEqual([ids.purge, ids.review, ids.upload]);
    expect(idsOf(await list(`?transactionId=${transactionId}&actorId=${agent.id}`))).toEqual([ids.upload]);
    expect((await list(`?actorId=${randomUUID()}`)).items).toEqual([]);
    const bulk = await list(`?action=transaction.key-dates&actorId=${agent.id}&limit=100`);
    expect(bulk.items).toHaveLength(BULK);
  });

  it('takes from/to as whole UTC days (both included) or as instants', async () => {
    const day = await list('?from=2026-03-01&to=2026-03-01');
    expect(idsOf(day)).toEqual([ids.review, ids.upload]);
    expect(idsOf(await list('?from=2026-03-02&to=2026-03-05'))).toEqual([ids.userUpdate, ids.purge]);
    expect(idsOf(await list('?from=2026-03-01T23:59:59.999Z&to=2026-03-02T00:00:00Z'))).toEqual([
      ids.purge,
      ids.review,
    ]);
    // An instant with an offset is that instant: 01:00+01:00 is midnight UTC.
    expect(idsOf(await list('?to=2026-03-01T01:00:00%2B01:00'))).toContain(ids.upload);
    expect(idsOf(await list('?to=2026-03-01T01:00:00%2B01:00'))).not.toContain(ids.review);
    expect(idsOf(await list('?from=2026-03-02&to=2026-03-02&entity=Transaction'))).toEqual([ids.purge]);
  });

  it('takes the extreme instants ISO 8601 allows without failing', async () => {
    for (const query of [
      '?to=9999-12-31T23:59:59.999Z',
      '?from=0000-01-01T00:00:00%2B14:00',
      '?from=0000-01-01T00:00:00Z&to=9999-12-31T23:59:59.999-14:00',
    ])
      expect((await list(query)).items.length).toBeGreaterThan(0);
  });

  it.each([
    ['?from=2026-02-30', 'from', auditMessages.rangeBoundInvalid],
    ['?to=yesterday', 'to', auditMessages.rangeBoundInvalid],
    ['?from=2026-03-02&to=2026-03-01', 'to', auditMessages.rangeReversed],
    ['?cursor=abc', 'cursor', auditMessages.cursorInvalid],
    ['?cursor=0', 'cursor', auditMessages.cursorInvalid],
    ['?cursor=1700000000000-99999999999999999999999', 'cursor', auditMessages.cursorInvalid],
    ['?cursor=1700000000000', 'cursor', auditMessages.cursorInvalid],
    ['?action=form%20review%3B', 'action', auditMessages.nameInvalid],
    ['?entity=', 'entity', auditMessages.nameInvalid],
    ['?actorId=not-an-id', 'actorId', 'Invalid id'],
  ])('refuses %s with 400 naming %s', async (query, path, message) => {
    const body = await refused(400, message, 'GET', `/api/admin/audit${query}`, admin);
    expect(body.issues?.[0]?.path).toBe(path);
  });

  it('refuses limits outside 1-100', async () => {
    for (const limit of ['0', '101', 'ten']) {
      const res = await call('GET', `/api/admin/audit?limit=${limit}`, admin);
      expect(res.statusCode, res.body).toBe(400);
    }
  });

  it('is for brokerage-wide admins: office admins and agents 403, anonymous 401', async () => {
    await refused(403, apiMessages.forbidden, 'GET', '/api/admin/audit', officeAdmin);
    expect((await call('GET', '/api/admin/audit', agent)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/audit')).statusCode).toBe(401);
  });
});

describe('GET /api/admin/audit.csv', () => {
  const HEADER =
    'seq,created_at,actor_email,action,entity,entity_id,transaction_id,api_key_id,on_behalf_of,hash,prev_hash,before,after';

  it('sends every matching event newest first, with the list filters, as CSV', async () => {
    const res = await call('GET', `/api/admin/audit.csv?transactionId=${transactionId}`, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit-2026-03-10.csv"');
    expect(res.body.startsWith(`${HEADER}\r\n`)).toBe(true);
    const [header, ...rows] = parseCsv(res.body);
    expect(header?.join(',')).toBe(HEADER);
    const listed = await list(`?transactionId=${transactionId}`);
    expect(rows.map((row) => row[0])).toEqual(listed.items.map((event) => String(event.seq)));
    const [purge, review, upload] = listed.items as [AuditLogEvent, AuditLogEvent, AuditLogEvent];
    expect(rows[1]).toEqual([
      String(review.seq),
      '2026-03-01T23:59:59.999Z',
      'ada@audit.test',
      'form.review',
      'TransactionForm',
      formId,
      transactionId,
      '',
      agent.id,
      review.hash,
      review.prevHash,
      '{"status": "pending"}',
      '{"text": "Sign, \\"please\\", page 2", "status": "rejected"}',
    ]);
    // The system's event has no actor; a typed e-mail a spreadsheet would run is defused.
    expect(rows[0]?.[2]).toBe('');
    expect(rows[0]?.[11]).toBe('');
    expect(rows[0]?.[0]).toBe(String(purge.seq));
    expect(rows[2]?.[2]).toBe("'=agnes@audit.test");
    expect(rows[2]?.[0]).toBe(String(upload.seq));
  });

  it('refuses bad filters with 400 and other callers as the list does', async () => {
    const bad = await call('GET', '/api/admin/audit.csv?from=2026-03-05&to=2026-03-01', admin);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(auditMessages.rangeReversed);
    expect((await call('GET', '/api/admin/audit.csv', officeAdmin)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/audit.csv', agent)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/audit.csv')).statusCode).toBe(401);
  });
});
