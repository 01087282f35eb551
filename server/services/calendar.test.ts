import type { FastifyInstance } from 'fastify';
import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, keyDateMessages } from '../../shared/messages';
import type { CalendarAnswer } from '../../shared/schemas/key-dates';
import { createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';

/**
 * The calendar: GET /api/calendar's shape, range and who sees what, and the
 * iCalendar feed behind POST /api/calendar/feed, read with a real parser (ical.js): all-day
 * VEVENTs with stable UIDs, following date changes, revoked by a new feed.
 */

const database = setupTestDatabase();
const APP_URL = 'https://portal.example.com';
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let app: FastifyInstance;
let alice: Actor;
let bob: Actor;
let admin: Actor;
const RUN = Date.now().toString(36);
let aliceDeal: { id: string; streetAddress: string };
let bobDeal: { id: string; streetAddress: string };

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock, config: testConfig({ appUrl: APP_URL }) }));
  alice = await createUser(database.db);
  bob = await createUser(database.db);
  admin = await createAdmin(database.db);
  aliceDeal = await createTransaction(database.db, { userId: alice.id, streetAddress: `12 Main St ${RUN}` });
  bobDeal = await createTransaction(database.db, { userId: bob.id, streetAddress: `34 Oak Ave ${RUN}` });
  await setDates(alice, aliceDeal.id, [
    { kind: 'inspection', date: '2026-12-01' },
    { kind: 'closing', date: '2026-12-31' },
    { kind: 'appraisal', date: '2026-11-30', done: true },
    { kind: 'possession', date: '2027-01-01' },
  ]);
  await setDates(bob, bobDeal.id, [{ kind: 'financing', date: '2026-12-15' }]);
});
afterAll(() => app?.close());

const { call, ok, refused } = restCalls(() => app, clock);
function setDates(who: Actor, id: string, dates: object[]) {
  return ok(200, 'PUT', `/api/transactions/${id}/dates`, who, { dates });
}
/**
 * An office of alice's, and its admin: made once, on the first test that needs them (the tests
 * before see no office at all).
 */
let office: Promise<{ id: string; admin: Actor }> | undefined;
const aliceOffice = () => {
  office ??= (async () => {
    const north = await database.db.office.create({ data: { name: `North ${RUN}` } });
    await database.db.user.update({ where: { id: alice.id }, data: { officeId: north.id } });
    return { id: north.id, admin: await createAdmin(database.db, { office: { connect: { id: north.id } } }) };
  })();
  return office;
};
const calendar = (who: Actor, query: string) => ok<CalendarAnswer>(200, 'GET', `/api/calendar?${query}`, who);
/** Only this file's events (the database is the file's own, but be exact about it). */
const mine = (answer: CalendarAnswer) => answer.events.filter((event) => event.streetAddress.endsWith(RUN));

