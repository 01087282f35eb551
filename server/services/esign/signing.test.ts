import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, esignMessages } from '../../../shared/messages';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import type { FormVersion } from '../../../shared/schemas/transactions';
import type { AppDeps } from '../../deps';
import { createRateLimiter, limitRulesOf } from '../../security/rate-limits';
import {
  attachPdf,
  fieldsOfToken,
  latestToken,
  mailsTo,
  pdfOfPages,
  requestBody,
  signAll,
} from '../../test/esign';
import { createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../../test/harness';
import { type Actor, restCalls } from '../../test/rest-calls';

/**
 * The public signing surface on a real PostgreSQL: a link's token as the only credential, the
 * view that marks a signer viewed (with the address and browser the server saw), every refusal
 * of a signature in its words, ordered turns, the decline, completion into the item's next
 * version awaiting review (once, even with two last signers at once), and the rate limit.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-08T09:00:00.000Z'));
let deps: AppDeps;
let app: FastifyInstance;
let agent: Actor;
const { ok, refused } = restCalls(() => app, clock);
let pdf: Buffer;
const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  agent = await createUser(database.db, { firstName: 'Alex', lastName: 'Agent' });
  pdf = await pdfOfPages(2);
});
afterAll(() => app.close());

let mailboxes = 0;
/** A request of a fresh transaction of `agent`, sent to fresh addresses; their tokens. */
async function sentRequest(options: { ordered?: boolean; fields?: object[]; signers?: number } = {}) {
  const deal = await createTransaction(database.db, { userId: agent.id });
  const formId = deal.forms[0]?.id as string;
  await attachPdf(app, clock, agent, deal, formId, pdf);
  const n = ++mailboxes;
  const signers = [
    { name: 'Jordan Buyer', email: `jordan${n}@example.com` },
    { name: 'Sam Seller', email: `sam${n}@example.com` },
  ].slice(0, options.signers ?? 2);
  const body = requestBody(formId, signers, {
    ordered: options.ordered ?? false,
    ...(options.fields ? { fields: options.fields } : {}),
  });
  const request = await ok<SignatureRequest>(
    201,
    'POST',
    `/api/transactions/${deal.id}/signature-requests`,
    agent,
    body,
  );
  const tokenOf = (index: number) => latestToken(database.db, signers[index]?.email as string);
  return { deal, formId, request, signers, tokenOf };
}
const get = (token: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url: `/api/sign/${token}`, headers });
const post = (token: string, payload: object, path = '') =>
  app.inject({ method: 'POST', url: `/api/sign/${token}${path}`, payload });
const signerRow = (email: string) => database.db.signatureSigner.findFirstOrThrow({ where: { email } });

