/**
 * The restore drill of docs/DEPLOYMENT.md, section 6, end to end, on a PostgreSQL you name:
 *
 *   DRILL_ADMIN_URL=postgresql://postgres@127.0.0.1:5432/postgres npx tsx scripts/restore-drill.ts
 *
 * The built server (dist/server/main.js) keeps its files in an S3 server (s3rver, run by this
 * script). An agent's transaction gets a document; the database is dumped with pg_dump and the
 * first server stopped; the dump is restored with pg_restore into a new database; a second server
 * starts on the restored database and the same bucket; the agent signs in, opens the transaction
 * and downloads the document byte for byte, and every stored_files row finds its object; the owner
 * checks the audit trail's hash chain (GET /api/admin/audit/verify): valid, every event of the
 * source there, and an event written after the restore chained on. The two databases are dropped
 * at the end. Needs pg_dump and pg_restore of the server's major version
 * (or newer) on PATH and a role that may create databases.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  buildServerBundle,
  type ServerProcess,
  startBuiltServer,
  stopBuiltServer,
} from '../server/test/built-server';
import { createDatabase, dropDatabase, runSql } from '../server/test/databases';
import {
  AGENT_PASSWORD,
  createAgents,
  expectStatus,
  openTransaction,
  signIn,
  timedCall,
} from '../server/test/rest-client';
import { startS3TestServer } from '../server/test/s3-server';
import { auditStoredFilesInBucket } from '../server/test/stored-files-audit';

type AuditChain = { valid: boolean; events: number; firstBrokenId: string | null };

/**
 * The audit trail came through whole: every event of the source, its chain valid (pg_restore
 * loads the rows before it creates the triggers, so none is chained twice), and the next event,
 * written by the restored portal, chained after them.
 */
async function checkAuditChain(baseUrl: string, sourceEvents: number, agentToken: string): Promise<void> {
  const owner = await signIn(baseUrl, OWNER.email, OWNER.password);
  const verify = async () =>
    (await expectStatus(
      timedCall(baseUrl, 'GET', '/api/admin/audit/verify', { token: owner.token }),
      200,
    )) as AuditChain;
  const restored = await verify();
  if (!restored.valid || restored.events !== sourceEvents) {
    throw new Error(
      `the restored audit chain is not the source's ${sourceEvents} events: ${JSON.stringify(restored)}`,
    );
  }
  await openTransaction(baseUrl, agentToken, {
    streetAddress: '2 Restore Road',
    type: 'Listing',
    role: 'Seller',
  });
  const after = await verify();
  if (!after.valid || after.events <= sourceEvents) {
    throw new Error(`an event written after the restore did not join the chain: ${JSON.stringify(after)}`);
  }
  log(
    `audit chain: ${restored.events} events valid after the restore, ${after.events} and valid after one more change`,
  );
}

const adminUrl = process.env.DRILL_ADMIN_URL;
if (!adminUrl) {
  console.error(
    'Set DRILL_ADMIN_URL to a PostgreSQL role that may create databases, e.g. postgresql://postgres@127.0.0.1:5432/postgres',
  );
  process.exit(2);
}

const started = Date.now();
const log = (message: string) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
const timed = <T>(work: () => T): { result: T; ms: number } => {
  const t0 = Date.now();
  const result = work();
  return { result, ms: Date.now() - t0 };
};

const suffix = randomBytes(4).toString('hex');
const sourceName = `drill_source_${suffix}`;
const restoredName = `drill_restored_${suffix}`;
const OWNER = { email: 'owner@drill.test', password: 'Drill-owner-password-1' };
const folder = await mkdtemp(path.join(tmpdir(), 'portal-restore-drill-'));
const s3 = await startS3TestServer();
const servers: ServerProcess[] = [];
const serverEnv = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  JWT_SECRET: `restore-drill-secret-${suffix}-0123456789abcdef`,
  ADMIN_EMAIL: OWNER.email,
  ADMIN_PASSWORD: OWNER.password,
  SEED_DEMO: 'false',
  LOG_LEVEL: 'info',
  ...s3.environment,
});
let failed = false;

