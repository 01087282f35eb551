import { describe, expect, it } from 'vitest';
import { esignMessages } from '../../../shared/esign-messages';
import { apiMessages } from '../../../shared/messages';
import { fieldsOfToken, mailsTo, signAll, signingTestbed } from '../../test/esign';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../../test/harness';

/**
 * The public signing surface on a real PostgreSQL: a link's token as the only credential, the
 * view that marks a signer viewed (with the address and browser the server saw, through the
 * trust-proxy setting), the document and the certificate, every refusal of a signature in its
 * words, and ordered turns. Completion, the decline and the rate limit: completion.test.ts.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-08T09:00:00.000Z'));
const bed = signingTestbed(database, clock, 'sign');
const { sentRequest, get, post, signerRow } = bed;
const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

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
    const doc = await bed.state.app.inject({ method: 'GET', url: `/api/sign/${await tokenOf(0)}/document` });
    expect(doc.statusCode).toBe(200);
    expect(doc.headers['content-type']).toBe('application/pdf');
    expect(doc.rawPayload.equals(bed.state.pdf)).toBe(true);
    expect(
      (await bed.state.app.inject({ method: 'GET', url: `/api/sign/${'y'.repeat(43)}/document` })).statusCode,
    ).toBe(404);
  });

  it('the signing certificate is served as PEM', async () => {
    const res = await bed.state.app.inject({ method: 'GET', url: '/api/sign/certificate' });
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
    const fields = await fieldsOfToken(bed.state.app, token);
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
    expect((await signAll(bed.state.app, first)).statusCode).toBe(200);
    expect(await mailsTo(database.db, signers[1]?.email as string)).toHaveLength(1);
    const again = await post(first, { consent: true, values: [] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(esignMessages.closed);
  });
});