describe('GET /api/sign/{token}', () => {
  it("shows the request, the signer and only the signer's fields, and marks it viewed once, as the server saw it", async () => {
    const { signers, tokenOf } = await sentRequest({
      fields: [
        { signer: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 180, height: 36 },
        { signer: 0, page: 2, kind: 'date', x: 300, y: 600, width: 100, height: 20 },
        { signer: 1, page: 2, kind: 'signature', x: 72, y: 500, width: 180, height: 36 },
      ],
    });
    const token = await tokenOf(0);
    const res = await get(token, { 'user-agent': 'SignerBrowser/1.0' });
    expect(res.statusCode, res.body).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      request: { subject: 'Purchase agreement', message: 'Please sign where marked.', from: 'Alex Agent' },
      signer: { name: 'Jordan Buyer', email: signers[0]?.email },
      documentUrl: `/api/sign/${token}/document`,
      status: 'viewed',
    });
    expect(view.fields.map((f: { kind: string; page: number }) => [f.kind, f.page])).toEqual([
      ['signature', 1],
      ['date', 2],
    ]);
    expect(Object.keys(view).sort()).toEqual(['documentUrl', 'fields', 'request', 'signer', 'status']);
    const viewed = await signerRow(signers[0]?.email as string);
    expect(viewed).toMatchObject({ status: 'viewed', ip: '127.0.0.1', userAgent: 'SignerBrowser/1.0' });
    expect(viewed.viewedAt?.toISOString()).toBe(clock.now().toISOString());
    clock.advance(60_000);
    await get(token, { 'user-agent': 'Other/2.0' });
    const again = await signerRow(signers[0]?.email as string);
    expect(again.viewedAt).toEqual(viewed.viewedAt);
    expect(again.userAgent).toBe('SignerBrowser/1.0');
    expect((await signerRow(signers[1]?.email as string)).status).toBe('pending');
  });

  it("records the client's address as the app's trust-proxy setting reads it", async () => {
    const { signers, tokenOf } = await sentRequest({ signers: 1 });
    const token = await tokenOf(0);
    const behindProxy = buildTestApp(
      testDeps(database.db, { clock, config: testConfig({ trustProxy: ['10.0.0.0/24'] }) }),
    );
    try {
      const forwarded = { 'x-forwarded-for': '203.0.113.9', 'user-agent': 'Proxied/1.0' };
      const res = await behindProxy.inject({
        method: 'GET',
        url: `/api/sign/${token}`,
        headers: forwarded,
        remoteAddress: '10.0.0.5',
      });
      expect(res.statusCode).toBe(200);
      expect(await signerRow(signers[0]?.email as string)).toMatchObject({
        ip: '203.0.113.9',
        userAgent: 'Proxied/1.0',
      });
      const signed = await signAll(behindProxy, token, {
        'x-forwarded-for': '198.51.100.7',
        'user-agent': 'Spoofed/1.0',
      });
      expect(signed.statusCode).toBe(200);
      // Sent straight from an address that is no proxy of ours, the header is not believed.
      expect((await signerRow(signers[0]?.email as string)).ip).toBe('127.0.0.1');
    } finally {
      await behindProxy.close();
    }
  });

  it('an unknown token is 404; the document is served for its link only', async () => {
    const { tokenOf } = await sentRequest();
    expect((await get('x'.repeat(43))).statusCode).toBe(404);
    expect((await get('x'.repeat(43))).json().message).toBe(apiMessages.notFound);
    const doc = await app.inject({ method: 'GET', url: `/api/sign/${await tokenOf(0)}/document` });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.rawPayload.equals(pdf)).toBe(true);
    expect(
      (await app.inject({ method: 'GET', url: `/api/sign/${'y'.repeat(43)}/document` })).statusCode,
    ).toBe(404);
  });

  it('the signing certificate is served as PEM', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/sign/certificate' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/x-pem-file');
    expect(res.body).toContain('-----BEGIN CERTIFICATE-----');
  });
});

