import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { complianceMessages } from '../../../shared/messages';
import type { Transaction } from '../../../shared/schemas/transactions';
import { bearer } from '../../test/api-calls';
import { accessTokenFor, createOwner, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';

/**
 * A fact change through the update PUTs: the facts, the address and the checkboxes of one request
 * land together, the checklist follows the facts, and a closed file takes an address but refuses
 * a fact change whole.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;

type Actor = Parameters<typeof accessTokenFor>[0];
let agent: Actor;
let owner: Actor;

const TYPE = `Facts-${Date.now().toString(36)}`;
const RULE = 'Lead-Based Paint Disclosure';

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await createUser(database.db, { firstName: 'Fran', lastName: 'Facts' });
  owner = await createOwner(database.db, { firstName: 'Olga', lastName: 'Owner' });
  await ok(201, 'POST', '/api/admin/forms/transactions/insert', owner, {
    type: TYPE,
    role: 'Buyer',
    forms: ['Purchase Agreement'],
    conditionalForms: [{ label: RULE, when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] }],
  });
});
afterAll(() => app.close());

async function ok<T>(status: number, method: 'POST' | 'PUT', url: string, who: Actor, payload: object) {
  const res = await app.inject({
    method,
    url,
    payload,
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
  expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
  return res.json() as T;
}

const address = (street: string) => ({ streetAddress: street, city: 'Austin', state: 'TX', zip: '78701' });
const labels = (t: Transaction) => t.forms.map((form) => form.label);

async function open(street: string): Promise<Transaction> {
  return ok<Transaction>(201, 'POST', '/api/transactions', agent, {
    ...address(street),
    type: TYPE,
    role: 'Buyer',
  });
}

describe('a fact change over PUT', () => {
  it('writes the address and the checkboxes with the facts, and the checklist follows', async () => {
    const created = await open('1 Oak St');
    const changed = await ok<Transaction>(200, 'PUT', `/api/admin/transactions/${created._id}`, owner, {
      ...address('2 Elm St'),
      isTitleReport: true,
      facts: { yearBuilt: 1965 },
    });
    expect(changed.streetAddress).toBe('2 Elm St');
    expect(changed.isTitleReport).toBe(true);
    expect(changed.facts.yearBuilt).toBe(1965);
    expect(labels(changed)).toEqual(['Purchase Agreement', RULE]);

    const back = await ok<Transaction>(200, 'PUT', `/api/transactions/${created._id}/${agent.id}`, agent, {
      ...address('3 Ash St'),
      facts: { yearBuilt: 1990 },
    });
    expect(back.streetAddress).toBe('3 Ash St');
    expect(back.facts.yearBuilt).toBe(1990);
    expect(labels(back)).toEqual(['Purchase Agreement']);
  });

  it('writes the address when the facts given are the ones it has', async () => {
    const created = await open('4 Pine St');
    await ok(200, 'PUT', `/api/admin/transactions/${created._id}`, owner, {
      ...address('4 Pine St'),
      facts: { hoa: true },
    });
    const same = await ok<Transaction>(200, 'PUT', `/api/admin/transactions/${created._id}`, owner, {
      ...address('5 Birch St'),
      facts: { hoa: true },
    });
    expect(same.streetAddress).toBe('5 Birch St');
    expect(same.facts.hoa).toBe(true);
  });

  it('refuses a fact change on a closed file, address included, and takes the address alone', async () => {
    const created = await open('6 Cedar St');
    await database.db.transaction.update({ where: { id: created._id }, data: { closedAt: clock.now() } });
    const url = `/api/admin/transactions/${created._id}`;
    const res = await app.inject({
      method: 'PUT',
      url,
      payload: { ...address('7 Maple St'), facts: { yearBuilt: 1950 } },
      headers: bearer(await accessTokenFor(owner, { now: clock.now() })),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(complianceMessages.closedFacts);
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id: created._id } });
    expect([row.streetAddress, row.yearBuilt]).toEqual(['6 Cedar St', null]);

    const moved = await ok<Transaction>(200, 'PUT', url, owner, { ...address('8 Spruce St'), facts: {} });
    expect(moved.streetAddress).toBe('8 Spruce St');
    expect(labels(moved)).toEqual(['Purchase Agreement']);
  });
});
