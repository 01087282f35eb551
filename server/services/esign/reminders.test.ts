import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SignatureRequest } from '../../../shared/schemas/esign';
import type { AppDeps } from '../../deps';
import { enqueueJobs, JOB_KINDS } from '../../queue/enqueue';
import { attachPdf, latestToken, mailsTo, pdfOfPages, requestBody, signAll } from '../../test/esign';
import { createTransaction, createUser } from '../../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { runTestJobs } from '../../test/jobs';
import { type Actor, restCalls } from '../../test/rest-calls';
import { SIGNING_REMINDER_EVERY_MS, SIGNING_REMINDERS_MAX, sweepSignatureReminders } from './reminders';

/**
 * Signers' reminders on a TestClock: due two days after the last mail, at most five, only for
 * signers whose turn it is and who have not signed, of requests still open; and the job kind run
 * by the real job engine.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-12-08T09:00:00.000Z'));
let deps: AppDeps;
let app: FastifyInstance;
let agent: Actor;
const { ok } = restCalls(() => app, clock);
let pdf: Buffer;
const HOUR = 3_600_000;

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  agent = await createUser(database.db);
  pdf = await pdfOfPages(1);
});
afterAll(() => app.close());
// After the beforeAll above, which makes the dependencies the engine runs with.
const jobs = runTestJobs(database, () => deps);

let mailboxes = 0;
async function sent(options: { ordered?: boolean } = {}) {
  const deal = await createTransaction(database.db, { userId: agent.id });
  const formId = deal.forms[0]?.id as string;
  await attachPdf(app, clock, agent, deal, formId, pdf);
  const n = ++mailboxes;
  const signers = [
    { name: 'Jordan Buyer', email: `remind-a${n}@example.com` },
    { name: 'Sam Seller', email: `remind-b${n}@example.com` },
  ];
  const request = await ok<SignatureRequest>(
    201,
    'POST',
    `/api/transactions/${deal.id}/signature-requests`,
    agent,
    requestBody(formId, signers, { ordered: options.ordered ?? false }),
  );
  const kinds = async (index: number) =>
    (await mailsTo(database.db, signers[index]?.email as string)).map((mail) => mail.kind);
  return { deal, request, signers, kinds };
}
const sweep = () => sweepSignatureReminders(serviceContext(deps));

describe('signers reminders', () => {
  it('reminds a signer two days after the last mail, then every two days, five times at most', async () => {
    const { kinds } = await sent();
    clock.advance(SIGNING_REMINDER_EVERY_MS - HOUR);
    await sweep();
    expect(await kinds(0)).toEqual(['esign.invitation']);
    for (let round = 1; round <= SIGNING_REMINDERS_MAX + 2; round++) {
      clock.advance(HOUR);
      await sweep();
      await sweep();
      clock.advance(SIGNING_REMINDER_EVERY_MS - HOUR);
    }
    const mails = await kinds(0);
    expect(mails.filter((kind) => kind === 'esign.reminder')).toHaveLength(SIGNING_REMINDERS_MAX);
  });

  it('skips signers who signed, signers not yet mailed, and requests voided', async () => {
    const ordered = await sent({ ordered: true });
    const voided = await sent();
    const partly = await sent();
    expect(
      (await signAll(app, await latestToken(database.db, partly.signers[0]?.email as string))).statusCode,
    ).toBe(200);
    await ok(
      200,
      'POST',
      `/api/transactions/${voided.deal.id}/signature-requests/${voided.request._id}/void`,
      agent,
      {
        reason: 'Wrong file',
      },
    );
    clock.advance(SIGNING_REMINDER_EVERY_MS);
    await sweep();
    expect(await ordered.kinds(0)).toEqual(['esign.invitation', 'esign.reminder']);
    expect(await ordered.kinds(1)).toEqual([]);
    expect(await voided.kinds(0)).toEqual(['esign.invitation']);
    expect(await partly.kinds(0)).toEqual(['esign.invitation']);
    expect(await partly.kinds(1)).toEqual(['esign.invitation', 'esign.reminder']);
  });

  it('runs as a job of the engine', async () => {
    const { kinds } = await sent();
    clock.advance(SIGNING_REMINDER_EVERY_MS);
    await database.db.$transaction((tx) => enqueueJobs(tx, [{ kind: JOB_KINDS.remindSigners, payload: {} }]));
    await jobs.drain();
    expect(await kinds(0)).toEqual(['esign.invitation', 'esign.reminder']);
  });
});
