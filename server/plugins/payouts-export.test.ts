import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, keyDateMessages } from '../../shared/messages';
import { insertCda } from '../test/cda-rows';
import { parseCsv } from '../test/csv-reader';
import { createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * GET /api/admin/payouts.csv: one row per line of each paid CDA, in the CDA's order of lines,
 * by the UTC day it was paid, of the transactions the admin reaches; the exports' quoting and
 * injection prefix; exact dollars.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let app: FastifyInstance;
const { call } = restCalls(() => app, clock);

const HEADER =
  'paid_at,cda_id,version,transaction_id,street_address,city,state,zip,agent_id,agent_name,office,line,payee,' +
  'amount_cents,amount_dollars';

let owner: Actor;
let northAdmin: Actor;
let alice: Actor;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  const db = database.db;
  const north = await db.office.create({ data: { name: 'North' } });
  const south = await db.office.create({ data: { name: 'South' } });
  owner = await createAdmin(db, { isOwner: true });
  northAdmin = await createAdmin(db, { office: { connect: { id: north.id } } });
  alice = await createUser(db, {
    firstName: 'Alice',
    lastName: 'Agent',
    office: { connect: { id: north.id } },
  });
  const bob = await createUser(db, {
    firstName: 'Bob',
    lastName: 'Broker',
    office: { connect: { id: south.id } },
  });
  const deal = async (userId: string, streetAddress: string, extra: { deletedAt?: Date } = {}) =>
    (
      await createTransaction(db, {
        userId,
        streetAddress,
        city: 'Springfield',
        state: 'CA',
        zip: '90210',
        ...extra,
      })
    ).id;
  ids.main = await deal(alice.id, '12 Main Street');
  ids.hostile = await deal(bob.id, '1 Quote "Lane", Unit 2');
  ids.open = await deal(alice.id, '3 Unpaid Road');
  ids.october = await deal(alice.id, '4 October Court', { deletedAt: new Date('2026-11-15T00:00:00Z') });
  const by = { issuedBy: owner.id };
  // The main deal: version 1 superseded (never exported), version 2 paid with every line.
  await insertCda(db, {
    ...by,
    transactionId: ids.main,
    agentId: alice.id,
    status: 'superseded',
    grossCents: 900_000,
    brokerageCents: 270_000,
  });
  ids.mainCda = (
    await insertCda(db, {
      ...by,
      transactionId: ids.main,
      agentId: alice.id,
      agentName: 'Alice Agent',
      version: 2,
      grossCents: 1_234_567,
      referral: { name: 'Referral Partners', cents: 308_641 },
      brokerageCents: 277_777,
      feeCents: 39_505,
      paidAt: new Date('2026-11-10T15:00:00.000Z'),
    })
  ).id;
  // Paid in the last millisecond of 12 November (UTC); payees a spreadsheet would run.
  ids.hostileCda = (
    await insertCda(db, {
      ...by,
      transactionId: ids.hostile,
      agentId: bob.id,
      agentName: '-Bob Broker',
      brokerageName: '+Broker, "Inc"',
      grossCents: 5,
      referral: { name: '=HYPERLINK("http://evil.test","x")', cents: 1 },
      brokerageCents: 0,
      paidAt: new Date('2026-11-12T23:59:59.999Z'),
    })
  ).id;
  await insertCda(db, {
    ...by,
    transactionId: ids.open,
    agentId: alice.id,
    grossCents: 100_000,
    brokerageCents: 30_000,
  });
  // Paid on 31 October; its transaction deleted since: the money went out all the same.
  ids.octoberCda = (
    await insertCda(db, {
      ...by,
      transactionId: ids.october,
      agentId: alice.id,
      agentName: 'Alice Agent',
      grossCents: 200_000,
      brokerageCents: 60_000,
      paidAt: new Date('2026-10-31T23:59:59.999Z'),
    })
  ).id;
});
afterAll(() => app?.close());

async function payouts(query = '', who: Actor = owner) {
  const res = await call('GET', `/api/admin/payouts.csv${query}`, who);
  expect(res.statusCode, res.body).toBe(200);
  const [header, ...rows] = parseCsv(res.body);
  expect(header?.join(',')).toBe(HEADER);
  return { res, rows };
}

/** Each row as cda, line, payee, cents, dollars. */
const lines = (rows: string[][]) => rows.map((row) => [row[1], row[11], row[12], row[13], row[14]]);
const cell = (row: string[], index: number) => row[index] ?? '';

