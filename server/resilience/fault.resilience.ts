import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, onTestFailed, test } from 'vitest';
import { type PortalStack, startPortalStack, summariseServerLog } from '../test/built-server';
import { withAdminClient } from '../test/databases';
import {
  type CallOptions,
  createAgents,
  pdfForm,
  type SignedIn,
  signIn,
  type TimedAnswer,
  timedCall,
} from '../test/rest-client';
import { auditStoredFiles, STORAGE_AND_ROWS_AGREE } from '../test/stored-files-audit';

/**
 * PostgreSQL stops for 5 s under load and comes back. The server is the built
 * bundle in a process of its own; client loops keep creating transactions, commenting, uploading
 * and attaching files, and reading, through the REST API the whole time. Afterwards:
 * - every request sent during the outage was answered 503 within 2 s (none hung);
 * - the server process never exited (and still shuts down cleanly at the end);
 * - a request succeeded within 5 s of the database's return, and every kind of write did again;
 * - every write answered 2xx is in the database; files and rows agree, no `.partial` left over.
 */

const AGENTS = 3;
const CLIENT_LOOPS = 6;
const LOAD_BEFORE_OUTAGE_MS = 3_000;
const OUTAGE_MS = 5_000;
const LOAD_AFTER_RETURN_MS = 6_000;
/** The bounds an outage must keep: answers within 2 s during it, recovery within 5 s after. */
const OUTAGE_ANSWER_LIMIT_MS = 2_000;
const RECOVERY_LIMIT_MS = 5_000;

type Op = 'create' | 'comment' | 'upload' | 'attach' | 'list' | 'detail';
type Outcome = TimedAnswer & { op: Op };

/** Writes the server answered 2xx: each must be found in the database afterwards. */
type Confirmed = {
  transactions: string[];
  comments: string[];
  uploads: string[];
  attachments: Array<{ formId: string; key: string }>;
};

let stack: PortalStack | undefined;
beforeAll(async () => {
  // No per-IP limit: six busy loops from one address would otherwise be answered 429.
  stack = await startPortalStack({ RATE_LIMIT_PER_MIN: '0' });
});
afterAll(async () => {
  await stack?.close();
});

const isSuccess = (status: number) => status >= 200 && status < 300;

function pickOne<T>(items: readonly T[]): T {
  const item = items[Math.floor(Math.random() * items.length)];
  if (item === undefined) throw new Error('picked from an empty list');
  return item;
}

function describeOutcome(o: Outcome, origin: number): string {
  const at = Math.round(o.sentAt - origin);
  return `${o.op} sent at +${at} ms: ${o.status || o.failure} after ${Math.round(o.ms)} ms`;
}

/**
 * One client: an agent working through their own transactions as fast as answers come, pausing
 * 20 ms after a 503 as a polite client would.
 */