describe('GET /api/calendar', () => {
  it("answers an agent's own dates in the range, both ends included, in date order", async () => {
    const answer = await calendar(alice, 'from=2026-12-01&to=2026-12-31');
    expect(answer).toStrictEqual({
      events: [
        {
          transactionId: aliceDeal.id,
          streetAddress: aliceDeal.streetAddress,
          kind: 'inspection',
          label: 'Inspection deadline',
          date: '2026-12-01',
          done: false,
        },
        {
          transactionId: aliceDeal.id,
          streetAddress: aliceDeal.streetAddress,
          kind: 'closing',
          label: 'Closing',
          date: '2026-12-31',
          done: false,
        },
      ],
    });
    const wider = await calendar(alice, 'from=2026-11-30&to=2027-01-01');
    expect(wider.events.map((event) => [event.kind, event.done])).toEqual([
      ['appraisal', true],
      ['inspection', false],
      ['closing', false],
      ['possession', false],
    ]);
    expect((await calendar(alice, 'from=2026-12-02&to=2026-12-30')).events).toEqual([]);
  });

  it('an agent naming another agent is 403; naming themselves is their own calendar', async () => {
    expect(
      (await call('GET', `/api/calendar?from=2026-12-01&to=2026-12-31&agentId=${bob.id}`, alice)).statusCode,
    ).toBe(403);
    const own = await calendar(alice, `from=2026-12-01&to=2026-12-31&agentId=${alice.id}`);
    expect(own.events.map((event) => event.transactionId)).toEqual([aliceDeal.id, aliceDeal.id]);
    expect((await calendar(bob, 'from=2026-12-01&to=2026-12-31')).events.map((event) => event.kind)).toEqual([
      'financing',
    ]);
    expect((await call('GET', '/api/calendar?from=2026-12-01&to=2026-12-31')).statusCode).toBe(401);
  });

  it("an admin sees everyone's, or one agent's with agentId", async () => {
    const all = mine(await calendar(admin, 'from=2026-12-01&to=2026-12-31'));
    expect(all.map((event) => [event.date, event.transactionId])).toEqual([
      ['2026-12-01', aliceDeal.id],
      ['2026-12-15', bobDeal.id],
      ['2026-12-31', aliceDeal.id],
    ]);
    const bobs = await calendar(admin, `from=2026-12-01&to=2026-12-31&agentId=${bob.id}`);
    expect(bobs.events.map((event) => event.transactionId)).toEqual([bobDeal.id]);
  });

  it("an office admin sees its office's only, and an agent of another office is not found", async () => {
    const north = await aliceOffice();
    const ofNorth = mine(await calendar(north.admin, 'from=2026-12-01&to=2026-12-31'));
    expect(ofNorth.map((event) => event.transactionId)).toEqual([aliceDeal.id, aliceDeal.id]);
    await refused(
      404,
      apiMessages.notFound,
      'GET',
      `/api/calendar?from=2026-12-01&to=2026-12-31&agentId=${bob.id}`,
      north.admin,
    );
    const alices = await calendar(north.admin, `from=2026-12-01&to=2026-12-31&agentId=${alice.id}`);
    expect(alices.events.map((event) => event.transactionId)).toEqual([aliceDeal.id, aliceDeal.id]);
    // A brokerage-wide admin narrows to one office with officeId.
    const filtered = mine(await calendar(admin, `from=2026-12-01&to=2026-12-31&officeId=${north.id}`));
    expect(filtered.map((event) => event.transactionId)).toEqual([aliceDeal.id, aliceDeal.id]);
  });

  it('leaves out deleted transactions', async () => {
    const gone = await createTransaction(database.db, {
      userId: alice.id,
      streetAddress: `9 Gone Ln ${RUN}`,
    });
    await setDates(alice, gone.id, [{ kind: 'closing', date: '2026-12-10' }]);
    expect((await calendar(alice, 'from=2026-12-10&to=2026-12-10')).events).toHaveLength(1);
    await database.db.transaction.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    expect((await calendar(alice, 'from=2026-12-10&to=2026-12-10')).events).toEqual([]);
    expect(mine(await calendar(admin, 'from=2026-12-10&to=2026-12-10'))).toEqual([]);
  });

  it('validates the range with its messages', async () => {
    const cases: [string, string][] = [
      ['from=2026-12-31&to=2026-12-01', keyDateMessages.rangeReversed],
      ['from=2026-01-01&to=2027-03-01', keyDateMessages.rangeTooLong(400)],
      ['from=2026-02-30&to=2026-03-01', keyDateMessages.dateInvalid],
      ['from=2026-12-01&to=tomorrow', keyDateMessages.dateInvalid],
      ['to=2026-12-01', keyDateMessages.dateInvalid],
    ];
    for (const [query, message] of cases) {
      await refused(400, message, 'GET', `/api/calendar?${query}`, alice);
    }
    // Exactly 400 days is allowed.
    expect((await call('GET', '/api/calendar?from=2026-01-01&to=2027-02-05', alice)).statusCode).toBe(200);
  });
});

