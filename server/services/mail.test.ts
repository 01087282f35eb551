import { randomUUID } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import type { MailContent } from '../mail/content';
import { type Mailer, type SendOptions, smtpMailer } from '../mail/mailer';
import { enqueueJobs, JOB_KINDS } from '../queue/enqueue';
import { createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';
import { until } from '../test/until';
import { deliverMail, queueMail } from './mail';

/**
 * The mail outbox: a queued mail is sealed in mail_outbox, sent by its job exactly
 * once however often the job runs, retried when SMTP fails (last_error kept), given up on its
 * last attempt, and sent under one Message-ID across every attempt.
 */

const database = setupTestDatabase();
const APP_URL = 'http://portal.test';
const clock = new TestClock(new Date());
let inbox: SmtpInbox;
let smtp: Mailer;
/** What the engine's mailer does: the real SMTP mailer, or a failure while `down`. */
const attempts: { to: string; messageId: string | undefined; failed: boolean }[] = [];
let down = false;
let deps: AppDeps;

beforeAll(async () => {
  inbox = await startSmtpInbox();
  smtp = smtpMailer(inbox.url, 'Portal <no-reply@portal.test>', { appUrl: APP_URL });
  const mailer: Mailer = {
    async send(mail, options: SendOptions = {}) {
      attempts.push({ to: mail.to, messageId: options.messageId, failed: down });
      if (down) throw new Error('connect ECONNREFUSED 127.0.0.1:25');
      await smtp.send(mail, options);
    },
  };
  deps = testDeps(database.db, { clock, config: testConfig({ appUrl: APP_URL }), mailer });
});
const jobs = runTestJobs(database, () => deps);
afterAll(async () => {
  smtp?.close?.();
  await inbox?.close();
});

const SECRET_LINK = `${APP_URL}/auth/new-password/super-secret-token-${randomUUID()}`;

function content(to: string): MailContent {
  return {
    to,
    subject: 'Reset your password',
    greeting: 'Hello Ada,',
    paragraphs: ['Follow the link to choose a new password.'],
    action: { label: 'Set a new password', url: SECRET_LINK },
  };
}

let sequence = 0;
const address = () => `outbox-${Date.now().toString(36)}-${++sequence}@example.com`;

/** Queues one mail in its own committed transaction; its outbox id. */
async function queue(to: string, userId?: string): Promise<string> {
  await database.db.$transaction((tx) =>
    queueMail(tx, deps, { kind: 'test.reset', userId: userId ?? null, content: content(to) }),
  );
  const [row] = await database.db.$queryRaw<{ id: string }[]>`
    SELECT id FROM mail_outbox WHERE sealed IS NOT NULL ORDER BY created_at DESC, id LIMIT 1`;
  if (!row) throw new Error('nothing queued');
  return row.id;
}

type OutboxRow = { status: string; attempts: number; last_error: string | null; sent_at: Date | null };
const outboxRow = async (id: string) => {
  const [row] = await database.db.$queryRaw<OutboxRow[]>`
    SELECT status, attempts, last_error, sent_at FROM mail_outbox WHERE id = ${id}::uuid`;
  return row;
};
const received = (to: string) => inbox.messages.filter((m) => m.to.includes(to));

describe('the mail outbox', () => {
  it('keeps the mail sealed: neither the link, the address nor the subject is readable in the table', async () => {
    const user = await createUser(database.db);
    const to = address();
    const id = await queue(to, user.id);
    const [row] = await database.db.$queryRaw<{ everything: string }[]>`
      SELECT row_to_json(m)::text AS everything FROM mail_outbox m WHERE id = ${id}::uuid`;
    expect(row?.everything).toBeTruthy();
    for (const secret of [SECRET_LINK, 'super-secret-token', to, 'Reset your password', 'Hello Ada']) {
      expect(row?.everything).not.toContain(secret);
    }
    await jobs.drain();
    await until(async () => received(to).length === 1, 5_000);
    expect(received(to)[0]?.text).toContain(SECRET_LINK);
  });

  it('deliverMail is idempotent: running the job twice sends once', async () => {
    const to = address();
    // Queued and sent by the engine: then its handler runs again, as a job retried after a crash would.
    const id = await queue(to);
    await jobs.drain();
    await until(async () => received(to).length === 1, 5_000);
    await deliverMail(serviceContext(deps), { mailId: id, lastAttempt: false });
    await deliverMail(serviceContext(deps), { mailId: id, lastAttempt: true });
    // And two more jobs for the same mail through the engine.
    await database.db.$transaction((tx) =>
      enqueueJobs(tx, [
        { kind: JOB_KINDS.sendMail, payload: { mailId: id } },
        { kind: JOB_KINDS.sendMail, payload: { mailId: id } },
      ]),
    );
    await jobs.drain();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(received(to)).toHaveLength(1);
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 1, last_error: null });
  });

  it('a failing SMTP keeps the mail queued with last_error and retries it; sent once it comes back, under one Message-ID', async () => {
    const to = address();
    down = true;
    let id: string;
    try {
      id = await queue(to);
      await until(async () => ((await outboxRow(id))?.attempts ?? 0) >= 1, 10_000);
      await until(async () => (await outboxRow(id))?.last_error != null, 5_000);
      const failed = await outboxRow(id);
      expect(failed?.status).toBe('queued');
      expect(failed?.last_error).toContain('ECONNREFUSED');
      expect(failed?.sent_at).toBeNull();
      expect(received(to)).toEqual([]);
      // graphile-worker holds the job for a later attempt (back-off: e^1 s after the failure),
      // with its error. Measured from the job's creation, not from now(): on a loaded machine the
      // 2.7 s could pass before this query runs, and the test failed for the machine's sake. The
      // worker records the failure after the outbox row has its error: wait for that too.
      const jobOf = async () => {
        const [row] = await database.db.$queryRaw<
          { attempts: number; last_error: string | null; later: boolean }[]
        >`
          SELECT attempts, last_error, run_at >= created_at + interval '2.5 seconds' AS later
            FROM graphile_worker._private_jobs
           WHERE payload->>'mailId' = ${id}`;
        return row;
      };
      await until(async () => (await jobOf())?.last_error != null, 5_000);
      const job = await jobOf();
      expect(job).toMatchObject({ attempts: 1, later: true });
      expect(job?.last_error).toContain('ECONNREFUSED');
    } finally {
      down = false;
    }
    // The back-off, shortened: the retry is due now.
    await database.db.$executeRaw`
      UPDATE graphile_worker._private_jobs SET run_at = now() WHERE payload->>'mailId' = ${id}`;
    await until(async () => (await outboxRow(id))?.status === 'sent', 10_000);
    expect(await outboxRow(id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    await until(async () => received(to).length === 1, 5_000);

    const tries = attempts.filter((attempt) => attempt.to === to);
    expect(tries.map((attempt) => attempt.failed)).toEqual([true, false]);
    expect(new Set(tries.map((attempt) => attempt.messageId))).toEqual(new Set([id]));
    const parsed = await simpleParser(received(to)[0]?.raw ?? '');
    expect(parsed.messageId).toBe(`<${id}@portal.test>`);
    // The job is done and gone: the engine deletes its row just after the handler returns, so a
    // single look right after the mail is marked sent could still see it.
    await until(
      async () =>
        (
          await database.db.$queryRaw<unknown[]>`
            SELECT 1 FROM graphile_worker._private_jobs WHERE payload->>'mailId' = ${id}`
        ).length === 0,
      5_000,
    );
  });

  it('the last attempt that fails marks the mail failed; a later run sends nothing', async () => {
    const to = address();
    let id = '';
    down = true;
    try {
      // Written without a job: this test plays the job's runs itself.
      await database.db.$transaction(async (tx) => {
        await queueMail(tx, deps, { kind: 'test.reset', content: content(to) });
      });
      const [row] = await database.db.$queryRaw<{ id: string }[]>`
        SELECT id FROM mail_outbox ORDER BY created_at DESC, id LIMIT 1`;
      id = row?.id ?? '';
      // Its engine job may run meanwhile and fail too; stop it from retrying.
      await jobs.drain();
      await database.db.$executeRaw`
        DELETE FROM graphile_worker._private_jobs WHERE payload->>'mailId' = ${id}`;
      await expect(deliverMail(serviceContext(deps), { mailId: id, lastAttempt: true })).rejects.toThrow(
        'ECONNREFUSED',
      );
    } finally {
      down = false;
    }
    expect((await outboxRow(id))?.status).toBe('failed');
    await deliverMail(serviceContext(deps), { mailId: id, lastAttempt: false });
    expect((await outboxRow(id))?.status).toBe('failed');
    expect(received(to)).toEqual([]);
  });
});
