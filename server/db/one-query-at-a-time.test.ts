import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AppDeps } from '../deps';
import { replaceKeyDates } from '../services/key-dates';
import { createTransaction } from '../services/transactions';
import { createTemplate, createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';

/**
 * No query is sent on a pg connection that is still busy with another: a transaction holds one
 * connection, and pg warns (once per process, then never again) when a query is queued behind a
 * running one, which pg 9 refuses outright. The listener is added as this file loads, before any
 * query: vitest runs each test file in a process of its own, so no earlier file can have used up
 * the warning, and anything this file sends is heard.
 */

const warnings: string[] = [];
const onWarning = (warning: Error) => {
  if (/already executing a query/.test(warning.message)) warnings.push(warning.stack ?? warning.message);
};
process.on('warning', onWarning);
afterAll(() => {
  process.off('warning', onWarning);
});

const database = setupTestDatabase();
let deps: AppDeps;
beforeAll(() => {
  deps = testDeps(database.db);
});

describe('one query at a time on a transaction', () => {
  test('creating a transaction (its checklist, key date, audit, notices and events read back) and replacing its key dates', async () => {
    const agent = await createUser(database.db);
    const template = await createTemplate(database.db, {
      documents: ['Purchase Agreement', 'Disclosure'],
      optionalDocuments: ['Inspection Report'],
      keyDateKinds: ['inspection'],
    });
    const ctx = serviceContext(deps, { id: agent.id, role: 'user', isOwner: false });
    const created = await createTransaction(ctx, {
      streetAddress: '12 Main St',
      city: 'Springfield',
      state: 'CA',
      zip: '90210',
      type: template.type,
      role: template.role,
      closingDate: '2027-03-01',
    });
    expect(created.forms).toHaveLength(3);
    const dates = await replaceKeyDates(ctx, {
      id: created._id,
      dates: [
        { kind: 'closing', date: '2027-03-01' },
        { kind: 'inspection', date: '2027-02-01' },
      ],
    });
    expect(dates.dates).toHaveLength(2);
    // Node delivers a warning on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  });
});
