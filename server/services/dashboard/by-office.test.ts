import { beforeAll, describe, expect, it } from 'vitest';
import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import type { AppDeps } from '../../deps';
import { attachTestFile, createAdmin, createTransaction, createUser } from '../../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import type { Caller } from '../context';
import { deskSummaryOf } from './desk';
import { dashboardFigures } from './index';

/**
 * The dashboard and the admin's desk summary by office, on a small history whose figures are
 * worked out by hand: every figure of an office admin is its office's, a brokerage-wide admin's
 * the whole brokerage's or one office's (`officeId`), and `offices` breaks the queue, its overdue
 * items and the median turnaround down by office, an office's decisions being those on the files
 * of the agents now in it.
 *
 * Now is 2026-11-21T12:00:00Z; every decision is made on 2026-11-20, inside the default range.
 */

const database = setupTestDatabase();
const NOW = new Date('2026-11-21T12:00:00.000Z');
const clock = new TestClock(NOW);
let deps: AppDeps;

const RUN = Date.now().toString(36);
const HOUR = 3_600_000;
const DECIDED = new Date('2026-11-20T10:00:00.000Z');

type Office = { id: string; name: string };
let north: Office;
let south: Office;
let northAdmin: Caller;
let wideAdmin: Caller;
let agents: Record<'north' | 'south' | 'none', { id: string; firstName: string; lastName: string }>;
const atRiskFiles: Record<string, string> = {};

const asCaller = (user: { id: string; role: 'user' | 'admin'; officeId: string | null }): Caller => ({
  id: user.id,
  role: user.role,
  isOwner: false,
  officeId: user.officeId,
});

/** Decided versions of one item of a new file of `agentId`: one per turnaround, in seconds. */
async function decisions(agentId: string, turnarounds: number[], rejectFirst = false) {
  const file = await createTransaction(database.db, { userId: agentId, documents: [`Item ${RUN}`] });
  const form = file.forms[0];
  if (!form) throw new Error('no item');
  for (const [index, seconds] of turnarounds.entries()) {
    const rejected = rejectFirst && index === 0;
    await database.db.formVersion.create({
      data: {
        formId: form.id,
        number: index + 1,
        fileKey: `transactions/${file.id}/v${index + 1}.pdf`,
        size: 100,
        contentType: 'application/pdf',
        uploadedAt: new Date(DECIDED.getTime() - seconds * 1000),
        decidedAt: DECIDED,
        decidedById: wideAdmin.id,
        decisionStatus: rejected ? 'rejected' : 'accepted',
        decisionReasons: rejected ? [{ code: `late-${RUN}`, label: 'Late' }] : [],
      },
    });
  }
}

/** A file of `agentId` with one item waiting since `hoursAgo` and a closing in two days. */
async function waiting(agentId: string, hoursAgo: number) {
  const file = await createTransaction(database.db, {
    userId: agentId,
    documents: ['Contract', 'Disclosure'],
  });
  const form = file.forms[0];
  if (!form) throw new Error('no item');
  await attachTestFile(database.db, form, { at: new Date(NOW.getTime() - hoursAgo * HOUR) });
  await database.db.keyDate.create({
    data: {
      transactionId: file.id,
      kind: 'closing',
      label: 'Closing',
      date: new Date('2026-11-23'),
      position: 0,
    },
  });
  atRiskFiles[file.id] = agentId;
  return file.id;
}

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  const db = database.db;
  north = await db.office.create({ data: { name: `North ${RUN}`, reviewTargetHours: 2 } });
  south = await db.office.create({ data: { name: `South ${RUN}`, reviewTargetHours: 48 } });
  northAdmin = asCaller(await createAdmin(db, { office: { connect: { id: north.id } } }));
  wideAdmin = asCaller(await createAdmin(db));
  agents = {
    north: await createUser(db, { office: { connect: { id: north.id } } }),
    south: await createUser(db, { office: { connect: { id: south.id } } }),
    none: await createUser(db),
  };
  // North: 60, 120 and 600 s, the first rejected (median 120). South: 3,600 and 7,200 s (median
  // 5,400). No office: 30 s.
  await decisions(agents.north.id, [60, 120, 600], true);
  await decisions(agents.south.id, [3_600, 7_200]);
  await decisions(agents.none.id, [30]);
  // The queue: North's items wait 3 h (past its 2 h) and 1 h; South's 3 h (within its 48 h).
  await waiting(agents.north.id, 3);
  await waiting(agents.north.id, 1);
  await waiting(agents.south.id, 3);
});

