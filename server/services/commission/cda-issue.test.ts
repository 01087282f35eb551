import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionMessages } from '../../../shared/commission-messages';
import { complianceMessages } from '../../../shared/messages';
import type { Cda } from '../../../shared/schemas/commission';
import { firstPagesText } from '../../documents/text';
import { bearer } from '../../test/api-calls';
import { agentOnPlan, dealOf } from '../../test/cda-deals';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';

/**
 * Issuing a CDA through POST /api/admin/transactions/{id}/cda on a real PostgreSQL: the split of
 * the agent's plan under its yearly cap, the compliance rule and its override, the PDF stored and
 * signed like any file, every version kept. Payments and races have files of their own.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number; officeId?: string | null };
let admin: Actor;
let northAdmin: Actor;
let southAdmin: Actor;
let northOfficeId: string;
const workedPlan = { agentSplit: 70, capCents: 100_000, transactionFeeCents: 5_000 };

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  const north = await database.db.office.create({ data: { name: 'CDA North' } });
  const south = await database.db.office.create({ data: { name: 'CDA South' } });
  northOfficeId = north.id;
  admin = await createAdmin(database.db, { firstName: 'Avery', lastName: 'Admin' });
  northAdmin = await createAdmin(database.db, { office: { connect: { id: north.id } } });
  southAdmin = await createAdmin(database.db, { office: { connect: { id: south.id } } });
});
afterAll(() => app.close());

async function call(method: 'GET' | 'POST', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}
const issue = (id: string, who: Actor = admin, body: object = {}) =>
  call('POST', `/api/admin/transactions/${id}/cda`, who, body);
const listOf = async (id: string, who: Actor = admin): Promise<Cda[]> =>
  (await call('GET', `/api/transactions/${id}/cda`, who)).json();
const linesOf = (cda: Cda) => cda.lines.map((line) => [line.kind, line.amountCents]);

async function download(url: string): Promise<Buffer> {
  const link = new URL(url, 'http://localhost');
  const res = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}
const pdfText = async (cda: Cda) => (await firstPagesText(await download(cda.pdfUrl))).join('\n');

describe('issuing a CDA', () => {
  it('splits the worked example under the cap, prints and stores its PDF, audits it', async () => {
    const agent = await agentOnPlan(database.db, workedPlan, { officeId: northOfficeId });
    const deal = await dealOf(database.db, agent.id, { grossCents: 1_000_000 });
    const res = await issue(deal.id);
    expect(res.statusCode, res.body).toBe(201);
    const cda: Cda = res.json();
    expect(cda).toMatchObject({
      transactionId: deal.id,
      version: 1,
      status: 'issued',
      grossCents: 1_000_000,
      override: null,
      paidAt: null,
      supersededAt: null,
      brokerageYearToDateCents: 0,
      issuedBy: { _id: admin.id, name: 'Avery Admin' },
      plan: { agentSplit: 70, capCents: 100_000, transactionFeeCents: 5_000 },
    });
    expect(cda.lines).toEqual([
      { kind: 'brokerage', payee: 'Harbor Realty', amountCents: 100_000 },
      { kind: 'agent', payee: `${agent.firstName} ${agent.lastName}`, amountCents: 895_000 },
      { kind: 'fee', payee: 'Harbor Realty', amountCents: 5_000 },
    ]);
    expect(cda.lines.reduce((sum, line) => sum + line.amountCents, 0)).toBe(cda.grossCents);

    const bytes = await download(cda.pdfUrl);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(cda.sha256);
    // Recorded like any stored file of the transaction.
    const stored = await database.db.storedFile.findFirstOrThrow({ where: { transactionId: deal.id } });
    expect(stored).toMatchObject({ sha256: cda.sha256, size: bytes.length, contentType: 'application/pdf' });
    const text = (await firstPagesText(bytes)).join('\n');
    for (const words of [
      'Commission Disbursement Authorization',
      'Harbor Realty',
      'CDA North',
      `${agent.firstName} ${agent.lastName}`,
      deal.streetAddress,
      'Buyer (Purchase)',
      '$8,950.00',
      '$1,000.00',
      '$50.00',
      '$10,000.00',
      'Avery Admin',
    ]) {
      expect(text).toContain(words);
    }
    expect(text).not.toContain('Supersedes');

    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { transactionId: deal.id, action: 'cda.issued' },
    });
    expect(audit).toMatchObject({ actorId: admin.id, entity: 'Cda', entityId: cda._id });
    const notice = await database.db.notification.findFirst({
      where: { userId: agent.id, transactionId: deal.id },
    });
    expect(notice?.message).toBe(
      commissionMessages.cdaIssuedNotice(`${deal.streetAddress}, ${deal.city}`, 1),
    );
  });

  it('pays the referral first, named as the commission names it', async () => {
    const agent = await agentOnPlan(database.db, { agentSplit: 80, capCents: null, transactionFeeCents: 0 });
    const deal = await dealOf(database.db, agent.id, {
      grossCents: 1_001_000,
      referral: { name: 'Harbor Referrals LLC', thousandths: 25_500 },
    });
    const res = await issue(deal.id);
    expect(res.statusCode, res.body).toBe(201);
    const cda: Cda = res.json();
    // 1,001,000 x 25.5% = 255,255; net 745,745; agent 80% = 596,596; brokerage 149,149.
    expect(cda.lines).toEqual([
      { kind: 'referral', payee: 'Harbor Referrals LLC', amountCents: 255_255 },
      { kind: 'brokerage', payee: 'Harbor Realty', amountCents: 149_149 },
      { kind: 'agent', payee: `${agent.firstName} ${agent.lastName}`, amountCents: 596_596 },
    ]);
    expect(await pdfText(cda)).toContain('$2,552.55');
  });

  it('is refused for a file that is not compliant, listing exactly the open items (REST and tRPC)', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const deal = await dealOf(database.db, agent.id, { open: [0, 2] });
    const missing = [0, 2].map((position) => ({
      formId: deal.forms[position]?.id,
      label: deal.forms[position]?.label,
    }));
    const rest = await issue(deal.id);
    expect(rest.statusCode).toBe(409);
    expect(rest.json()).toEqual({
      message: complianceMessages.notCompliant(2),
      code: 'CONFLICT',
      error: 'not-compliant',
      missing,
    });
    const trpc = await app.inject({
      method: 'POST',
      url: '/trpc/commission.issueCda',
      payload: { id: deal.id },
      headers: bearer(await accessTokenFor(admin, { now: clock.now() })),
    });
    expect(trpc.statusCode).toBe(409);
    expect(trpc.json().error.message).toBe(complianceMessages.notCompliant(2));
    expect(trpc.json().error.data).toMatchObject({ appCode: 'CONFLICT', missing });
    expect(await database.db.cda.count({ where: { transactionId: deal.id } })).toBe(0);
  });

  it('is issued by override of a brokerage-wide admin, with the reason kept, audited and printed', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const deal = await dealOf(database.db, agent.id, { open: [1] });
    const reason = 'Title confirmed the disclosure is on its way';
    const res = await issue(deal.id, admin, { override: { reason: `  ${reason} ` } });
    expect(res.statusCode, res.body).toBe(201);
    const cda: Cda = res.json();
    expect(cda.override).toEqual({ reason });
    const row = await database.db.cda.findUniqueOrThrow({ where: { id: cda._id } });
    expect(row.overrideReason).toBe(reason);
    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { transactionId: deal.id, action: 'cda.issued' },
    });
    expect(audit.after).toMatchObject({ override: { reason } });
    const text = await pdfText(cda);
    expect(text).toContain('override');
    expect(text).toContain(reason);
  });

  it('stores no override for a compliant file, whatever was given', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const deal = await dealOf(database.db, agent.id);
    const res = await issue(deal.id, admin, { override: { reason: 'Just in case' } });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().override).toBeNull();
    expect(await pdfText(res.json())).not.toContain('Just in case');
  });

  it("refuses an office admin's override (403) and writes nothing; its own office's file it issues", async () => {
    const agent = await agentOnPlan(database.db, workedPlan, { officeId: northOfficeId });
    const open = await dealOf(database.db, agent.id, { open: [0] });
    const res = await issue(open.id, northAdmin, { override: { reason: 'Please' } });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(commissionMessages.overrideBrokerageWide);
    expect(await database.db.cda.count({ where: { transactionId: open.id } })).toBe(0);
    expect(
      await database.db.auditEvent.count({ where: { transactionId: open.id, action: 'cda.issued' } }),
    ).toBe(0);

    const compliant = await dealOf(database.db, agent.id);
    expect((await issue(compliant.id, southAdmin)).statusCode).toBe(404);
    expect((await issue(compliant.id, northAdmin)).statusCode).toBe(201);
  });

  it('needs a commission with a gross and a plan for the agent (409)', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const none = await createTransaction(database.db, { userId: agent.id, documents: [] });
    const rateWithoutPrice = await createTransaction(database.db, {
      userId: agent.id,
      documents: [],
      commissionRateThousandths: 2_500,
    });
    for (const id of [none.id, rateWithoutPrice.id]) {
      const res = await issue(id);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(commissionMessages.needsCommission);
    }
    const planless = await createUser(database.db);
    const deal = await dealOf(database.db, planless.id);
    const res = await issue(deal.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(commissionMessages.needsPlan);
  });

  it('supersedes the current version, whose share leaves the year; another file counts it', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const deal = await dealOf(database.db, agent.id);
    const first: Cda = (await issue(deal.id)).json();
    clock.advance(60_000);
    const second = await issue(deal.id);
    expect(second.statusCode, second.body).toBe(201);
    const replaced: Cda = second.json();
    // The first CDA's 100,000 is not counted against the cap of the version replacing it.
    expect(replaced).toMatchObject({ version: 2, brokerageYearToDateCents: 0 });
    expect(linesOf(replaced)).toEqual(linesOf(first));
    expect(await pdfText(replaced)).toContain('Supersedes version 1');

    const listed = await listOf(deal.id);
    expect(listed.map((cda) => [cda.version, cda.status])).toEqual([
      [2, 'issued'],
      [1, 'superseded'],
    ]);
    expect(listed[1]?.supersededAt).toBe(replaced.issuedAt);

    const other = await dealOf(database.db, agent.id);
    const capped: Cda = (await issue(other.id)).json();
    expect(capped.brokerageYearToDateCents).toBe(100_000);
    expect(linesOf(capped)).toEqual([
      ['brokerage', 0],
      ['agent', 995_000],
      ['fee', 5_000],
    ]);
  });

  it('counts only CDAs issued since 1 January (UTC)', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const lastYear = await dealOf(database.db, agent.id);
    const thisYear = await dealOf(database.db, agent.id);
    const lateClock = new TestClock(new Date('2026-12-31T23:30:00.000Z'));
    const lateApp = buildTestApp(testDeps(database.db, { clock: lateClock }));
    try {
      const post = async (id: string) =>
        lateApp.inject({
          method: 'POST',
          url: `/api/admin/transactions/${id}/cda`,
          payload: {},
          headers: bearer(await accessTokenFor(admin, { now: lateClock.now() })),
        });
      // December's CDA takes the whole cap of 2026...
      expect(linesOf((await post(lastYear.id)).json())[0]).toEqual(['brokerage', 100_000]);
      lateClock.advance(60 * 60_000);
      // ...and none of 2027's.
      const fresh = await post(thisYear.id);
      expect(fresh.json()).toMatchObject({ brokerageYearToDateCents: 0 });
      expect(linesOf(fresh.json())[0]).toEqual(['brokerage', 100_000]);
    } finally {
      await lateApp.close();
    }
  });

  it('is listed to whoever sees the transaction: its agent and coordinator; another agent finds nothing', async () => {
    const agent = await agentOnPlan(database.db, workedPlan);
    const coordinator = await createUser(database.db);
    await database.db.coordination.create({ data: { coordinatorId: coordinator.id, agentId: agent.id } });
    const stranger = await createUser(database.db);
    const deal = await dealOf(database.db, agent.id);
    const cda: Cda = (await issue(deal.id)).json();
    for (const who of [agent, coordinator]) {
      const res = await call('GET', `/api/transactions/${deal.id}/cda`, who as Actor);
      expect(res.statusCode, res.body).toBe(200);
      expect((res.json() as Cda[]).map((one) => one._id)).toEqual([cda._id]);
    }
    expect((await call('GET', `/api/transactions/${deal.id}/cda`, stranger as Actor)).statusCode).toBe(404);
    expect(
      (await call('POST', `/api/admin/transactions/${deal.id}/cda`, agent as Actor, {})).statusCode,
    ).toBe(403);
  });
});