describe('POST /api/sign/{token}', () => {
  it('refuses without consent, with a field missing, or with values it does not take, changing nothing', async () => {
    const { request, tokenOf, signers } = await sentRequest({
      signers: 1,
      fields: [
        { signer: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 180, height: 36 },
        { signer: 0, page: 1, kind: 'initials', x: 300, y: 600, width: 40, height: 20 },
        { signer: 0, page: 2, kind: 'date', x: 300, y: 500, width: 100, height: 20 },
        { signer: 0, page: 2, kind: 'text', x: 72, y: 500, width: 180, height: 20 },
      ],
    });
    const token = await tokenOf(0);
    const fields = await fieldsOfToken(app, token);
    const id = (kind: string) => fields.find((f) => f.kind === kind)?._id as string;
    const full = [
      { fieldId: id('signature'), value: PNG_1X1 },
      { fieldId: id('initials'), value: 'JB' },
      { fieldId: id('text'), value: 'Closing on the 15th' },
    ];
    const refuses = async (message: string, payload: object) => {
      const res = await post(token, payload);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toBe(message);
    };
    await refuses(esignMessages.consentRequired, { values: full });
    await refuses(esignMessages.consentRequired, { consent: false, values: full });
    await refuses(esignMessages.fillEveryField, { consent: true, values: full.slice(0, 2) });
    await refuses(esignMessages.fillEveryField, {
      consent: true,
      values: [...full.slice(0, 2), { fieldId: id('text'), value: '  ' }],
    });
    await refuses(esignMessages.dateFilledByServer, {
      consent: true,
      values: [...full, { fieldId: id('date'), value: '2020-01-01' }],
    });
    await refuses(esignMessages.textTooLong, {
      consent: true,
      values: [...full.slice(0, 2), { fieldId: id('text'), value: 'x'.repeat(201) }],
    });
    await refuses(esignMessages.signatureNotImage, {
      consent: true,
      values: [{ fieldId: id('signature'), value: 'data:image/svg+xml;base64,PHN2Zz4=' }, ...full.slice(1)],
    });
    await refuses(esignMessages.signatureImageTooLarge, {
      consent: true,
      values: [
        { fieldId: id('signature'), value: `data:image/png;base64,${'A'.repeat(210_000)}` },
        ...full.slice(1),
      ],
    });
    await refuses(esignMessages.unknownField, {
      consent: true,
      values: [...full, { fieldId: '00000000-0000-4000-8000-000000000000', value: 'x' }],
    });
    expect((await signerRow(signers[0]?.email as string)).status).toBe('viewed');
    expect(
      await database.db.signatureField.count({ where: { requestId: request._id, value: { not: null } } }),
    ).toBe(0);

    const signed = await post(token, { consent: true, values: full });
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json()).toEqual({ status: 'signed' });
  });

  it('an ordered request mails each next signer when the one before signs; a second signature is 409', async () => {
    const { tokenOf, signers } = await sentRequest({ ordered: true });
    expect(await mailsTo(database.db, signers[1]?.email as string)).toHaveLength(0);
    const first = await tokenOf(0);
    expect((await signAll(app, first)).statusCode).toBe(200);
    expect(await mailsTo(database.db, signers[1]?.email as string)).toHaveLength(1);
    const again = await post(first, { consent: true, values: [] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(esignMessages.closed);
  });

  it("the last signature completes it: the item's next version (esign) awaits review, people told, integrators sent signature.completed", async () => {
    const endpoint = await database.db.webhookEndpoint.create({
      data: {
        url: 'https://books.example.com/hooks',
        events: ['signature.completed'],
        secretSealed: 'v1.test',
      },
    });
    try {
      const { deal, formId, request, tokenOf } = await sentRequest();
      const [first, second] = [await tokenOf(0), await tokenOf(1)];
      expect((await signAll(app, first, { 'user-agent': 'First/1.0' })).statusCode).toBe(200);
      let [row] = await ok<SignatureRequest[]>(
        200,
        'GET',
        `/api/transactions/${deal.id}/signature-requests`,
        agent,
      );
      expect(row?.status).toBe('sent');
      expect(row?.signers.map((s) => s.status)).toEqual(['signed', 'pending']);
      clock.advance(3_600_000);
      expect((await signAll(app, second)).statusCode).toBe(200);
      [row] = await ok<SignatureRequest[]>(
        200,
        'GET',
        `/api/transactions/${deal.id}/signature-requests`,
        agent,
      );
      expect(row).toMatchObject({
        _id: request._id,
        status: 'completed',
        completedAt: clock.now().toISOString(),
      });

      const { versions } = await ok<{ versions: FormVersion[] }>(
        200,
        'GET',
        `/api/transactions/${deal.id}/forms/${formId}/versions`,
        agent,
      );
      expect(versions.map((v) => [v.number, v.source])).toEqual([
        [2, 'esign'],
        [1, 'upload'],
      ]);
      const form = await database.db.transactionForm.findUniqueOrThrow({ where: { id: formId } });
      expect(form).toMatchObject({ status: 'pending', version: 2 });
      expect(form.submittedAt?.toISOString()).toBe(clock.now().toISOString());
      const notices = await database.db.notification.findMany({
        where: { transactionId: deal.id, userId: agent.id },
      });
      expect(notices.map((n) => n.message)).toContain(
        esignMessages.completedNotice('Purchase Agreement', `${deal.streetAddress}, ${deal.city}`),
      );
      const events = await database.db.webhookEvent.findMany({
        where: { transactionId: deal.id, type: 'signature.completed' },
      });
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]?.body as string).data).toMatchObject({
        _id: request._id,
        status: 'completed',
        transactionId: deal.id,
      });
      const audits = await database.db.auditEvent.findMany({
        where: { transactionId: deal.id },
        select: { action: true },
      });
      expect(audits.map((a) => a.action)).toEqual(
        expect.arrayContaining(['signature.sent', 'signature.signed', 'signature.completed', 'form.upload']),
      );

      for (const token of [first, second]) {
        const res = await get(token);
        expect(res.statusCode).toBe(409);
        expect(res.json().message).toBe(esignMessages.closed);
      }
    } finally {
      await database.db.webhookEndpoint.delete({ where: { id: endpoint.id } });
    }
  });

  it('two last signers at once: the request completes once, with one new version', async () => {
    const { deal, formId, tokenOf } = await sentRequest();
    const [first, second] = [await tokenOf(0), await tokenOf(1)];
    const [a, b] = await Promise.all([signAll(app, first), signAll(app, second)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const form = await database.db.transactionForm.findUniqueOrThrow({ where: { id: formId } });
    expect(form.version).toBe(2);
    expect(await database.db.formVersion.count({ where: { formId, source: 'esign' } })).toBe(1);
    const request = await database.db.signatureRequest.findFirstOrThrow({
      where: { transactionId: deal.id },
    });
    expect(request.status).toBe('completed');
  });
});