const figures = (caller: Caller, officeId?: string) =>
  dashboardFigures(serviceContext(deps, caller), officeId ? { officeId } : {});

const summary = (answer: DashboardAnswer) => ({
  queue: answer.queue.size,
  reviewed: answer.turnaround.reviewed,
  median: answer.turnaround.medianSeconds,
  byReviewer: answer.turnaround.byReviewer.map((row) => [row.user._id, row.reviewed, row.medianSeconds]),
  rate: answer.rejections.rate,
  byDocument: answer.rejections.byDocument.map((row) => [row.label, row.reviewed, row.rejected]),
  byAgent: answer.rejections.byAgent.map((row) => row.user._id),
  reasons: answer.rejections.topReasons.map((row) => row.code),
  atRisk: answer.atRisk.map((row) => row.transaction.user._id),
});

const office = (o: Office) => ({ _id: o.id, name: o.name });

describe('the dashboard by office', () => {
  it("gives an office admin its office's figures, whatever office it asks for", async () => {
    for (const officeId of [undefined, south.id]) {
      const answer = await figures(northAdmin, officeId);
      expect(summary(answer)).toEqual({
        queue: 2,
        reviewed: 3,
        median: 120,
        byReviewer: [[wideAdmin.id, 3, 120]],
        rate: 1 / 3,
        byDocument: [[`Item ${RUN}`, 3, 1]],
        byAgent: [agents.north.id],
        reasons: [`late-${RUN}`],
        atRisk: [agents.north.id, agents.north.id],
      });
      expect(answer.offices).toEqual([
        { office: office(north), queueSize: 2, overdue: 1, medianTurnaroundSeconds: 120, targetHours: 2 },
      ]);
    }
  });

  it('gives a brokerage-wide admin the whole brokerage, each office broken down, or one office', async () => {
    const all = await figures(wideAdmin);
    // Six decisions: 30, 60, 120, 600, 3,600, 7,200 s; the median is (120 + 600) / 2.
    expect(summary(all)).toMatchObject({
      queue: 3,
      reviewed: 6,
      median: 360,
      rate: 1 / 6,
      byDocument: [[`Item ${RUN}`, 6, 1]],
    });
    expect(all.rejections.byAgent.map((row) => row.user._id).sort()).toEqual(
      [agents.north.id, agents.south.id, agents.none.id].sort(),
    );
    expect(all.offices).toEqual([
      { office: office(north), queueSize: 2, overdue: 1, medianTurnaroundSeconds: 120, targetHours: 2 },
      { office: office(south), queueSize: 1, overdue: 0, medianTurnaroundSeconds: 5_400, targetHours: 48 },
    ]);
    const southOnly = await figures(wideAdmin, south.id);
    expect(summary(southOnly)).toEqual({
      queue: 1,
      reviewed: 2,
      median: 5_400,
      byReviewer: [[wideAdmin.id, 2, 5_400]],
      rate: 0,
      byDocument: [[`Item ${RUN}`, 2, 0]],
      byAgent: [agents.south.id],
      reasons: [],
      atRisk: [agents.south.id],
    });
    expect(southOnly.offices.map((row) => row.office)).toEqual([office(south)]);
  });

  it("counts an office's decisions over the agents now in it: an agent who moves takes them along", async () => {
    await database.db.user.update({ where: { id: agents.none.id }, data: { officeId: south.id } });
    try {
      const southOnly = await figures(wideAdmin, south.id);
      // 30, 3,600 and 7,200 s.
      expect(summary(southOnly)).toMatchObject({ reviewed: 3, median: 3_600 });
      expect(southOnly.offices).toEqual([
        { office: office(south), queueSize: 1, overdue: 0, medianTurnaroundSeconds: 3_600, targetHours: 48 },
      ]);
    } finally {
      await database.db.user.update({ where: { id: agents.none.id }, data: { officeId: null } });
    }
  });

  it("holds an office admin's desk summary on /home to its office", async () => {
    const desk = await deskSummaryOf(serviceContext(deps, northAdmin));
    expect(desk.queue).toEqual({ size: 2, oldestWaitingSeconds: 3 * 3_600 });
    expect(desk.atRisk.total).toBe(2);
    expect(desk.atRisk.items.map((row) => row.transaction.user._id)).toEqual([
      agents.north.id,
      agents.north.id,
    ]);
    const wide = await deskSummaryOf(serviceContext(deps, wideAdmin));
    expect(wide.queue.size).toBe(3);
    expect(wide.atRisk.total).toBe(3);
  });
});
