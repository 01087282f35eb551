import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commissionMessages } from '../../../shared/commission-messages';
import type { Cda } from '../../../shared/schemas/commission';
import { bearer } from '../../test/api-calls';
import { agentOnPlan, dealOf } from '../../test/cda-deals';
import { accessTokenFor, createAdmin } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';

/**
 * Recording a CDA's payment through POST /api/admin/transactions/{id}/cda/{cdaId}/paid: the
 * current version only, once, at a time between its issue and now; a paid CDA is final.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let app: FastifyInstance;
type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number; officeId?: string | null };
let admin: Actor;
let payer: Actor;
const plan = { agentSplit: 70, capCents: 100_000, transactionFeeCents: 5_000 };

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  admin = await createAdmin(database.db);
  payer = await createAdmin(database.db, { firstName: 'Pat', lastName: 'Payer' });
});
afterAll(() => app.close());

async function post(url: string, who: Actor, payload: object = {}) {
  return app.inject({
    method: 'POST',
    url,
    payload,
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}
const issue = async (id: string): Promise<Cda> => {
  const res = await post(`/api/admin/transactions/${id}/cda`, admin);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
};
const pay = (cda: Pick<Cda, '_id' | 'transactionId'>, body: object = {}, who: Actor = payer) =>
  post(`/api/admin/transactions/${cda.transactionId}/cda/${cda._id}/paid`, who, body);

async function issuedCda() {
  const agent = await agentOnPlan(database.db, plan);
  const deal = await dealOf(database.db, agent.id);
  return { agent, deal, cda: await issue(deal.id) };
}

describe("a CDA's payment", () => {
  it('is recorded now by default, with who paid it, audited; the agent hears of it', async () => {
    const { agent, deal, cda } = await issuedCda();
    clock.advance(5 * 60_000);
    const res = await pay(cda);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      _id: cda._id,
      status: 'paid',
      paidAt: clock.now().toISOString(),
      paidBy: { _id: payer.id, name: 'Pat Payer' },
      lines: cda.lines,
    });
    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { transactionId: deal.id, action: 'cda.paid' },
    });
    expect(audit).toMatchObject({ actorId: payer.id, entity: 'Cda', entityId: cda._id });
    expect(audit.after).toMatchObject({ status: 'paid', paidBy: { _id: payer.id } });
    const notices = await database.db.notification.findMany({
      where: { userId: agent.id, transactionId: deal.id },
      select: { message: true },
    });
    expect(notices.map((notice) => notice.message)).toContain(
      commissionMessages.cdaPaidNotice(`${deal.streetAddress}, ${deal.city}`, 1),
    );
  });

  it('takes a time given between the issue and now (a minute of clock skew allowed)', async () => {
    const { cda } = await issuedCda();
    clock.advance(60 * 60_000);
    const future = new Date(clock.now().getTime() + 2 * 60_000).toISOString();
    const early = new Date(new Date(cda.issuedAt).getTime() - 1).toISOString();
    for (const [paidAt, message] of [
      [future, commissionMessages.paidAtFuture],
      [early, commissionMessages.paidBeforeIssued],
    ] as const) {
      const res = await pay(cda, { paidAt });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ message, issues: [{ path: 'paidAt', message }] });
    }
    expect((await database.db.cda.findUniqueOrThrow({ where: { id: cda._id } })).status).toBe('issued');
    const skewed = new Date(clock.now().getTime() + 30_000);
    const res = await pay(cda, { paidAt: skewed.toISOString().replace('Z', '+00:00') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().paidAt).toBe(skewed.toISOString());
  });

  it('is recorded once (409), and a paid CDA is never replaced (409)', async () => {
    const { deal, cda } = await issuedCda();
    expect((await pay(cda)).statusCode).toBe(200);
    const again = await pay(cda, {}, admin);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(commissionMessages.cdaPaidAlready);
    const replace = await post(`/api/admin/transactions/${deal.id}/cda`, admin);
    expect(replace.statusCode).toBe(409);
    expect(replace.json().message).toBe(commissionMessages.cdaPaidCannotReplace);
    expect(await database.db.cda.count({ where: { transactionId: deal.id } })).toBe(1);
  });

  it('is refused for a superseded version (409) and for a CDA of another transaction (404)', async () => {
    const { deal, cda } = await issuedCda();
    clock.advance(1_000);
    const current = await issue(deal.id);
    const stale = await pay(cda);
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(commissionMessages.cdaSuperseded);

    const other = await issuedCda();
    const elsewhere = await pay({ _id: current._id, transactionId: other.deal.id });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe(commissionMessages.unknownCda);
    const unknown = await pay({ _id: '00000000-0000-4000-8000-000000000000', transactionId: deal.id });
    expect(unknown.statusCode).toBe(404);
    expect((await database.db.cda.findUniqueOrThrow({ where: { id: current._id } })).status).toBe('issued');
  });

  it('is sent to integrators as cda.paid after cda.issued: the CDA without its link, with its transaction', async () => {
    const endpoint = await database.db.webhookEndpoint.create({
      data: {
        url: 'https://books.example.com/hooks',
        events: ['cda.issued', 'cda.paid'],
        secretSealed: 'v1.test',
      },
    });
    try {
      const { deal, cda } = await issuedCda();
      const paid: Cda = (await pay(cda)).json();
      const events = await database.db.webhookEvent.findMany({
        where: { transactionId: deal.id },
        orderBy: { createdAt: 'asc' },
        select: { type: true, body: true },
      });
      expect(events.map((event) => event.type)).toEqual(['cda.issued', 'cda.paid']);
      const [issued, settled] = events.map((event) => JSON.parse(event.body).data);
      const { pdfUrl: _issuedLink, ...issuedData } = cda;
      const { pdfUrl: _paidLink, ...paidData } = paid;
      expect(issued).toEqual(issuedData);
      expect(settled).toEqual(paidData);
      expect(settled).toMatchObject({ transactionId: deal.id, status: 'paid' });
      expect(settled).not.toHaveProperty('pdfUrl');
    } finally {
      await database.db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
  });
});
