import { beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { agentOnPlan, dealOf } from '../../test/cda-deals';
import { createAdmin } from '../../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import type { CallerContext } from '../context';
import { issueCda } from './cda-issue';

/**
 * Two CDAs of one agent issued at the same moment, on two of its transactions, with room under
 * the plan's yearly cap for one brokerage share only: whatever the interleaving, the agent's
 * lock makes the second see the first, so the brokerage never takes more than the cap.
 */

const database = setupTestDatabase();
let deps: AppDeps;
let admin: CallerContext;
const CAP = 100_000;
const ROUNDS = 6;

beforeAll(async () => {
  deps = testDeps(database.db, { clock: new TestClock() });
  const row = await createAdmin(database.db);
  admin = serviceContext(deps, { id: row.id, role: 'admin', isOwner: false, officeId: null });
});

describe('CDAs issued at once for one agent', () => {
  it('never take the brokerage past the cap together', async () => {
    for (let round = 0; round < ROUNDS; round += 1) {
      // 50% of 200,000 is 100,000 each: either alone would fill the cap.
      const agent = await agentOnPlan(database.db, { agentSplit: 50, capCents: CAP, transactionFeeCents: 0 });
      const deals = await Promise.all([
        dealOf(database.db, agent.id, { grossCents: 200_000 }),
        dealOf(database.db, agent.id, { grossCents: 200_000 }),
      ]);
      const cdas = await Promise.all(deals.map((deal) => issueCda(admin, { id: deal.id })));
      const brokerage = cdas.map(
        (cda) => cda.lines.find((line) => line.kind === 'brokerage')?.amountCents ?? 0,
      );
      expect(brokerage.reduce((sum, cents) => sum + cents, 0)).toBe(CAP);
      expect([...brokerage].sort((a, b) => a - b)).toEqual([0, CAP]);
      // The second counted the first: its year to date is the first's share.
      expect(cdas.map((cda) => cda.brokerageYearToDateCents).sort((a, b) => a - b)).toEqual([0, CAP]);
      for (const cda of cdas) {
        expect(cda.lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(200_000);
      }
    }
  });
});
