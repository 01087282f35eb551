import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esignMessages } from '../../../shared/esign-messages';
import { complianceMessages } from '../../../shared/messages';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import type { FormVersion } from '../../../shared/schemas/transactions';
import type { AppDeps } from '../../deps';
import { attachPdf, latestToken, mailsTo, pdfOfPages, requestBody } from '../../test/esign';
import { createAdmin, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { type Actor, restCalls } from '../../test/rest-calls';

/**
 * Signature requests as a transaction's people use them, over REST on a real PostgreSQL: sending
 * an item's current PDF (who may, every refusal in its words), the mailed links (only their hash
 * kept), the list, reminders (a fresh link each) and voiding.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-08T09:00:00.000Z'));
let deps: AppDeps;
let app: FastifyInstance;
let agent: Actor;
let otherAgent: Actor;
let coordinator: Actor;
let admin: Actor;
let southAdmin: Actor;
const { call, ok, refused } = restCalls(() => app, clock);

const buyer = { name: 'Jordan Buyer', email: 'jordan.buyer@example.com' };
const seller = { name: 'Sam Seller', email: 'sam.seller@example.com' };
let pdf: Buffer;

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  const north = await database.db.office.create({ data: { name: 'Esign North' } });
  const south = await database.db.office.create({ data: { name: 'Esign South' } });
  agent = await createUser(database.db, {
    firstName: 'Alex',
    lastName: 'Agent',
    office: { connect: { id: north.id } },
  });
  otherAgent = await createUser(database.db);
  coordinator = await createUser(database.db);
  await database.db.coordination.create({ data: { coordinatorId: coordinator.id, agentId: agent.id } });
  admin = await createAdmin(database.db);
  southAdmin = await createAdmin(database.db, { office: { connect: { id: south.id } } });
  pdf = await pdfOfPages(2);
});
afterAll(() => app.close());

let mailboxes = 0;
/** Signers with addresses no other test uses, so each test reads only its own mails. */
function freshSigners() {
  const n = ++mailboxes;
  return [
    { ...buyer, email: `buyer${n}@example.com` },
    { ...seller, email: `seller${n}@example.com` },
  ];
}

/** An open transaction of `agent` whose first item holds the 2-page PDF. */
async function dealWithPdf() {
  const deal = await createTransaction(database.db, { userId: agent.id, officeId: await officeOf(agent) });
  const formId = deal.forms[0]?.id as string;
  await attachPdf(app, clock, agent, deal, formId, pdf);
  return { deal, formId };
}
/** The agent sends the item's PDF to `signers` (with `extra` in the body); the 201's answer. */
const send = (deal: { id: string }, formId: string, signers: { name: string; email: string }[], extra = {}) =>
  ok<SignatureRequest>(
    201,
    'POST',
    `/api/transactions/${deal.id}/signature-requests`,
    agent,
    requestBody(formId, signers, extra),
  );
async function officeOf(who: Actor) {
  return (await database.db.user.findUniqueOrThrow({ where: { id: who.id }, select: { officeId: true } }))
    .officeId;
}
const create = (who: Actor, dealId: string, body: object) =>
  call('POST', `/api/transactions/${dealId}/signature-requests`, who, body);

describe('POST /api/transactions/{id}/signature-requests', () => {
  it("sends the item's current PDF: 201 with the request, every signer mailed a link whose hash alone is kept", async () => {
    const { deal, formId } = await dealWithPdf();
    const signers = freshSigners();
    const res = await create(agent, deal.id, requestBody(formId, signers));
    expect(res.statusCode, res.body).toBe(201);
    const sent = res.json() as SignatureRequest;
    expect(sent).toMatchObject({
      status: 'sent',
      formId,
      subject: 'Purchase agreement',
      ordered: false,
      completedAt: null,
      documentSha256: createHash('sha256').update(pdf).digest('hex'),
      signers: signers.map((s) => ({ name: s.name, email: s.email, status: 'pending', signedAt: null })),
    });
    for (const signer of signers) {
      const [mail] = await mailsTo(database.db, signer.email);
      expect(mail?.kind).toBe('esign.invitation');
      expect(mail?.content.action?.url).toMatch(new RegExp(`^${deps.config.appUrl}/sign/[A-Za-z0-9_-]{43}$`));
      const token = await latestToken(database.db, signer.email);
      const row = await database.db.signatureSigner.findFirstOrThrow({ where: { email: signer.email } });
      expect(row.tokenHash).toBe(createHash('sha256').update(token).digest('hex'));
      const stored = await database.db.$queryRaw<{ hit: number }[]>`
        SELECT count(*)::int AS hit FROM signature_signers s
         WHERE s.token_hash = ${token} OR s.name = ${token} OR s.email = ${token}`;
      expect(stored[0]?.hit).toBe(0);
    }
  });

  it('an ordered request mails only its first signer', async () => {
    const { deal, formId } = await dealWithPdf();
    const signers = freshSigners();
    await send(deal, formId, signers, { ordered: true });
    expect(await mailsTo(database.db, signers[0]?.email as string)).toHaveLength(1);
    expect(await mailsTo(database.db, signers[1]?.email as string)).toHaveLength(0);
  });

  it('refuses with the exact messages, creating nothing', async () => {
    const { deal, formId } = await dealWithPdf();
    const url = `/api/transactions/${deal.id}/signature-requests`;
    const signers = freshSigners();
    await refused(400, esignMessages.noSigner, 'POST', url, agent, requestBody(formId, []));
    await refused(400, esignMessages.signerWithoutSignature, 'POST', url, agent, {
      ...requestBody(formId, signers),
      fields: [{ signer: 0, page: 1, kind: 'signature', x: 10, y: 10, width: 100, height: 30 }],
    });
    await refused(400, esignMessages.signerWithoutSignature, 'POST', url, agent, {
      ...requestBody(formId, signers.slice(0, 1)),
      fields: [{ signer: 0, page: 1, kind: 'initials', x: 10, y: 10, width: 40, height: 30 }],
    });
    await refused(400, 'Field on page 3, but the document has 2 pages', 'POST', url, agent, {
      ...requestBody(formId, signers.slice(0, 1)),
      fields: [{ signer: 0, page: 3, kind: 'signature', x: 10, y: 10, width: 100, height: 30 }],
    });
    await refused(400, esignMessages.fieldSignerUnknown, 'POST', url, agent, {
      ...requestBody(formId, signers.slice(0, 1)),
      fields: [
        { signer: 0, page: 1, kind: 'signature', x: 10, y: 10, width: 100, height: 30 },
        { signer: 1, page: 1, kind: 'signature', x: 10, y: 60, width: 100, height: 30 },
      ],
    });
    await refused(
      400,
      esignMessages.subjectRequired,
      'POST',
      url,
      agent,
      requestBody(formId, signers, { subject: ' ' }),
    );
    const noFile = deal.forms[1]?.id as string;
    await refused(400, esignMessages.noPdf, 'POST', url, agent, requestBody(noFile, signers));
    const kind = await call('POST', url, agent, {
      ...requestBody(formId, signers.slice(0, 1)),
      fields: [{ signer: 0, page: 1, kind: 'stamp', x: 10, y: 10, width: 100, height: 30 }],
    });
    expect(kind.statusCode).toBe(400);
    expect(kind.json().issues[0].path).toBe('fields.0.kind');
    const geometry = await call('POST', url, agent, {
      ...requestBody(formId, signers.slice(0, 1)),
      fields: [{ signer: 0, page: 1, kind: 'signature', x: -1, y: 10, width: 0, height: 30 }],
    });
    expect(geometry.statusCode).toBe(400);
    expect(await database.db.signatureRequest.count({ where: { transactionId: deal.id } })).toBe(0);
    for (const signer of signers) expect(await mailsTo(database.db, signer.email)).toHaveLength(0);
  });

  it('whoever may upload to the transaction may send; anyone else gets 404, a closed file 409', async () => {
    const { deal, formId } = await dealWithPdf();
    const body = () => requestBody(formId, freshSigners());
    for (const who of [agent, coordinator, admin])
      expect((await create(who, deal.id, body())).statusCode).toBe(201);
    for (const who of [otherAgent, southAdmin]) {
      const res = await create(who, deal.id, body());
      expect(res.statusCode).toBe(404);
    }
    expect(
      (await call('POST', `/api/transactions/${deal.id}/signature-requests`, undefined, body())).statusCode,
    ).toBe(401);
    await database.db.transaction.update({ where: { id: deal.id }, data: { closedAt: clock.now() } });
    await refused(
      409,
      complianceMessages.transactionClosed,
      'POST',
      `/api/transactions/${deal.id}/signature-requests`,
      agent,
      body(),
    );
  });
});

describe('the list, reminders and voiding', () => {
  it('lists newest first, to those who reach the transaction only', async () => {
    const { deal, formId } = await dealWithPdf();
    const first = await send(deal, formId, freshSigners());
    clock.advance(60_000);
    const second = await send(deal, formId, freshSigners());
    const list = await ok<SignatureRequest[]>(
      200,
      'GET',
      `/api/transactions/${deal.id}/signature-requests`,
      coordinator,
    );
    expect(list.map((r) => r._id)).toEqual([second._id, first._id]);
    expect(
      (await call('GET', `/api/transactions/${deal.id}/signature-requests`, otherAgent)).statusCode,
    ).toBe(404);
  });

  it('a reminder mails a fresh link to each signer still to sign; the link before stops working', async () => {
    const { deal, formId } = await dealWithPdf();
    const signers = freshSigners();
    const sent = await send(deal, formId, signers);
    const before = await latestToken(database.db, signers[0]?.email as string);
    await ok(200, 'POST', `/api/transactions/${deal.id}/signature-requests/${sent._id}/remind`, agent);
    const mails = await mailsTo(database.db, signers[0]?.email as string);
    expect(mails.map((m) => m.kind)).toEqual(['esign.invitation', 'esign.reminder']);
    const after = await latestToken(database.db, signers[0]?.email as string);
    expect(after).not.toBe(before);
    expect((await call('GET', `/api/sign/${before}`)).statusCode).toBe(404);
    expect((await call('GET', `/api/sign/${after}`)).statusCode).toBe(200);
    const row = await database.db.signatureSigner.findFirstOrThrow({ where: { email: signers[0]?.email } });
    expect(row.remindersSent).toBe(1);
    expect(
      (await call('POST', `/api/transactions/${deal.id}/signature-requests/${sent._id}/remind`, otherAgent))
        .statusCode,
    ).toBe(404);
  });

  it('void closes the request with its reason: links, reminders and a second void answer 409', async () => {
    const { deal, formId } = await dealWithPdf();
    const signers = freshSigners();
    const sent = await send(deal, formId, signers);
    const token = await latestToken(database.db, signers[0]?.email as string);
    const base = `/api/transactions/${deal.id}/signature-requests/${sent._id}`;
    await refused(400, esignMessages.reasonRequired, 'POST', `${base}/void`, agent, { reason: '' });
    const voided = await ok<SignatureRequest>(200, 'POST', `${base}/void`, agent, {
      reason: 'Wrong version',
    });
    expect(voided).toMatchObject({ status: 'voided', closedReason: 'Wrong version' });
    await refused(409, esignMessages.closed, 'POST', `${base}/void`, agent, { reason: 'Again' });
    await refused(409, esignMessages.closed, 'POST', `${base}/remind`, agent);
    await refused(409, esignMessages.closed, 'GET', `/api/sign/${token}`, undefined);
    await refused(
      404,
      esignMessages.unknownRequest,
      'POST',
      `/api/transactions/${deal.id}/signature-requests/${deal.id}/void`,
      agent,
      { reason: 'x' },
    );
  });

  it("the item's versions say where each came from", async () => {
    const { deal, formId } = await dealWithPdf();
    const { versions } = await ok<{ versions: FormVersion[] }>(
      200,
      'GET',
      `/api/transactions/${deal.id}/forms/${formId}/versions`,
      agent,
    );
    expect(versions.map((v) => v.source)).toEqual(['upload']);
  });
});
