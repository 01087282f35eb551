import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { esignMessages } from '../../../shared/esign-messages';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import type { FormVersion } from '../../../shared/schemas/transactions';
import { createRateLimiter, limitRulesOf } from '../../security/rate-limits';
import { injectUpload } from '../../test/api-calls';
import { signAll, signingTestbed } from '../../test/esign';
import { accessTokenFor } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../../test/harness';
import { pageText, poppler } from '../../test/poppler';

/**
 * A request's end on a real PostgreSQL: the last signature completes it into the item's next
 * version awaiting review (once, even with two last signers at once), a decline closes it for
 * everyone, and every call of the signing paths counts against the caller's address.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-08T09:00:00.000Z'));
const bed = signingTestbed(database, clock, 'end');
const { ok, refused, sentRequest, get, post } = bed;

describe('POST /api/sign/{token}: the last signature', () => {
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
      expect((await signAll(bed.state.app, first, { 'user-agent': 'First/1.0' })).statusCode).toBe(200);
      let [row] = await ok<SignatureRequest[]>(
        200,
        'GET',
        `/api/transactions/${deal.id}/signature-requests`,
        bed.state.agent,
      );
      expect(row?.status).toBe('sent');
      expect(row?.signers.map((s) => s.status)).toEqual(['signed', 'pending']);
      clock.advance(3_600_000);
      expect((await signAll(bed.state.app, second)).statusCode).toBe(200);
      [row] = await ok<SignatureRequest[]>(
        200,
        'GET',
        `/api/transactions/${deal.id}/signature-requests`,
        bed.state.agent,
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
        bed.state.agent,
      );
      expect(versions.map((v) => [v.number, v.source])).toEqual([
        [2, 'esign'],
        [1, 'upload'],
      ]);
      const form = await database.db.transactionForm.findUniqueOrThrow({ where: { id: formId } });
      expect(form).toMatchObject({ status: 'pending', version: 2 });
      // The filed version as any PDF reader sees it: signed over the whole file, with a
      // certificate page naming both signers and the address each signed from.
      const filed = await database.db.formVersion.findFirstOrThrow({ where: { formId, number: 2 } });
      const stored = await bed.state.deps.storage.open(filed.fileKey);
      const bytes = await buffer(stored?.body ?? Readable.from([]));
      const report = await poppler('pdfsig', bytes);
      expect(report).toContain('Signature is Valid');
      expect(report).toContain('Total document signed');
      const certificatePage = await pageText(bytes, 3);
      for (const email of request.signers.map((signer) => signer.email))
        expect(certificatePage).toContain(email);
      expect(certificatePage).toContain(request.documentSha256);
      // The signed file uploaded again by hand is known for what it is.
      const token = await accessTokenFor(bed.state.agent, { now: clock.now() });
      const again = await injectUpload(
        bed.state.app,
        `/api/uploads/transactions/${deal.id}`,
        token,
        bytes,
        'signed.pdf',
      );
      expect(again.statusCode, again.body).toBe(201);
      expect(again.json().duplicateOf).toEqual({ formId, label: 'Purchase Agreement' });
      expect(form.submittedAt?.toISOString()).toBe(clock.now().toISOString());
      const notices = await database.db.notification.findMany({
        where: { transactionId: deal.id, userId: bed.state.agent.id },
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
    const [a, b] = await Promise.all([signAll(bed.state.app, first), signAll(bed.state.app, second)]);
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

describe('a transaction closed while its request is out', () => {
  it('takes no signature: its links answer 409 and nothing is signed', async () => {
    const { deal, request, tokenOf } = await sentRequest({ signers: 1 });
    const token = await tokenOf(0);
    const fields = (await get(token).then((res) => res.json())).fields as { _id: string }[];
    await database.db.transaction.update({ where: { id: deal.id }, data: { closedAt: clock.now() } });
    for (const res of [
      await get(token),
      await post(token, {
        consent: true,
        values: fields.map((f) => ({ fieldId: f._id, value: 'Jordan Buyer' })),
      }),
    ]) {
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(esignMessages.closed);
    }
    const row = await database.db.signatureRequest.findUniqueOrThrow({
      where: { id: request._id },
      include: { signers: true },
    });
    expect(row.status).toBe('sent');
    expect(row.signers.map((s) => s.status)).toEqual(['viewed']);
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
      bed.state.agent,
    );
    expect(row).toMatchObject({ status: 'declined', closedReason: 'The price is wrong' });
    const notices = await database.db.notification.findMany({
      where: { userId: bed.state.agent.id, transactionId: deal.id },
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
