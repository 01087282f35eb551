import { describe, expect, test } from 'vitest';
import { seed } from '../db/seed';
import { setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { DEMO_AGENTS, seedDemo } from './demo';
import { seedDemoCdas } from './demo-cdas';

const database = setupTestDatabase();
const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

describe("the demo's commissions", () => {
  test('every demo agent on a plan, settled files with a commission, and one CDA issued', async () => {
    await seed(
      database.db,
      { adminEmail: 'owner@example.com', adminPassword: 'owner-password-1', env: 'test' },
      quiet,
    );
    const clock = new TestClock();
    const deps = testDeps(database.db, { clock });
    expect(
      await seedDemo(database.db, deps.storage, { cost: 'test', now: clock.now(), transactions: 12 }, quiet),
    ).toBe(true);
    await seedDemoCdas(deps, quiet);

    const agents = await database.db.user.findMany({
      where: { email: { in: DEMO_AGENTS.map((agent) => agent.email) } },
      select: { commissionPlanId: true },
    });
    expect(agents.every((agent) => agent.commissionPlanId !== null)).toBe(true);
    const cdas = await database.db.cda.findMany();
    expect(cdas).toHaveLength(1);
    const [cda] = cdas;
    expect(cda?.status).toBe('issued');
    expect(cda?.overrideReason).toBeNull();
    const deal = await database.db.transaction.findUniqueOrThrow({ where: { id: cda?.transactionId ?? '' } });
    expect(['compliant', 'closed']).toContain(deal.complianceState);
    expect(await deps.storage.exists(cda?.pdfKey ?? '')).toBe(true);
  });
});
