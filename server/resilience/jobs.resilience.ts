import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { type EmbeddedDatabase, freePort, startEmbeddedPostgres } from '../db/embedded';
import {
  type ServerProcess,
  startBuiltServer,
  stopBuiltServer,
  summariseServerLog,
} from '../test/built-server';
import { createDatabase, runSql } from '../test/databases';
import {
  createAgents,
  expectStatus,
  openTransaction,
  type SignedIn,
  signIn,
  timedCall,
} from '../test/rest-client';
import { type ReceivedMail, type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';
import { until } from '../test/until';

/**
 * The job engine's promises against the built server in processes of
 * their own, on a real SMTP server and a real PostgreSQL. Mail outlives an SMTP outage and a
 * SIGKILL of the server, each mail delivered exactly once (counted by recipient and by
 * Message-ID); two instances sweeping the same due reminders make each notification once.
 * Nothing waits for time the engine does not need: every wait polls with a deadline, except the
 * outage itself, which is the scenario (SMTP down for a minute).
 */

const OWNER = { email: 'owner@jobs.test', password: 'Owner-password-1' };
const SECRET = 'jobs-resilience-secret-with-enough-length-0123456789';
const PASSWORD = 'Agent-password-1';
const METRICS_TOKEN = 'jobs-resilience-metrics-token-0123456789';

let database: EmbeddedDatabase;
const folders: string[] = [];

beforeAll(async () => {
  const databaseDir = await mkdtemp(path.join(tmpdir(), 'portal-jobs-pg-'));
  folders.push(databaseDir);
  database = await startEmbeddedPostgres({ dataDir: databaseDir, ephemeral: true });
});

afterAll(async () => {
  await database?.stop();
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/**
 * The servers and inboxes of one test, stopped when that test finishes. The tests of this file
 * run at once (describe.concurrent below): the SMTP outage spends most of its time waiting out
 * the outage, and the other two run in that time, each on its own database.
 */
type TestRig = {
  startServer(
    databaseUrl: string,
    env: Record<string, string>,
    dataDir?: string,
  ): Promise<{ server: ServerProcess; dataDir: string }>;
  startInbox(options: Parameters<typeof startSmtpInbox>[0]): Promise<SmtpInbox>;
  /** A server the test stopped itself (killed): not stopped again at the end. */
  forget(server: ServerProcess): void;
};

function rigFor(context: TestContext): TestRig {
  const servers: ServerProcess[] = [];
  const inboxes: SmtpInbox[] = [];
  context.onTestFinished(async ({ task }) => {
    const failed = task.result?.state === 'fail';
    for (const server of servers.splice(0)) {
      const code = await stopBuiltServer(server);
      if (code !== 0 || failed)
        console.warn(`Server log (exit ${code}):\n${summariseServerLog(server.output())}`);
    }
    for (const inbox of inboxes.splice(0)) await inbox.close();
  });
  return {
    async startServer(databaseUrl, env, dataDir) {
      const dir = dataDir ?? (await mkdtemp(path.join(tmpdir(), 'portal-jobs-data-')));
      if (!dataDir) folders.push(dir);
      const server = await startBuiltServer(
        {
          DATABASE_URL: databaseUrl,
          JWT_SECRET: SECRET,
          ADMIN_EMAIL: OWNER.email,
          ADMIN_PASSWORD: OWNER.password,
          SEED_DEMO: 'false',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_MIN: '0',
          // Each registration below comes "from" its own address (X-Forwarded-For), so the
          // per-address registration limit (20 an hour) does not stop the 50 this run needs.
          TRUST_PROXY: 'true',
          METRICS_TOKEN,
          ...env,
        },
        dir,
      );
      servers.push(server);
      return { server, dataDir: dir };
    },
    async startInbox(options) {
      const inbox = await startSmtpInbox(options);
      inboxes.push(inbox);
      return inbox;
    },
    forget(server) {
      servers.splice(servers.indexOf(server), 1);
    },
  };
}

const registrantEmail = (prefix: string, i: number) => `${prefix}${i}@mail.test`;

/** POST /api/auth/register: one verification mail each, queued with the account. */
async function register(baseUrl: string, prefix: string, count: number): Promise<string[]> {
  const emails: string[] = [];
  for (let i = 1; i <= count; i++) {
    const email = registrantEmail(prefix, i);
    const response = await fetch(`${baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.19.${Math.floor(i / 250)}.${i % 250}`,
      },
      body: JSON.stringify({
        firstName: 'Reg',
        lastName: `Istrant${i}`,
        company: 'Mail Realty',
        email,
        phoneNumber: `555-019-${String(i).padStart(4, '0')}`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
      }),
    });
    if (response.status !== 201 && response.status !== 200)
      throw new Error(`registering ${email}: ${response.status} ${await response.text()}`);
    emails.push(email);
  }
  return emails;
}

/** Every mail sent or given up, and no mail job left to run: nothing more can arrive. */
async function mailSettled(databaseUrl: string): Promise<boolean> {
  const [row] = await runSql<{ queued: string; jobs: string }>(
    databaseUrl,
    `SELECT (SELECT count(*) FROM mail_outbox WHERE status = 'queued') AS queued,
            (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = 'mail:send') AS jobs`,
  );
  return row?.queued === '0' && row?.jobs === '0';
}

/** How many mails (of any kind) the outbox records as sent. */
async function sentCount(databaseUrl: string): Promise<number> {
  const [row] = await runSql<{ sent: string }>(
    databaseUrl,
    "SELECT count(*) AS sent FROM mail_outbox WHERE status = 'sent'",
  );
  return Number(row?.sent ?? 0);
}

/** The inbox's messages to these recipients, counted by recipient and by Message-ID. */
function countDeliveries(messages: ReceivedMail[], recipients: string[]) {
  const wanted = new Set(recipients);
  const byRecipient = new Map<string, number>();
  const byMessageId = new Map<string, number>();
  for (const message of messages) {
    for (const to of message.to) {
      if (!wanted.has(to)) continue;
      byRecipient.set(to, (byRecipient.get(to) ?? 0) + 1);
      byMessageId.set(message.messageId, (byMessageId.get(message.messageId) ?? 0) + 1);
    }
  }
  return {
    recipients: byRecipient.size,
    messageIds: byMessageId.size,
    repeatedRecipients: [...byRecipient].filter(([, n]) => n > 1),
    repeatedMessageIds: [...byMessageId].filter(([, n]) => n > 1),
  };
}

/** A zone where it is well past 08:00 and before midnight now, so today's 08:00 reminder is due. */
function zoneAfterEightToday(): { zone: string; today: string } {
  const zones = [
    'America/New_York',
    'America/Chicago',
    'America/Denver',
    'America/Los_Angeles',
    'Pacific/Honolulu',
    'Pacific/Auckland',
    'Asia/Tokyo',
    'Asia/Shanghai',
    'Asia/Kolkata',
    'Asia/Dubai',
    'Europe/Moscow',
    'Europe/Berlin',
    'Europe/London',
    'Atlantic/Azores',
    'America/Sao_Paulo',
    'America/Halifax',
  ];
  for (const zone of zones) {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone: zone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(new Date())
        .map((part) => [part.type, part.value]),
    );
    const hour = Number(parts.hour);
    // From 09:00 to 21:59: the run cannot cross 08:00 or midnight there.
    if (hour >= 9 && hour <= 21) return { zone, today: `${parts.year}-${parts.month}-${parts.day}` };
  }
  throw new Error('no zone in the list is between 09:00 and 22:00 now');
}