async function clientLoop(
  baseUrl: string,
  agent: SignedIn,
  keepGoing: () => boolean,
  outcomes: Outcome[],
  confirmed: Confirmed,
): Promise<void> {
  const mine: Array<{ id: string; formIds: string[] }> = [];
  const call = async (op: Op, method: 'GET' | 'POST' | 'PUT', path: string, options: CallOptions) => {
    const answer = await timedCall(baseUrl, method, path, options);
    outcomes.push({ ...answer, op });
    return answer;
  };
  for (let n = 1; keepGoing(); n++) {
    const op: Op = mine.length === 0 ? 'create' : pickOne(['create', 'comment', 'upload', 'list', 'detail']);
    const target = mine.length ? pickOne(mine) : undefined;
    const formId = target ? pickOne(target.formIds) : '';
    let answer: TimedAnswer;
    if (op === 'create' || !target) {
      answer = await call('create', 'POST', '/api/transactions', {
        token: agent.token,
        json: {
          streetAddress: `${n} Outage Road`,
          city: 'Faultline',
          state: 'CA',
          zip: '94105',
          type: 'Listing',
          role: 'Seller',
        },
      });
      if (isSuccess(answer.status)) {
        const created = answer.body as { _id: string; forms: Array<{ _id: string }> };
        confirmed.transactions.push(created._id);
        mine.push({ id: created._id, formIds: created.forms.map((form) => form._id) });
      }
    } else if (op === 'comment') {
      answer = await call('comment', 'POST', `/api/transactions/${target.id}/forms/${formId}/comments`, {
        token: agent.token,
        json: { text: `Comment ${n} from ${agent.email}` },
      });
      if (isSuccess(answer.status)) confirmed.comments.push((answer.body as { _id: string })._id);
    } else if (op === 'upload') {
      answer = await call('upload', 'POST', `/api/uploads/transactions/${target.id}`, {
        token: agent.token,
        form: pdfForm(`contract-${n}.pdf`),
      });
      if (isSuccess(answer.status)) {
        const { key } = answer.body as { key: string };
        confirmed.uploads.push(key);
        answer = await call('attach', 'PUT', `/api/transactions/${target.id}/forms/${formId}`, {
          token: agent.token,
          json: { url: key },
        });
        if (isSuccess(answer.status)) confirmed.attachments.push({ formId, key });
      }
    } else if (op === 'list') {
      answer = await call('list', 'GET', `/api/transactions/${agent.id}`, { token: agent.token });
    } else {
      answer = await call('detail', 'GET', `/api/transactions/individual/${target.id}/${agent.id}`, {
        token: agent.token,
      });
    }
    if (answer.status === 503) await sleep(20);
  }
}