describe('the iCalendar feed', () => {
  const feedPath = (url: string) => {
    const parsed = new URL(url);
    expect(parsed.origin).toBe(APP_URL);
    expect(parsed.pathname).toMatch(/^\/calendar\/[A-Za-z0-9_-]+\.ics$/);
    return parsed.pathname;
  };
  const newFeed = async (who: Actor) =>
    feedPath((await ok<{ url: string }>(200, 'POST', '/api/calendar/feed', who)).url);

  type FeedEvent = {
    uid: string;
    summary: string;
    description: string;
    sequence: number;
    start: string;
    end: string;
    allDay: boolean;
    url: string;
  };
  /** GET without any header, parsed by ical.js into its VEVENTs. */
  async function readFeed(path: string): Promise<FeedEvent[]> {
    const res = await app.inject({ method: 'GET', url: path });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/calendar/);
    const root = new ICAL.Component(ICAL.parse(res.body));
    expect(root.name).toBe('vcalendar');
    expect(root.getFirstPropertyValue('version')).toBe('2.0');
    expect(root.getFirstPropertyValue('prodid')).toBeTruthy();
    return root.getAllSubcomponents('vevent').map((component) => {
      const event = new ICAL.Event(component);
      return {
        uid: event.uid,
        summary: event.summary,
        description: event.description,
        sequence: event.sequence,
        start: event.startDate.toString(),
        end: event.endDate.toString(),
        allDay: event.startDate.isDate && event.endDate.isDate,
        url: String(component.getFirstPropertyValue('url')),
      };
    });
  }

  it("is a valid calendar of the agent's dates: all-day events with stable UIDs", async () => {
    const path = await newFeed(alice);
    const events = await readFeed(path);
    expect(events.map(({ summary, start, end, allDay }) => ({ summary, start, end, allDay }))).toEqual([
      {
        summary: `Done: Appraisal deadline: ${aliceDeal.streetAddress}`,
        start: '2026-11-30',
        end: '2026-12-01',
        allDay: true,
      },
      {
        summary: `Inspection deadline: ${aliceDeal.streetAddress}`,
        start: '2026-12-01',
        end: '2026-12-02',
        allDay: true,
      },
      {
        summary: `Closing: ${aliceDeal.streetAddress}`,
        start: '2026-12-31',
        end: '2027-01-01',
        allDay: true,
      },
      {
        summary: `Possession: ${aliceDeal.streetAddress}`,
        start: '2027-01-01',
        end: '2027-01-02',
        allDay: true,
      },
    ]);
    expect(new Set(events.map((event) => event.uid)).size).toBe(4);
    expect(events[0]?.url).toBe(`${APP_URL}/home/transactions/${aliceDeal.id}`);
    expect(events[0]?.description).toBe(
      `Appraisal deadline for ${aliceDeal.streetAddress}. ${APP_URL}/home/transactions/${aliceDeal.id}`,
    );
    // The same UIDs on every request (a calendar app matches its copies by them).
    expect((await readFeed(path)).map((event) => event.uid)).toEqual(events.map((event) => event.uid));
  });

  it('follows a date change under the same UID', async () => {
    const deal = await createTransaction(database.db, { userId: bob.id, streetAddress: `56 Pine Rd ${RUN}` });
    await setDates(bob, deal.id, [{ kind: 'inspection', date: '2026-12-03' }]);
    // An hour ago, so that the edit below is later by more than the second SEQUENCE counts.
    await database.db.keyDate.updateMany({
      where: { transactionId: deal.id },
      data: { updatedAt: new Date(Date.now() - 3_600_000) },
    });
    const path = await newFeed(bob);
    const before = (await readFeed(path)).find((event) => event.summary.includes('56 Pine Rd'));
    expect(before?.start).toBe('2026-12-03');
    await setDates(bob, deal.id, [{ kind: 'inspection', date: '2026-12-08' }]);
    const after = (await readFeed(path)).find((event) => event.summary.includes('56 Pine Rd'));
    expect(after?.start).toBe('2026-12-08');
    expect(after?.uid).toBe(before?.uid);
    // A subscriber replaces its copy only for a higher SEQUENCE.
    expect(after?.sequence).toBeGreaterThan(before?.sequence ?? Number.POSITIVE_INFINITY);
  });

  it('escapes and folds text so a parser reads it back exactly', async () => {
    const agent = await createUser(database.db);
    const street = `7 Rue de l'Église, Bât. B; apt\\3 — ${'Ünïcödé '.repeat(6)}${RUN}`;
    const deal = await createTransaction(database.db, { userId: agent.id, streetAddress: street });
    const label = `Walkthrough, keys; 🔑 ${'é'.repeat(60)}`;
    await setDates(agent, deal.id, [{ kind: 'custom', label, date: '2026-12-05' }]);
    const path = await newFeed(agent);
    const res = await app.inject({ method: 'GET', url: path });
    // RFC 5545 3.1: no line longer than 75 octets.
    for (const line of res.body.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const [event] = await readFeed(path);
    expect(event?.summary).toBe(`${label}: ${street}`);
  });

  it("an admin's feed holds every agent's dates, with admin links", async () => {
    const events = await readFeed(await newFeed(admin));
    const summaries = events.map((event) => event.summary);
    expect(summaries).toContain(`Inspection deadline: ${aliceDeal.streetAddress}`);
    expect(summaries).toContain(`Financing contingency: ${bobDeal.streetAddress}`);
    expect(events.find((event) => event.summary.includes(bobDeal.streetAddress))?.url).toBe(
      `${APP_URL}/adminTransactions/transactions/${bobDeal.id}`,
    );
  });

  it("an office admin's feed holds its office's dates only", async () => {
    const north = await aliceOffice();
    const summaries = (await readFeed(await newFeed(north.admin))).map((event) => event.summary);
    expect(summaries).toContain(`Inspection deadline: ${aliceDeal.streetAddress}`);
    expect(summaries.filter((summary) => summary.includes(bobDeal.streetAddress))).toEqual([]);
  });

  it('a new feed revokes the old one (404); unknown tokens are 404; anonymous POST is 401', async () => {
    const first = await newFeed(alice);
    expect((await app.inject({ method: 'GET', url: first })).statusCode).toBe(200);
    const second = await newFeed(alice);
    expect(second).not.toBe(first);
    expect((await app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    for (const url of ['/calendar/nope.ics', `${second.slice(0, -4)}`, `${second.slice(0, -5)}x.ics`]) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
    }
    expect((await call('POST', '/api/calendar/feed', undefined, {})).statusCode).toBe(401);
  });

  it('stops when the account is deactivated', async () => {
    const agent = await createUser(database.db);
    const path = await newFeed(agent);
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    await database.db.user.update({ where: { id: agent.id }, data: { isAdminApproved: false } });
    expect((await app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
  });
});