const nextDay = (day: string) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

describe.concurrent('the job engine', () => {
  it('queues 50 mails while SMTP is down for a minute and delivers each once after it returns', async (context) => {
    const { startServer, startInbox } = rigFor(context);
    const databaseUrl = await createDatabase(database.adminUrl, 'jobs_smtp_outage');
    // The inbox's port, closed for now: every send is refused until the inbox opens on it.
    const smtpPort = await freePort();
    const { server } = await startServer(databaseUrl, { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` });

    const outageBegan = Date.now();
    const emails = await register(server.baseUrl, 'outage', 50);
    // Every mail has been tried and refused at least once: the outage is real to the engine.
    await until(async () => {
      const [row] = await runSql<{ failed: string }>(
        databaseUrl,
        "SELECT count(*) AS failed FROM mail_outbox WHERE kind = 'account.verify-email' AND attempts >= 1 AND last_error IS NOT NULL",
      );
      return row?.failed === '50';
    }, 30_000);

    // The outage lasts a minute from the first registration (the scenario, not a wait for the engine).
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, outageBegan + 60_000 - Date.now())));
    const inbox = await startInbox({ port: smtpPort });
    const returnedAt = Date.now();

    // graphile-worker's back-off retries at about 3, 10, 30, 85 and 233 s after the first try:
    // after a minute down, the 85 s retry delivers; 150 s after the return bounds it.
    await until(() => countDeliveries(inbox.messages, emails).recipients === 50, 150_000, 250);
    const deliveredAfterMs = Date.now() - returnedAt;
    await until(() => mailSettled(databaseUrl), 30_000, 250);

    const counted = countDeliveries(inbox.messages, emails);
    expect(counted.repeatedRecipients).toEqual([]);
    expect(counted.repeatedMessageIds).toEqual([]);
    expect(counted.messageIds).toBe(50);
    const [outbox] = await runSql<{ sent: string; attempts: string }>(
      databaseUrl,
      "SELECT count(*) FILTER (WHERE status = 'sent') AS sent, min(attempts) AS attempts FROM mail_outbox WHERE kind = 'account.verify-email'",
    );
    expect(outbox?.sent).toBe('50');
    // Each was refused more than once before the inbox came back: the back-off did the work.
    expect(Number(outbox?.attempts)).toBeGreaterThan(2);
    console.warn(
      `SMTP outage: 50 mails delivered once each, ${(deliveredAfterMs / 1000).toFixed(1)} s after SMTP returned`,
    );
  }, 240_000);

  it('delivers each of 20 mails once after a SIGKILL mid-send and a restart', async (context) => {
    const { startServer, startInbox, forget } = rigFor(context);
    const databaseUrl = await createDatabase(database.adminUrl, 'jobs_sigkill');
    // A slow mail server: 2 s between a message's data and its 250.
    const inbox = await startInbox({ acceptDelayMs: 2_000 });
    const env = { SMTP_URL: inbox.url, JOB_WORKER_STALE_MS: '3000' };
    const first = await startServer(databaseUrl, env);

    const emails = await register(first.server.baseUrl, 'killed', 20);
    // Some delivered, some mid-send (their data arrived, their 250 not yet sent).
    await until(() => inbox.messages.length >= 3 && inbox.receiving() >= 2, 60_000, 10);
    // The kill lands outside the one window SMTP cannot close (a 250 on the wire as the sender
    // dies: the mail arrived, the sender never learns it, and sends it again). The inbox answers
    // nothing more, and the kill waits until every mail it did accept is recorded as sent.
    inbox.holdAnswers();
    await until(async () => (await sentCount(databaseUrl)) === inbox.messages.length, 10_000, 10);
    const inFlight = inbox.receiving();
    const pid = first.server.child.pid;
    if (!pid) throw new Error('the server has no pid');
    process.kill(pid, 'SIGKILL');
    const exit = await first.server.exited;
    expect(exit.signal).toBe('SIGKILL');
    forget(first.server);
    // The dead server's connections are closed: the held mails are dropped, never kept.
    await until(() => inbox.openConnections() === 0, 10_000, 10);
    inbox.releaseAnswers();
    const beforeRestart = countDeliveries(inbox.messages, emails).recipients;
    expect(beforeRestart).toBeLessThan(20);

    // Same data folder and database; its workers find the dead ones silent after 3 s and unlock their jobs.
    const restartedAt = Date.now();
    await startServer(databaseUrl, env, first.dataDir);
    await until(() => countDeliveries(inbox.messages, emails).recipients === 20, 90_000, 100);
    const deliveredAfterMs = Date.now() - restartedAt;
    await until(() => mailSettled(databaseUrl), 30_000, 100);

    // The mails cut off mid-send were dropped by the inbox (no 250 reached the dead client)...
    expect(inbox.dropped()).toBeGreaterThanOrEqual(1);
    // ...and sent again after the restart, each exactly once.
    const counted = countDeliveries(inbox.messages, emails);
    expect(counted.repeatedRecipients).toEqual([]);
    expect(counted.repeatedMessageIds).toEqual([]);
    expect(counted.recipients).toBe(20);
    expect(counted.messageIds).toBe(20);
    console.warn(
      `SIGKILL: ${inFlight} mails mid-send, ${beforeRestart} delivered before the kill, all 20 once each ${(deliveredAfterMs / 1000).toFixed(1)} s after the restart`,
    );
  }, 180_000);

  it('two instances sweeping the same due reminders make one notification and one mail per reminder for 200 transactions', async (context) => {
    const { startServer, startInbox } = rigFor(context);
    const databaseUrl = await createDatabase(database.adminUrl, 'jobs_reminders');
    const inbox = await startInbox({});
    const env = { SMTP_URL: inbox.url };
    // Sequentially: the first applies the migrations, the second finds them applied.
    const a = (await startServer(databaseUrl, env)).server;
    const b = (await startServer(databaseUrl, env)).server;
    const instances = [a, b];

    const owner = await signIn(a.baseUrl, OWNER.email, OWNER.password);
    const agents = await createAgents(a.baseUrl, owner, 4, 'reminded');
    const { zone, today } = zoneAfterEightToday();
    // The key date is tomorrow in the agent's zone and reminders come one day before: today 08:00, past.
    const keyDate = nextDay(today);
    for (const agent of agents) {
      const settings = (await expectStatus(
        timedCall(a.baseUrl, 'GET', `/api/settings/notifications/${agent.id}`, { token: agent.token }),
        200,
      )) as Record<string, unknown>;
      await expectStatus(
        timedCall(a.baseUrl, 'PUT', `/api/settings/notifications/${agent.id}`, {
          token: agent.token,
          json: { ...settings, timezone: zone, reminderDays: [1] },
        }),
        200,
      );
    }

    type Opened = { id: string; address: string; agent: SignedIn; n: number };
    const opened: Opened[] = [];
    for (let n = 0; n < 200; n++) {
      const agent = agents[n % agents.length] as SignedIn;
      const address = `${n + 1} Reminder Lane`;
      const instance = instances[n % 2] as ServerProcess;
      const transaction = await openTransaction(instance.baseUrl, agent.token, { streetAddress: address });
      opened.push({ id: transaction._id, address, agent, n });
    }

    // The dates, half through each instance, in parallel pairs: each PUT makes a due reminder and
    // asks for an immediate sweep; extra sweeps on both instances race for the same rows.
    const extraSweeps = async () =>
      runSql(
        databaseUrl,
        "SELECT graphile_worker.add_job('reminders:sweep', '{}'::json) FROM generate_series(1, 4)",
      );
    for (let i = 0; i < opened.length; i += 2) {
      await Promise.all(
        opened
          .slice(i, i + 2)
          .map((transaction) =>
            expectStatus(
              timedCall(
                (instances[transaction.n % 2] as ServerProcess).baseUrl,
                'PUT',
                `/api/transactions/${transaction.id}/dates`,
                { token: transaction.agent.token, json: { dates: [{ kind: 'inspection', date: keyDate }] } },
              ),
              200,
            ),
          ),
      );
      if (i % 40 === 0) await extraSweeps();
    }
    await extraSweeps();

    const ids = opened.map((transaction) => transaction.id);
    const notificationCount = async () => {
      const [row] = await runSql<{ n: string }>(
        databaseUrl,
        `SELECT count(*) AS n FROM notifications WHERE event = 'keyDate' AND transaction_id = ANY('{${ids.join(',')}}'::uuid[])`,
      );
      return Number(row?.n);
    };
    await until(async () => (await notificationCount()) >= 200, 90_000, 100);
    // Every sweep has finished, and every mail it queued has gone: nothing more can be added.
    await until(
      async () => {
        const [row] = await runSql<{ due: string; sweeps: string }>(
          databaseUrl,
          `SELECT (SELECT count(*) FROM reminders WHERE sent_at IS NULL AND due_at <= now()) AS due,
                (SELECT count(*) FROM graphile_worker.jobs WHERE task_identifier = 'reminders:sweep'
                   AND run_at <= now()) AS sweeps`,
        );
        return row?.due === '0' && row?.sweeps === '0' && (await mailSettled(databaseUrl));
      },
      90_000,
      100,
    );

    const perTransaction = await runSql<{ transaction_id: string; n: string; message: string }>(
      databaseUrl,
      `SELECT transaction_id, count(*) AS n, min(message) AS message FROM notifications
        WHERE event = 'keyDate' AND transaction_id = ANY('{${ids.join(',')}}'::uuid[])
        GROUP BY transaction_id`,
    );
    expect(perTransaction).toHaveLength(200);
    expect(perTransaction.filter((row) => row.n !== '1')).toEqual([]);
    for (const row of perTransaction)
      expect(row.message).toMatch(/^Inspection deadline for \d+ Reminder Lane is in 1 day \(/);

    // One mail per reminder too: each address named in exactly one mail, each Message-ID once.
    const reminderMails = inbox.messages.filter(
      (message) => message.subject.includes('Reminder Lane') || message.text.includes('Reminder Lane'),
    );
    const addresses = reminderMails.map((message) => message.text.match(/(\d+) Reminder Lane/)?.[1]);
    expect(new Set(addresses).size).toBe(200);
    expect(reminderMails).toHaveLength(200);
    expect(new Set(reminderMails.map((message) => message.messageId)).size).toBe(200);

    // How the sweeps were shared between the instances (each counts its runs in /metrics).
    const sweepsOf = async (server: ServerProcess) => {
      const response = await fetch(`${server.baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const text = await response.text();
      const line = text
        .split('\n')
        .find((l) => l.includes('reminders:sweep') && l.includes('outcome="done"'));
      return Number(line?.split(' ').pop() ?? 0);
    };
    const [sweepsA, sweepsB] = await Promise.all([sweepsOf(a), sweepsOf(b)]);
    console.warn(
      `Reminders: 200 notifications and 200 mails, once each; sweeps run: A ${sweepsA}, B ${sweepsB} (zone ${zone})`,
    );
  }, 240_000);
});