test('a 5 s database outage under load: prompt 503s, the process stays up, quick recovery, no write lost, files and rows agree', async () => {
  if (!stack) throw new Error('the stack did not start');
  const started = stack;
  onTestFailed(() =>
    console.warn(`Server log of the failed run:\n${summariseServerLog(started.server.output())}`),
  );
  const { baseUrl } = stack.server;
  const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
  const agents = await createAgents(baseUrl, owner, AGENTS, 'fault');

  const outcomes: Outcome[] = [];
  const confirmed: Confirmed = { transactions: [], comments: [], uploads: [], attachments: [] };
  let running = true;
  const origin = performance.now();
  const loops = Array.from({ length: CLIENT_LOOPS }, (_, i) =>
    clientLoop(baseUrl, agents[i % AGENTS] as SignedIn, () => running, outcomes, confirmed),
  );

  await sleep(LOAD_BEFORE_OUTAGE_MS);
  const stopBegan = performance.now();
  await stack.stopDatabase();
  const downAt = performance.now();
  await sleep(OUTAGE_MS / 2);
  const liveness = await timedCall(baseUrl, 'GET', '/healthz');
  const readiness = await timedCall(baseUrl, 'GET', '/readyz');
  await sleep(Math.max(0, downAt + OUTAGE_MS - performance.now()));
  const restartBegan = performance.now();
  await stack.startDatabase();
  const upAt = performance.now();
  await sleep(LOAD_AFTER_RETURN_MS);
  running = false;
  await Promise.all(loops);

  // Every request got an HTTP answer, and only success or 503 (never a 500, never a refusal).
  const listed = (list: Outcome[]) => list.map((o) => describeOutcome(o, origin));
  expect(listed(outcomes.filter((o) => !isSuccess(o.status) && o.status !== 503))).toEqual([]);

  // Answered within 2 s: every request sent while the database was away, and those it cut off
  // mid-way as it stopped.
  const meanwhile = outcomes.filter((o) => o.answeredAt >= stopBegan && o.sentAt < restartBegan);
  const worstOutageMs = Math.max(...meanwhile.map((o) => o.ms));
  expect(listed(meanwhile.filter((o) => o.ms >= OUTAGE_ANSWER_LIMIT_MS))).toEqual([]);
  // Sent during the outage: 503. One sent just before the restart may meet the database back
  // and succeed; that is not a failure of the outage handling.
  const duringOutage = outcomes.filter((o) => o.sentAt >= downAt && o.sentAt < restartBegan);
  expect(duringOutage.length).toBeGreaterThan(50);
  expect(
    listed(
      duringOutage.filter((o) => o.status !== 503 && !(o.answeredAt >= restartBegan && isSuccess(o.status))),
    ),
  ).toEqual([]);
  expect({ liveness: liveness.status, readiness: readiness.status }).toEqual({
    liveness: 200,
    readiness: 503,
  });
  expect(readiness.ms).toBeLessThan(OUTAGE_ANSWER_LIMIT_MS);
  expect(stack.server.isRunning()).toBe(true);

  // Back within 5 s of the database's return, for reads and for every kind of write.
  const firstSuccessAfterReturn = Math.min(
    ...outcomes.filter((o) => isSuccess(o.status) && o.sentAt >= restartBegan).map((o) => o.answeredAt),
  );
  const recoveryMs = Math.max(0, firstSuccessAfterReturn - upAt);
  expect(recoveryMs).toBeLessThan(RECOVERY_LIMIT_MS);
  const writesAfterReturn = new Set(
    outcomes.filter((o) => isSuccess(o.status) && o.sentAt >= upAt).map((o) => o.op),
  );
  expect(['create', 'comment', 'upload', 'attach'].filter((op) => !writesAfterReturn.has(op as Op))).toEqual(
    [],
  );
  expect((await timedCall(baseUrl, 'GET', '/readyz')).status).toBe(200);

  // Every write answered 2xx is in the database.
  const lost = await withAdminClient(stack.databaseUrl, async (client) => {
    const missing = async (sql: string, values: unknown[]) => (await client.query(sql, values)).rows;
    return {
      transactions: await missing('SELECT unnest($1::uuid[]) AS id EXCEPT SELECT id FROM transactions', [
        confirmed.transactions,
      ]),
      comments: await missing('SELECT unnest($1::uuid[]) AS id EXCEPT SELECT id FROM comments', [
        confirmed.comments,
      ]),
      uploads: await missing('SELECT unnest($1::text[]) AS key EXCEPT SELECT key FROM stored_files', [
        confirmed.uploads,
      ]),
      // The audit row is written in the attaching transaction: it proves that write committed,
      // even where a later attachment to the same form has replaced its file_key since.
      attachments: await missing(
        `SELECT f.form_id, f.key FROM unnest($1::uuid[], $2::text[]) AS f(form_id, key)
         WHERE NOT EXISTS (SELECT 1 FROM audit_events a WHERE a.action = 'form.upload'
           AND a.entity_id = f.form_id AND a.after->>'fileKey' = f.key)`,
        [confirmed.attachments.map((a) => a.formId), confirmed.attachments.map((a) => a.key)],
      ),
    };
  });
  expect(lost).toEqual({ transactions: [], comments: [], uploads: [], attachments: [] });

  // No file without its row, no row without its file, nothing half-written.
  const files = await auditStoredFiles(stack.databaseUrl, stack.dataDir);
  expect(files).toMatchObject(STORAGE_AND_ROWS_AGREE);
  expect(files.files).toBeGreaterThanOrEqual(confirmed.uploads.length);

  const figures = {
    requests: outcomes.length,
    succeeded: outcomes.filter((o) => isSuccess(o.status)).length,
    answered503: outcomes.filter((o) => o.status === 503).length,
    databaseStopMs: Math.round(downAt - stopBegan),
    databaseStartMs: Math.round(upAt - restartBegan),
    sentDuringOutage: duringOutage.length,
    answeredMeanwhile: meanwhile.length,
    worstOutageMs: Math.round(worstOutageMs),
    recoveryMs: Math.round(recoveryMs),
    confirmedWrites: {
      transactions: confirmed.transactions.length,
      comments: confirmed.comments.length,
      uploads: confirmed.uploads.length,
      attachments: confirmed.attachments.length,
    },
    lostWrites: 0,
    filesOnDisk: files.files,
    storedFileRows: files.rows,
  };
  process.stdout.write(
    `\nFault run (database down ${OUTAGE_MS / 1000} s): ${JSON.stringify(figures, null, 2)}\n`,
  );

  // Still healthy enough to shut down in order: SIGTERM, exit code 0.
  expect(await stack.close()).toBe(0);
});