try {
  log('building the server bundle');
  await buildServerBundle();
  const sourceUrl = await createDatabase(adminUrl, sourceName);
  const version = await runSql<{ server_version: string }>(sourceUrl, 'SHOW server_version');
  log(
    `PostgreSQL ${version[0]?.server_version}; pg_dump ${execFileSync('pg_dump', ['--version']).toString().trim()}`,
  );

  const first = await startBuiltServer(serverEnv(sourceUrl), folder);
  servers.push(first);
  const admin = await signIn(first.baseUrl, OWNER.email, OWNER.password);
  const [agent] = await createAgents(first.baseUrl, admin, 1, 'drill');
  if (!agent) throw new Error('no agent');
  const created = await openTransaction(first.baseUrl, agent.token, {
    streetAddress: '1 Restore Road',
    type: 'Listing',
    role: 'Seller',
  });
  const formId = created.forms[0]?._id ?? '';
  const document = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(256 * 1024)]);
  const form = new FormData();
  form.append('file', new Blob([document], { type: 'application/pdf' }), 'Listing agreement.pdf');
  const uploaded = (await expectStatus(
    timedCall(first.baseUrl, 'POST', `/api/uploads/transactions/${created._id}`, {
      token: agent.token,
      form,
    }),
    201,
  )) as { key: string };
  await expectStatus(
    timedCall(first.baseUrl, 'PUT', `/api/transactions/${created._id}/forms/${formId}`, {
      token: agent.token,
      json: { url: uploaded.key },
    }),
    200,
  );
  log(`source: an agent's transaction with a 256 KiB document in the bucket (${uploaded.key})`);

  const [{ events: sourceEvents = 0 } = {}] = await runSql<{ events: number }>(
    sourceUrl,
    'SELECT count(*)::int AS events FROM audit_events',
  );

  const dumpFile = path.join(folder, 'portal.dump');
  const dump = timed(() =>
    execFileSync('pg_dump', ['--format=custom', '--no-owner', `--file=${dumpFile}`, sourceUrl], {
      stdio: 'inherit',
    }),
  );
  log(`pg_dump --format=custom: ${dump.ms} ms`);
  await stopBuiltServer(first);
  servers.pop();
  log('the first server is stopped: from here on only the dump and the bucket are left');

  const restoredUrl = await createDatabase(adminUrl, restoredName);
  const restore = timed(() =>
    execFileSync('pg_restore', ['--no-owner', `--dbname=${restoredUrl}`, dumpFile], { stdio: 'inherit' }),
  );
  log(`pg_restore into a new database: ${restore.ms} ms`);

  const second = await startBuiltServer(serverEnv(restoredUrl), folder);
  servers.push(second);
  if (!second.output().includes('Database schema is up to date'))
    throw new Error('the restored schema was not recognised');
  await expectStatus(timedCall(second.baseUrl, 'GET', '/readyz'), 200);
  const again = await signIn(second.baseUrl, agent.email, AGENT_PASSWORD);
  const detail = (await expectStatus(
    timedCall(second.baseUrl, 'GET', `/api/transactions/individual/${created._id}/${again.id}`, {
      token: again.token,
    }),
    200,
  )) as { forms: Array<{ _id: string; url: string }> };
  const link = detail.forms.find((f) => f._id === formId)?.url ?? '';
  const downloaded = Buffer.from(await (await fetch(link)).arrayBuffer());
  if (!downloaded.equals(document))
    throw new Error('the restored portal served other bytes than were uploaded');
  const audit = await auditStoredFilesInBucket(restoredUrl, s3);
  if (audit.rowsWithoutFile.length || audit.formKeysWithoutFile.length) {
    throw new Error(`files missing from the bucket: ${JSON.stringify(audit)}`);
  }
  log(
    `restored: schema up to date, /readyz 200, the agent signed in, the document downloaded byte for byte, ` +
      `${audit.rows} stored_files rows all in the bucket`,
  );
  await checkAuditChain(second.baseUrl, sourceEvents, again.token);
  log('restore drill passed');
} catch (error) {
  failed = true;
  console.error(`restore drill failed: ${(error as Error).message}`);
  for (const server of servers) console.error(server.output().slice(-3000));
} finally {
  for (const server of servers) await stopBuiltServer(server);
  await dropDatabase(adminUrl, sourceName).catch(() => {});
  await dropDatabase(adminUrl, restoredName).catch(() => {});
  await s3.close();
  await rm(folder, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