describe('GET /api/admin/payouts.csv', () => {
  it('answers every line of every paid CDA, by paid_at, each CDA in line order, with exact dollars', async () => {
    const { res, rows } = await payouts();
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="payouts-2026-11-21.csv"');
    expect(res.body.endsWith('\r\n')).toBe(true);
    expect(lines(rows)).toEqual([
      [ids.octoberCda, 'brokerage', 'Acme Realty', '60000', '600.00'],
      [ids.octoberCda, 'agent', 'Alice Agent', '140000', '1400.00'],
      [ids.mainCda, 'referral', 'Referral Partners', '308641', '3086.41'],
      [ids.mainCda, 'brokerage', 'Acme Realty', '277777', '2777.77'],
      [ids.mainCda, 'agent', 'Alice Agent', '608644', '6086.44'],
      [ids.mainCda, 'fee', 'Acme Realty', '39505', '395.05'],
      [ids.hostileCda, 'referral', `'=HYPERLINK("http://evil.test","x")`, '1', '0.01'],
      [ids.hostileCda, 'brokerage', `'+Broker, "Inc"`, '0', '0.00'],
      [ids.hostileCda, 'agent', "'-Bob Broker", '4', '0.04'],
    ]);
    expect(rows[2]).toEqual([
      '2026-11-10T15:00:00.000Z',
      ids.mainCda,
      '2',
      ids.main,
      '12 Main Street',
      'Springfield',
      'CA',
      '90210',
      alice.id,
      'Alice Agent',
      'North',
      'referral',
      'Referral Partners',
      '308641',
      '3086.41',
    ]);
    // The lines of each CDA sum to its gross, in cents and in dollars.
    const sums = new Map<string, number>();
    for (const row of rows) sums.set(cell(row, 1), (sums.get(cell(row, 1)) ?? 0) + Number(row[13]));
    expect([...sums]).toEqual([
      [ids.octoberCda, 200_000],
      [ids.mainCda, 1_234_567],
      [ids.hostileCda, 5],
    ]);
  });

  it('quotes and prefixes hostile cells as the exports do, in the raw bytes', async () => {
    const { res } = await payouts('?from=2026-11-12&to=2026-11-12');
    expect(res.body).toContain(`,referral,"'=HYPERLINK(""http://evil.test"",""x"")",1,0.01\r\n`);
    expect(res.body).toContain(`,"'+Broker, ""Inc""",0,0.00\r\n`);
    expect(res.body).toContain(`"1 Quote ""Lane"", Unit 2"`);
  });

  it('takes the UTC days from and to, both inclusive, either alone', async () => {
    const cdas = async (query: string) => [...new Set((await payouts(query)).rows.map((row) => row[1]))];
    expect(await cdas('?from=2026-11-01&to=2026-11-12')).toEqual([ids.mainCda, ids.hostileCda]);
    expect(await cdas('?from=2026-10-31&to=2026-10-31')).toEqual([ids.octoberCda]);
    expect(await cdas('?from=2026-11-11')).toEqual([ids.hostileCda]);
    expect(await cdas('?to=2026-11-10')).toEqual([ids.octoberCda, ids.mainCda]);
  });

  it('answers the header row alone for a range without payments', async () => {
    const res = await call('GET', '/api/admin/payouts.csv?from=2026-11-13&to=2026-12-31', owner);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`${HEADER}\r\n`);
  });

  it("holds an office admin to its office's transactions, whatever office it asks for", async () => {
    const cdas = async (query: string, who: Actor) => [
      ...new Set((await payouts(query, who)).rows.map((row) => row[1])),
    ];
    expect(await cdas('', northAdmin)).toEqual([ids.octoberCda, ids.mainCda]);
    const south = await database.db.office.findFirstOrThrow({ where: { name: 'South' } });
    expect(await cdas(`?officeId=${south.id}`, northAdmin)).toEqual([ids.octoberCda, ids.mainCda]);
    expect(await cdas(`?officeId=${south.id}`, owner)).toEqual([ids.hostileCda]);
  });

  it('refuses agents (403), anonymous callers (401) and a bad range (400), before any CSV', async () => {
    const agent = await call('GET', '/api/admin/payouts.csv', alice);
    expect({ status: agent.statusCode, body: agent.json() }).toEqual({
      status: 403,
      body: { message: apiMessages.forbidden, code: 'FORBIDDEN', error: 'forbidden' },
    });
    expect(agent.headers['content-disposition']).toBeUndefined();
    expect((await call('GET', '/api/admin/payouts.csv')).statusCode).toBe(401);
    const reversed = await call('GET', '/api/admin/payouts.csv?from=2026-11-12&to=2026-11-01', owner);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().issues).toEqual([{ path: 'to', message: keyDateMessages.rangeReversed }]);
    const notADay = await call('GET', '/api/admin/payouts.csv?from=2026-02-30', owner);
    expect(notADay.statusCode).toBe(400);
    expect(notADay.json().issues).toEqual([{ path: 'from', message: keyDateMessages.dateInvalid }]);
  });
});