describe('POST /api/sign/{token}/decline', () => {
  it('declines the request for everyone, with the reason; the sender is told', async () => {
    const { deal, tokenOf } = await sentRequest();
    const token = await tokenOf(1);
    const empty = await post(token, { reason: ' ' }, '/decline');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe(esignMessages.reasonRequired);
    const res = await post(token, { reason: 'The price is wrong' }, '/decline');
    expect(res.statusCode, res.body).toBe(200);
    const [row] = await ok<SignatureRequest[]>(
      200,
      'GET',
      `/api/transactions/${deal.id}/signature-requests`,
      agent,
    );
    expect(row).toMatchObject({ status: 'declined', closedReason: 'The price is wrong' });
    const notices = await database.db.notification.findMany({
      where: { userId: agent.id, transactionId: deal.id },
    });
    expect(notices.map((n) => n.message)).toContain(
      esignMessages.declinedNotice('Sam Seller', 'Purchase Agreement', `${deal.streetAddress}, ${deal.city}`),
    );
    const late = await post(await tokenOf(0), { consent: true, values: [] });
    expect(late.statusCode).toBe(409);
    await refused(409, esignMessages.closed, 'GET', `/api/sign/${await tokenOf(0)}`, undefined);
    await refused(409, esignMessages.closed, 'POST', `/api/sign/${token}/decline`, undefined, {
      reason: 'again',
    });
  });
});

describe('the rate limit', () => {
  it('counts every call of the signing paths per address: past the limit, 429', async () => {
    const rules = { ...limitRulesOf(testConfig()), signingPerIp: { max: 3, windowMs: 900_000 } };
    const limited = buildTestApp(
      testDeps(database.db, { clock, limits: createRateLimiter(database.db, clock, rules) }),
    );
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push(
          (
            await limited.inject({
              method: 'GET',
              url: `/api/sign/${'z'.repeat(43)}`,
              remoteAddress: '10.9.9.9',
            })
          ).statusCode,
        );
      }
      expect(statuses).toEqual([404, 404, 404, 429]);
      const other = await limited.inject({
        method: 'GET',
        url: `/api/sign/${'z'.repeat(43)}`,
        remoteAddress: '10.9.9.8',
      });
      expect(other.statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});
