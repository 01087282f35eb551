import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConditionalForm } from '../../shared/schemas/facts';
import type { AppDeps } from '../deps';
import { bearer } from '../test/api-calls';
import {
  accessTokenFor,
  attachTestFile,
  createOwner,
  createTemplate,
  createTransaction,
  createUser,
} from '../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { keptAndRecounted } from '../test/progress-recount';
import { applyTemplateRules } from './template-rules';

/**
 * A template's rule change reaches its open transactions, by the job its update enqueues: each
 * open transaction takes the new rules and its checklist follows; closed and deleted files keep
 * what they had; files are never lost; a rerun changes nothing.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
let agent: Actor;
let owner: Actor;

const LEAD: ConditionalForm = {
  label: 'Lead-Based Paint Disclosure',
  when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }],
};

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  agent = await createUser(database.db);
  owner = await createOwner(database.db);
});
afterAll(() => app.close());
// After the hook that makes deps: the engine starts with them.
const jobs = runTestJobs(database, () => deps);

async function templateWithOpenFiles(name: string, count: number) {
  const template = await createTemplate(database.db, { type: name, role: 'Buyer', documents: ['Contract'] });
  const transactions = [];
  for (let n = 0; n < count; n++)
    transactions.push(
      await createTransaction(database.db, {
        userId: agent.id,
        type: name,
        role: 'Buyer',
        templateId: template.id,
        yearBuilt: n % 2 === 0 ? 1960 : 1990,
        documents: ['Contract', 'Lead-Based Paint Disclosure'],
      }),
    );
  return { template, transactions };
}

const itemsOf = (transactionId: string) =>
  database.db.transactionForm.findMany({
    where: { transactionId },
    orderBy: { position: 'asc' },
    select: { id: true, label: true, required: true, requiredBecause: true, version: true },
  });

describe('a template rule change', () => {
  it('reaches open transactions through the job, never closed or deleted ones', async () => {
    const { template, transactions } = await templateWithOpenFiles('Rules via job', 4);
    const [oldOpen, newOpen, closed, deleted] = transactions;
    if (!oldOpen || !newOpen || !closed || !deleted) throw new Error('four transactions expected');
    await database.db.transaction.update({ where: { id: closed.id }, data: { closedAt: clock.now() } });
    await database.db.transaction.update({ where: { id: deleted.id }, data: { deletedAt: clock.now() } });
    // The 1990 house's plain Lead-Based Paint item has a file: the rule takes it over, it stays.
    const newLead = newOpen.forms[1];
    if (!newLead) throw new Error('the item exists');
    await attachTestFile(database.db, { id: newLead.id, transactionId: newOpen.id });

    const res = await app.inject({
      method: 'PUT',
      url: `/api/admin/forms/transactions/form/${template.id}`,
      headers: bearer(await accessTokenFor(owner, { now: clock.now() })),
      payload: { type: template.type, role: 'Buyer', forms: ['Contract'], conditionalForms: [LEAD] },
    });
    expect(res.statusCode, res.body).toBe(200);
    await jobs.drain();

    expect(await itemsOf(oldOpen.id)).toEqual([
      expect.objectContaining({ label: 'Contract', requiredBecause: null }),
      expect.objectContaining({ required: true, requiredBecause: 'Year built 1960 is before 1978' }),
    ]);
    expect(await itemsOf(newOpen.id)).toEqual([
      expect.objectContaining({ label: 'Contract' }),
      expect.objectContaining({ id: newLead.id, required: false, requiredBecause: null, version: 1 }),
    ]);
    for (const untouched of [closed, deleted]) {
      expect((await itemsOf(untouched.id)).map((item) => item.requiredBecause)).toEqual([null, null]);
      const row = await database.db.transaction.findUniqueOrThrow({
        where: { id: untouched.id },
        select: { checklistRules: true },
      });
      expect(row.checklistRules).toEqual([]);
    }
    for (const open of [oldOpen, newOpen]) {
      const { kept, recounted } = await keptAndRecounted(database.db, open.id);
      expect(kept).toEqual(recounted);
    }
    const events = await database.db.auditEvent.findMany({
      where: { action: 'transaction.checklist', transactionId: { in: transactions.map((t) => t.id) } },
      select: { transactionId: true, actorId: true, after: true },
    });
    const summaryOf = (id: string) => events.find((event) => event.transactionId === id)?.after;
    expect(events.map((event) => event.actorId)).toEqual([owner.id, owner.id]);
    // The rule took over the plain item: still required, now with its reason.
    expect(summaryOf(oldOpen.id)).toMatchObject({
      checklist: { reasonChanged: [LEAD.label], nowOptional: [] },
    });
    expect(summaryOf(newOpen.id)).toMatchObject({ checklist: { nowOptional: [LEAD.label], removed: [] } });
  });

  it('works in batches and a rerun changes nothing', async () => {
    const { template, transactions } = await templateWithOpenFiles('Rules in batches', 7);
    const hoa: ConditionalForm = { label: 'HOA Documents', when: [{ fact: 'hoa', op: 'eq', value: false }] };
    await database.db.transactionTemplate.update({
      where: { id: template.id },
      data: { conditionalDocuments: [LEAD, hoa] },
    });
    await database.db.transaction.updateMany({
      where: { id: { in: transactions.slice(0, 3).map((t) => t.id) } },
      data: { hoa: false },
    });
    const ctx = serviceContext(deps);
    const first = await applyTemplateRules(ctx, { templateId: template.id, actorId: owner.id }, 2);
    expect(first).toEqual({ transactions: 7, changed: 7 });
    for (const [n, t] of transactions.entries()) {
      const labels = (await itemsOf(t.id)).filter((item) => item.required).map((item) => item.label);
      expect(labels).toEqual([
        'Contract',
        ...(n % 2 === 0 ? [LEAD.label] : []),
        ...(n < 3 ? [hoa.label] : []),
      ]);
    }
    expect(await applyTemplateRules(ctx, { templateId: template.id, actorId: owner.id }, 2)).toEqual({
      transactions: 0,
      changed: 0,
    });
  });

  it('a change of plain items only enqueues nothing', async () => {
    const template = await createTemplate(database.db, {
      type: 'Plain only',
      role: 'Buyer',
      documents: ['A'],
    });
    const res = await app.inject({
      method: 'PUT',
      url: `/api/admin/forms/transactions/form/${template.id}`,
      headers: bearer(await accessTokenFor(owner, { now: clock.now() })),
      payload: { type: 'Plain only', role: 'Buyer', forms: ['A', 'B'] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await database.db.$queryRaw<Array<{ n: number }>>`
      SELECT count(*)::int AS n FROM graphile_worker._private_jobs
       WHERE key = ${`template-rules:${template.id}`}`;
    expect(row?.n).toBe(0);
  });
});
