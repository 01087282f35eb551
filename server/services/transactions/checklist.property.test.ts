import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allHold, requiredBecause } from '../../../shared/checklist-rules';
import {
  type Condition,
  type ConditionalForm,
  FINANCING,
  PROPERTY_TYPES,
  type TransactionFacts,
} from '../../../shared/schemas/facts';
import type { AppDeps } from '../../deps';
import { bearer } from '../../test/api-calls';
import {
  accessTokenFor,
  attachTestFile,
  createComment,
  createOwner,
  createTemplate,
  createUser,
} from '../../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { keptAndRecounted } from '../../test/progress-recount';
import { applyTemplateRules } from '../template-rules';

/**
 * The checklist as a property. fast-check draws a template's rules and a transaction's first facts,
 * then a sequence of what happens to it: facts changed (some set, some cleared), files attached,
 * comments written, and the template's rules replaced (applied by the job's service). After every
 * step, through the REST paths on a real PostgreSQL: each rule whose conditions hold has exactly
 * its item, required, with the sentence naming its facts; each rule that does not hold has no
 * required item, and only items with a file or a comment stay (optional); the plain item is
 * untouched; no item that ever had a file is gone; the progress counters equal a recount.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
let agent: Actor;
let owner: Actor;

const RUNS = 25;
const LABELS = ['Alpha Addendum', 'Beta Disclosure', 'Gamma Report', 'Lead-Based Paint Disclosure'];

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  agent = await createUser(database.db);
  owner = await createOwner(database.db);
});
afterAll(() => app.close());

const year = fc.integer({ min: 1900, max: 2030 });
const price = fc.integer({ min: 0, max: 300 }).map((k) => k * 1_000_000);
const condition: fc.Arbitrary<Condition> = fc.oneof(
  fc.record({
    fact: fc.constant('yearBuilt' as const),
    op: fc.constantFrom('eq', 'ne', 'lt', 'lte', 'gt', 'gte' as const),
    value: year,
  }),
  fc.record({
    fact: fc.constant('yearBuilt' as const),
    op: fc.constant('in' as const),
    value: fc.array(year, { minLength: 1, maxLength: 3 }),
  }),
  fc.record({
    fact: fc.constant('salePriceCents' as const),
    op: fc.constantFrom('lt', 'gte' as const),
    value: price,
  }),
  fc.record({
    fact: fc.constant('financing' as const),
    op: fc.constantFrom('eq', 'ne' as const),
    value: fc.constantFrom(...FINANCING),
  }),
  fc.record({
    fact: fc.constant('propertyType' as const),
    op: fc.constant('in' as const),
    value: fc.subarray([...PROPERTY_TYPES], { minLength: 1 }),
  }),
  fc.record({
    fact: fc.constant('hoa' as const),
    op: fc.constantFrom('eq', 'ne' as const),
    value: fc.boolean(),
  }),
);
const rules: fc.Arbitrary<ConditionalForm[]> = fc
  .subarray(LABELS)
  .chain((labels) =>
    fc.tuple(
      ...labels.map((label) =>
        fc.array(condition, { minLength: 1, maxLength: 2 }).map((when) => ({ label, when })),
      ),
    ),
  );
/** Any facts: each left out, cleared, or set. */
const factsChange = fc.record(
  {
    yearBuilt: fc.option(year),
    salePriceCents: fc.option(price),
    financing: fc.option(fc.constantFrom(...FINANCING)),
    propertyType: fc.option(fc.constantFrom(...PROPERTY_TYPES)),
    hoa: fc.option(fc.boolean()),
  },
  { requiredKeys: [] },
);
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('facts' as const), facts: factsChange }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('file' as const), item: fc.nat(6) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('comment' as const), item: fc.nat(6) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rules' as const), rules }) },
);

const address = { streetAddress: '1 Property Lane', city: 'Testville', state: 'CA', zip: '90000' };

async function call(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) {
  const res = await app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(agent, { now: clock.now() })),
  });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json();
}

const itemsOf = (transactionId: string) =>
  database.db.transactionForm.findMany({
    where: { transactionId },
    select: {
      id: true,
      label: true,
      required: true,
      requiredBecause: true,
      version: true,
      _count: { select: { comments: true } },
    },
    orderBy: { position: 'asc' },
  });

async function expectChecklistFollows(
  transactionId: string,
  facts: TransactionFacts,
  current: readonly ConditionalForm[],
  filed: ReadonlySet<string>,
) {
  const items = await itemsOf(transactionId);
  expect(items.filter((item) => item.label === 'Plain Contract')).toEqual([
    expect.objectContaining({ required: true, requiredBecause: null }),
  ]);
  const ids = new Set(items.map((item) => item.id));
  for (const id of filed) expect(ids.has(id), 'an item with a file is never removed').toBe(true);
  for (const label of LABELS) {
    const named = items.filter((item) => item.label === label);
    const rule = current.find((r) => r.label === label);
    if (rule && allHold(facts, rule.when)) {
      expect(named).toEqual([
        expect.objectContaining({ required: true, requiredBecause: requiredBecause(facts, rule.when) }),
      ]);
    } else {
      for (const item of named) {
        expect(item).toMatchObject({ required: false, requiredBecause: null });
        expect(item.version > 0 || item._count.comments > 0).toBe(true);
      }
    }
  }
  const { kept, recounted } = await keptAndRecounted(database.db, transactionId);
  expect(kept).toEqual(recounted);
}

describe('a checklist that follows its facts', () => {
  it('always equals what its rules say of its facts; files are never lost; progress equals a recount', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        rules,
        factsChange,
        fc.array(step, { maxLength: 6 }),
        async (first, initial, steps) => {
          const type = `Property ${n++}`;
          const template = await createTemplate(database.db, {
            type,
            role: 'Buyer',
            documents: ['Plain Contract'],
            conditionalDocuments: first,
          });
          const created = await call('POST', '/api/transactions', {
            ...address,
            type,
            role: 'Buyer',
            facts: initial,
          });
          const id: string = created._id;
          let facts: TransactionFacts = created.facts;
          let current = first;
          const filed = new Set<string>();
          await expectChecklistFollows(id, facts, current, filed);
          for (const action of steps) {
            const items = await itemsOf(id);
            const chosen = 'item' in action ? items[action.item % items.length] : undefined;
            if (action.kind === 'facts') {
              facts = (
                await call('PUT', `/api/transactions/${id}/${agent.id}`, { ...address, facts: action.facts })
              ).facts;
            } else if (action.kind === 'file' && chosen) {
              await attachTestFile(database.db, { id: chosen.id, transactionId: id });
              filed.add(chosen.id);
            } else if (action.kind === 'comment' && chosen) {
              await createComment(database.db, {
                formId: chosen.id,
                userId: agent.id,
                text: 'Noted',
                role: 'user',
              });
            } else if (action.kind === 'rules') {
              await database.db.transactionTemplate.update({
                where: { id: template.id },
                data: { conditionalDocuments: action.rules },
              });
              await applyTemplateRules(serviceContext(deps), { templateId: template.id, actorId: owner.id });
              current = action.rules;
            }
            await expectChecklistFollows(id, facts, current, filed);
          }
        },
      ),
      { numRuns: RUNS },
    );
  });
});
