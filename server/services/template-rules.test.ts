import { beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { createTemplate, createTransaction, createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';
import { applyTemplateRules, TEMPLATE_RULES_BATCH } from './template-rules';

/**
 * The job that copies a template's rules to its open transactions, batch after batch: every open
 * one is reached once whatever the number of batches, closed ones are left as they were, and a
 * second run finds nothing left to do.
 */

const database = setupTestDatabase();
let deps: AppDeps;

const RULE = { label: 'Lead-Based Paint Disclosure', when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }] };
/** More than two batches, the last one short. */
const OPEN = TEMPLATE_RULES_BATCH * 2 + 7;

beforeAll(() => {
  deps = testDeps(database.db);
});

describe('templates:apply-rules', () => {
  it('reaches every open transaction of the template across batches, and only those', async () => {
    const agent = await createUser(database.db);
    const template = await createTemplate(database.db, { conditionalDocuments: [RULE] });
    const other = await createTemplate(database.db);
    const open = [];
    for (let i = 0; i < OPEN; i++)
      open.push(
        await createTransaction(database.db, {
          userId: agent.id,
          templateId: template.id,
          yearBuilt: i % 2 === 0 ? 1950 : 2001,
          documents: ['Purchase Agreement'],
        }),
      );
    const closed = await createTransaction(database.db, {
      userId: agent.id,
      templateId: template.id,
      yearBuilt: 1950,
      closedAt: new Date(),
      documents: ['Purchase Agreement'],
    });
    const elsewhere = await createTransaction(database.db, {
      userId: agent.id,
      templateId: other.id,
      yearBuilt: 1950,
      documents: ['Purchase Agreement'],
    });

    const ctx = serviceContext(deps);
    const done = await applyTemplateRules(ctx, { templateId: template.id, actorId: null });
    expect(done).toEqual({ transactions: OPEN, changed: Math.ceil(OPEN / 2) });

    const rows = await database.db.transaction.findMany({
      where: { templateId: { in: [template.id, other.id] } },
      select: {
        id: true,
        checklistRules: true,
        forms: { select: { label: true }, orderBy: { position: 'asc' } },
      },
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    open.forEach((created, i) => {
      const row = byId.get(created.id);
      expect(row?.checklistRules).toEqual([RULE]);
      expect(row?.forms.map((form) => form.label)).toEqual(
        i % 2 === 0 ? ['Purchase Agreement', RULE.label] : ['Purchase Agreement'],
      );
    });
    for (const untouched of [closed, elsewhere]) {
      expect(byId.get(untouched.id)?.checklistRules).toEqual([]);
      expect(byId.get(untouched.id)?.forms.map((form) => form.label)).toEqual(['Purchase Agreement']);
    }

    // Every open transaction holds the rules now: a second run has nothing to copy.
    expect(await applyTemplateRules(ctx, { templateId: template.id, actorId: null })).toEqual({
      transactions: 0,
      changed: 0,
    });
  });
});
