import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/api-calls';
import { accessTokenFor, attachTestFile, createAdmin, createOwner, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { keptAndRecounted } from '../../test/progress-recount';

/**
 * Checklists that follow the facts, through the REST paths on a real PostgreSQL: a template's
 * conditional items, the facts set at creation and later, items added and removed with their
 * reasons, files never lost, progress recounted in the same commit, closed files frozen.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
let agent: Actor;
let other: Actor;
let admin: Actor;
let owner: Actor;
const TYPE = `Facts ${randomUUID().slice(0, 8)}`;

type Item = {
  _id: string;
  label: string;
  required: boolean;
  requiredBecause: string | null;
  version: number;
};
type Answer = {
  _id: string;
  facts: Record<string, unknown>;
  forms: Item[];
  progress: { required: number; missing: number };
};

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await createUser(database.db, { firstName: 'Fay', lastName: 'Facts' });
  other = await createUser(database.db, { firstName: 'Otto', lastName: 'Other' });
  admin = await createAdmin(database.db, { firstName: 'Cora', lastName: 'Compliance' });
  owner = await createOwner(database.db);
  const res = await call('POST', '/api/admin/forms/transactions/insert', owner, {
    type: TYPE,
    role: 'Buyer',
    forms: ['Purchase Agreement'],
    optionalForms: ['Home Warranty'],
    conditionalForms: [
      { label: 'Lead-Based Paint Disclosure', when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] },
      { label: 'HOA Documents', when: [{ fact: 'hoa', op: 'eq', value: true }] },
      {
        label: 'Jumbo Loan Addendum',
        when: [
          { fact: 'salePriceCents', op: 'gte', value: 100_000_000 },
          { fact: 'financing', op: 'in', value: ['conventional', 'va'] },
        ],
      },
    ],
  });
  expect(res.statusCode, res.body).toBe(201);
});
afterAll(() => app.close());

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}

const address = { streetAddress: '7 Elm Street', city: 'Springfield', state: 'IL', zip: '62701' };

async function open(facts?: Record<string, unknown>): Promise<Answer> {
  const res = await call('POST', '/api/transactions', agent, {
    ...address,
    type: TYPE,
    role: 'Buyer',
    facts,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function setFacts(id: string, facts: Record<string, unknown>, who: Actor = agent) {
  return who.role === 'admin'
    ? call('PUT', `/api/admin/transactions/${id}`, who, { ...address, facts })
    : call('PUT', `/api/transactions/${id}/${agent.id}`, who, { ...address, facts });
}

const labels = (answer: Answer) => answer.forms.map((form) => form.label);
const item = (answer: Answer, label: string) => answer.forms.find((form) => form.label === label);

async function expectCountersRight(id: string) {
  const { kept, recounted } = await keptAndRecounted(database.db, id);
  expect(kept).toEqual(recounted);
}

describe('facts at creation', () => {
  it('starts with the plain items, then the conditional ones the facts call for, each with its reason', async () => {
    const t = await open({ yearBuilt: 1965, hoa: false });
    expect(t.facts).toEqual({
      salePriceCents: null,
      yearBuilt: 1965,
      financing: null,
      propertyType: null,
      hoa: false,
    });
    expect(labels(t)).toEqual(['Purchase Agreement', 'Home Warranty', 'Lead-Based Paint Disclosure']);
    expect(item(t, 'Lead-Based Paint Disclosure')).toMatchObject({
      required: true,
      requiredBecause: 'Year built 1965 is before 1978',
    });
    expect(item(t, 'Purchase Agreement')?.requiredBecause).toBeNull();
    expect(t.progress).toMatchObject({ required: 2, missing: 2 });
    await expectCountersRight(t._id);
  });

  it('without facts, no conditional item: a condition on an unknown fact never holds', async () => {
    const t = await open();
    expect(labels(t)).toEqual(['Purchase Agreement', 'Home Warranty']);
    expect(Object.values(t.facts).every((value) => value === null)).toBe(true);
  });

  it('names every condition in the reason when several must hold', async () => {
    const t = await open({ salePriceCents: 125_000_000, financing: 'va' });
    expect(item(t, 'Jumbo Loan Addendum')?.requiredBecause).toBe(
      'Sale price $1,250,000.00 is $1,000,000.00 or more and financing VA is one of Conventional, VA',
    );
  });
});

describe('changing a fact', () => {
  it('adds and removes items in the same answer, and audits facts and checklist together', async () => {
    const t = await open({ yearBuilt: 1990 });
    expect(labels(t)).not.toContain('Lead-Based Paint Disclosure');
    const added = await setFacts(t._id, { yearBuilt: 1965, hoa: true });
    expect(added.statusCode, added.body).toBe(200);
    const after: Answer = added.json();
    expect(item(after, 'Lead-Based Paint Disclosure')?.requiredBecause).toBe(
      'Year built 1965 is before 1978',
    );
    expect(item(after, 'HOA Documents')?.requiredBecause).toBe('The property has an HOA');
    expect(after.progress).toMatchObject({ required: 3, missing: 3 });
    await expectCountersRight(t._id);

    const removed: Answer = (await setFacts(t._id, { hoa: null })).json();
    expect(labels(removed)).not.toContain('HOA Documents');
    expect(removed.facts).toMatchObject({ yearBuilt: 1965, hoa: null });
    expect(removed.progress).toMatchObject({ required: 2 });
    await expectCountersRight(t._id);

    const events = await database.db.auditEvent.findMany({
      where: { transactionId: t._id, action: 'transaction.update' },
      orderBy: { createdAt: 'asc' },
      select: { before: true, after: true },
    });
    expect(events[0]?.before).toMatchObject({ facts: { yearBuilt: 1990, hoa: null } });
    expect(events[0]?.after).toMatchObject({
      facts: { yearBuilt: 1965, hoa: true },
      checklist: { added: ['Lead-Based Paint Disclosure', 'HOA Documents'], removed: [] },
    });
    expect(events[1]?.after).toMatchObject({ checklist: { removed: ['HOA Documents'] } });
  });

  it('keeps an item that has a file, as optional with its versions, and requires it again later', async () => {
    const t = await open({ yearBuilt: 1965 });
    const lead = item(t, 'Lead-Based Paint Disclosure');
    if (!lead) throw new Error('the rule should have added the item');
    await attachTestFile(database.db, { id: lead._id, transactionId: t._id });
    const kept: Answer = (await setFacts(t._id, { yearBuilt: 1990 })).json();
    expect(item(kept, 'Lead-Based Paint Disclosure')).toMatchObject({
      _id: lead._id,
      required: false,
      requiredBecause: null,
      version: 1,
    });
    expect(await database.db.formVersion.count({ where: { formId: lead._id } })).toBe(1);
    expect(kept.progress).toMatchObject({ required: 1 });
    await expectCountersRight(t._id);

    const again: Answer = (await setFacts(t._id, { yearBuilt: 1950 })).json();
    expect(again.forms.filter((form) => form.label === 'Lead-Based Paint Disclosure')).toEqual([
      expect.objectContaining({
        _id: lead._id,
        required: true,
        requiredBecause: 'Year built 1950 is before 1978',
      }),
    ]);
    await expectCountersRight(t._id);
  });

  it('keeps an item someone commented on', async () => {
    const t = await open({ hoa: true });
    const hoa = item(t, 'HOA Documents');
    if (!hoa) throw new Error('the rule should have added the item');
    const commented = await call('POST', `/api/transactions/${t._id}/forms/${hoa._id}/comments`, agent, {
      text: 'The HOA sends these next week',
    });
    expect(commented.statusCode, commented.body).toBe(201);
    const after: Answer = (await setFacts(t._id, { hoa: false })).json();
    expect(item(after, 'HOA Documents')).toMatchObject({ required: false });
  });

  it('the same facts again change nothing and audit no checklist change', async () => {
    const t = await open({ yearBuilt: 1965 });
    const same: Answer = (await setFacts(t._id, { yearBuilt: 1965 })).json();
    expect(same.forms.map((form) => form._id)).toEqual(t.forms.map((form) => form._id));
    const [event] = await database.db.auditEvent.findMany({
      where: { transactionId: t._id, action: 'transaction.update' },
      select: { after: true },
    });
    expect(event?.after).toMatchObject({ checklist: null });
  });

  it('admins change facts through their own path; the agent hears of the checklist change', async () => {
    const t = await open();
    const res = await setFacts(t._id, { financing: 'conventional', salePriceCents: 150_000_000 }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(labels(res.json())).toContain('Jumbo Loan Addendum');
    const notes = await database.db.notification.findMany({
      where: { userId: agent.id, transactionId: t._id },
      select: { message: true },
    });
    expect(notes.map((note) => note.message)).toContainEqual(
      expect.stringContaining('now requires Jumbo Loan Addendum'),
    );
  });

  it('refuses bad facts with a message naming the fact, and changes nothing', async () => {
    const t = await open({ yearBuilt: 1965 });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ yearBuilt: 'old' }, 'Year built (yearBuilt)'],
      [{ yearBuilt: 1500 }, 'Year built (yearBuilt)'],
      [{ salePriceCents: 12.5 }, 'Sale price (salePriceCents)'],
      [{ salePriceCents: -1 }, 'Sale price (salePriceCents)'],
      [{ financing: 'crypto' }, 'Financing (financing)'],
      [{ propertyType: 'castle' }, 'Property type (propertyType)'],
      [{ hoa: 'yes' }, 'HOA (hoa)'],
      [{ pool: true }, 'Unknown fact "pool"'],
    ];
    for (const [facts, named] of cases) {
      const res = await setFacts(t._id, facts);
      expect(res.statusCode, JSON.stringify(facts)).toBe(400);
      expect(res.json().message).toContain(named);
    }
    const res = await call('POST', '/api/transactions', agent, {
      ...address,
      type: TYPE,
      role: 'Buyer',
      facts: { yearBuilt: 'old' },
    });
    expect(res.statusCode).toBe(400);
    const now = await database.db.transaction.findUniqueOrThrow({
      where: { id: t._id },
      select: { yearBuilt: true, _count: { select: { forms: true } } },
    });
    expect(now).toEqual({ yearBuilt: 1965, _count: { forms: 3 } });
  });

  it('a closed file keeps its facts until an admin reopens it', async () => {
    const t = await open();
    await database.db.transaction.update({ where: { id: t._id }, data: { closedAt: clock.now() } });
    const refused = await setFacts(t._id, { yearBuilt: 1900 }, admin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This transaction is closed: reopen it to change its facts');
    // The checkboxes of a closed file still change, as before.
    const boxes = await call('PUT', `/api/admin/transactions/${t._id}`, admin, {
      ...address,
      isTitleReport: true,
    });
    expect(boxes.statusCode, boxes.body).toBe(200);
  });

  it("refuses another agent's transaction", async () => {
    const t = await open();
    const res = await call('PUT', `/api/transactions/${t._id}/${other.id}`, other, {
      ...address,
      facts: { yearBuilt: 1900 },
    });
    expect([403, 404]).toContain(res.statusCode);
    const row = await database.db.transaction.findUniqueOrThrow({
      where: { id: t._id },
      select: { yearBuilt: true },
    });
    expect(row.yearBuilt).toBeNull();
  });
});

describe('two fact changes at once', () => {
  it('both land: each reads the facts after the lock, and the checklist is what the merged facts say', async () => {
    for (let round = 0; round < 6; round++) {
      const t = await open();
      const [a, b] = await Promise.all([
        setFacts(t._id, { yearBuilt: 1965 }),
        setFacts(t._id, { hoa: true }),
      ]);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      const final = await call('GET', `/api/transactions/individual/${t._id}/${agent.id}`, agent);
      const answer: Answer = final.json();
      expect(answer.facts).toMatchObject({ yearBuilt: 1965, hoa: true });
      expect(labels(answer).sort()).toEqual(
        ['HOA Documents', 'Home Warranty', 'Lead-Based Paint Disclosure', 'Purchase Agreement'].sort(),
      );
      await expectCountersRight(t._id);
    }
  });
});

describe('template rules', () => {
  it('refuses a rule on an unknown fact or a value of the wrong type, naming it', async () => {
    const base = { type: `${TYPE} bad`, role: 'Seller', forms: ['A'] };
    const cases: Array<[unknown, string]> = [
      [{ label: 'Pool Addendum', when: [{ fact: 'pool', op: 'eq', value: true }] }, 'Unknown fact "pool"'],
      [{ label: 'X', when: [{ fact: 'yearBuilt', op: 'lt', value: 'old' }] }, 'Year built (yearBuilt)'],
      [{ label: 'X', when: [{ fact: 'financing', op: 'eq', value: 'crypto' }] }, 'Financing (financing)'],
      [
        { label: 'X', when: [{ fact: 'financing', op: 'lt', value: 'fha' }] },
        'Financing (financing) is compared with',
      ],
      [{ label: 'X', when: [{ fact: 'hoa', op: 'eq', value: 'yes' }] }, 'HOA (hoa)'],
      [{ label: 'X', when: [{ fact: 'yearBuilt', op: 'in', value: [] }] }, '"in" takes a list'],
      [{ label: 'X', when: [] }, 'at least one condition'],
      [{ label: 'A', when: [{ fact: 'hoa', op: 'eq', value: true }] }, '"A" is already on this template'],
    ];
    for (const [rule, named] of cases) {
      const res = await call('POST', '/api/admin/forms/transactions/insert', owner, {
        ...base,
        conditionalForms: [rule],
      });
      expect(res.statusCode, JSON.stringify(rule)).toBe(400);
      expect(res.json().message).toContain(named);
    }
    expect(await database.db.transactionTemplate.count({ where: { type: `${TYPE} bad` } })).toBe(0);
  });
});
