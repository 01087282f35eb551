import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveMessages } from '../../../shared/archive-messages';
import { verifyArchive } from '../../archive/verify';
import type { AppDeps } from '../../deps';
import { PROJECT_ROOT } from '../../paths';
import { bearer, injectUpload } from '../../test/api-calls';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { runTestJobs } from '../../test/jobs';
import { unzip, zipOf } from '../../test/zip-files';
import { purgeExpiredFiles } from '../transactions/purge';
import { sealArchive } from './seal';

/**
 * A closed file's archive, end to end: uploads accepted, the file closed over REST, the job run by
 * the real engine, the zip downloaded and checked by the module, the endpoint and the command line;
 * then tampered with, and the file reopened and closed again.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;
beforeAll(() => {
  deps = testDeps(database.db, { clock });
});
const jobs = runTestJobs(database, () => deps);

let adminToken: string;
let agentToken: string;
let outsiderToken: string;
let agentUser: Awaited<ReturnType<typeof createUser>>;
let transactionId: string;
let publicKey: string;
let folder: string;

async function pdfWithText(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([300, 300]).drawText(`page ${i + 1}`, { x: 20, y: 200 });
  return Buffer.from(await doc.save());
}

const call = (method: 'GET' | 'POST', url: string, token: string) =>
  app.inject({ method, url, headers: bearer(token) });

async function download(token = agentToken, id = transactionId) {
  return app.inject({
    method: 'GET',
    url: `/api/transactions/${id}/archive`,
    headers: bearer(token),
  });
}

async function verifyOverHttp(zip: Buffer) {
  const answer = await injectUpload(app, '/api/archive/verify', outsiderToken, zip, 'archive.zip');
  return { status: answer.statusCode, body: answer.json() };
}

async function verifyOnCommandLine(zip: Buffer) {
  const file = path.join(folder, `archive-${Date.now()}-${Math.random()}.zip`);
  await writeFile(file, zip);
  const keyFile = path.join(folder, 'key.pem');
  await writeFile(keyFile, publicKey);
  const script = path.join(PROJECT_ROOT, 'scripts', 'verify-archive.ts');
  return promisify(execFile)(process.execPath, ['--import', 'tsx', script, file, '--public-key', keyFile], {
    cwd: PROJECT_ROOT,
  }).then(
    ({ stdout }) => ({ code: 0, stdout }),
    (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
  );
}

beforeAll(async () => {
  app = await buildTestApp(deps);
  folder = await mkdtemp(path.join(os.tmpdir(), 'archive-test-'));
  const admin = await createAdmin(database.db);
  const agent = await createUser(database.db);
  const outsider = await createUser(database.db);
  adminToken = await accessTokenFor(admin);
  agentUser = agent;
  agentToken = await accessTokenFor(agent);
  outsiderToken = await accessTokenFor(outsider);
  const transaction = await createTransaction(database.db, {
    userId: agent.id,
    documents: ['Purchase Agreement', 'Agency Disclosure'],
  });
  transactionId = transaction.id;
  for (const [index, form] of transaction.forms.entries()) {
    const upload = await injectUpload(
      app,
      `/api/uploads/transactions/${transactionId}`,
      agentToken,
      await pdfWithText(index + 1),
      `${form.label}.pdf`,
    );
    expect(upload.statusCode).toBe(201);
    const attached = await app.inject({
      method: 'PUT',
      url: `/api/transactions/${transactionId}/forms/${form.id}`,
      headers: bearer(agentToken),
      payload: { url: upload.json().key },
    });
    expect(attached.statusCode, attached.body).toBe(200);
    const review = await app.inject({
      method: 'POST',
      url: `/api/admin/transactions/${transactionId}/forms/${form.id}/comments`,
      headers: bearer(adminToken),
      payload: { status: 'accepted' },
    });
    expect(review.statusCode, review.body).toBe(201);
  }
  publicKey = (await call('GET', '/api/archive/public-key', '')).json().publicKey;
});

afterAll(async () => {
  await app?.close();
  if (folder) await rm(folder, { recursive: true, force: true });
});

describe('the archive of a closed file', () => {
  it('is refused with 409 while the file is open', async () => {
    const answer = await download();
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(archiveMessages.closeFirst);
  });

  it('is being prepared right after the close, then sealed by the job, and verifies', async () => {
    const closed = await call('POST', `/api/admin/transactions/${transactionId}/close`, adminToken);
    expect(closed.statusCode).toBe(200);
    // The job is on the close's transaction: a download before it ran is refused, not broken.
    const early = await download();
    if (early.statusCode === 409) expect(early.json().message).toBe(archiveMessages.beingPrepared);
    await jobs.drain();

    const answer = await download();
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/zip');
    expect(answer.headers['content-disposition']).toMatch(/^attachment; filename="archive-.+\.zip"$/);
    const zip = answer.rawPayload;
    const entries = await unzip(zip);
    const names = [...entries.keys()];
    expect(names).toEqual(
      expect.arrayContaining(['manifest.json', 'manifest.sig', 'audit.json', 'audit.csv', 'file.pdf']),
    );
    const documents = names.filter((name) => name.startsWith('documents/'));
    expect(documents).toEqual([
      expect.stringMatching(/^documents\/1-Purchase-Agreement\/v1-.+\.pdf$/),
      expect.stringMatching(/^documents\/2-Agency-Disclosure\/v1-.+\.pdf$/),
    ]);
    const manifest = JSON.parse(entries.get('manifest.json')?.toString() ?? '');
    expect(manifest).toMatchObject({ transactionId, files: expect.any(Array) });
    expect(manifest.files.map((f: { path: string }) => f.path).sort()).toEqual(
      names.filter((n) => n !== 'manifest.json' && n !== 'manifest.sig').sort(),
    );
    const events = JSON.parse(entries.get('audit.json')?.toString() ?? '');
    expect(events.at(-1).action).toBe('transaction.close');
    expect(manifest.auditHash).toBe(events.at(-1).hash);
    // Contents page, then 1 + 2 pages of the two documents.
    expect((await PDFDocument.load(entries.get('file.pdf') as Buffer)).getPageCount()).toBe(4);
    expect(entries.get('audit.csv')?.toString()).toMatch(/^seq,createdAt,action,/);

    const file = path.join(folder, 'sealed.zip');
    await writeFile(file, zip);
    expect(await verifyArchive(file, publicKey)).toEqual({ valid: true, problems: [] });
    expect(await verifyOverHttp(zip)).toEqual({ status: 200, body: { valid: true, problems: [] } });
    const cli = await verifyOnCommandLine(zip);
    expect(cli.code).toBe(0);
    expect(cli.stdout).toMatch(/: valid\n$/);

    // The status the pages show.
    const status = await app.inject({
      method: 'GET',
      url: `/trpc/archives.status?input=${encodeURIComponent(JSON.stringify({ id: transactionId }))}`,
      headers: bearer(agentToken),
    });
    expect(status.json().result.data).toMatchObject({
      status: 'ready',
      sha256: answer.headers['x-archive-sha256'],
      bytes: zip.length,
    });
  });

  it('names a changed document and a changed manifest', async () => {
    const entries = await unzip((await download()).rawPayload);
    const document = [...entries.keys()].find((name) => name.startsWith('documents/')) as string;
    const flipped = new Map(entries);
    const bytes = Buffer.from(entries.get(document) as Buffer);
    bytes[20] = (bytes[20] ?? 0) ^ 0xff;
    flipped.set(document, bytes);
    const tampered = await zipOf(flipped);
    const http = await verifyOverHttp(tampered);
    expect(http.body).toEqual({ valid: false, problems: [`${document} does not match its sha256`] });
    const cli = await verifyOnCommandLine(tampered);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toContain(`${document} does not match its sha256`);

    const edited = new Map(entries);
    const manifest = JSON.parse(entries.get('manifest.json')?.toString() ?? '');
    edited.set(
      'manifest.json',
      Buffer.from(JSON.stringify({ ...manifest, closedAt: '2020-01-01T00:00:00.000Z' })),
    );
    expect((await verifyOverHttp(await zipOf(edited))).body).toEqual({
      valid: false,
      problems: ['manifest.sig does not match'],
    });

    const missing = new Map(entries);
    missing.delete('audit.csv');
    missing.set('extra.txt', Buffer.from('not listed'));
    expect((await verifyOverHttp(await zipOf(missing))).body.problems).toEqual([
      'audit.csv is missing',
      'extra.txt is not listed in manifest.json',
    ]);
  });

  it('names an audit event whose content or link was changed', async () => {
    const entries = await unzip((await download()).rawPayload);
    const events = JSON.parse(entries.get('audit.json')?.toString() ?? '');
    const last = events.length - 1;
    events[last].hash = 'e'.repeat(64);
    events[last - 1].hash = 'f'.repeat(64);
    const edited = new Map(entries);
    edited.set('audit.json', Buffer.from(JSON.stringify(events)));
    const { problems } = (await verifyOverHttp(await zipOf(edited))).body;
    expect(problems).toContain('audit.json does not match its sha256');
    expect(problems).toContain(`audit.json event ${events[last - 1].seq} does not match its hash`);
    expect(problems).toContain(`audit.json event ${events[last].seq} does not match its hash`);
    if (events[last].seq === events[last - 1].seq + 1)
      expect(problems).toContain(
        `audit.json event ${events[last].seq} does not link to event ${events[last - 1].seq}`,
      );
    expect(problems).toContain('manifest.json auditHash is not the hash of the last event in audit.json');
  });

  it('schedules the archive of a file closed before archives were sealed', async () => {
    const { userId } = await database.db.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    const closedAt = new Date('2026-11-19T10:00:00.000Z');
    const older = await createTransaction(database.db, { userId, documents: [], closedAt });
    const first = await download(agentToken, older.id);
    expect(first.statusCode).toBe(409);
    expect(first.json().message).toBe(archiveMessages.beingPrepared);
    await jobs.drain();
    expect((await download(agentToken, older.id)).statusCode).toBe(200);
    expect(await database.db.transactionArchive.count({ where: { transactionId: older.id } })).toBe(1);
  });

  it('refuses what is not a zip with a 400', async () => {
    const answer = await injectUpload(
      app,
      '/api/archive/verify',
      outsiderToken,
      Buffer.from('%PDF-1.4 no zip'),
    );
    expect(answer.statusCode).toBe(400);
    expect(answer.json().message).toBe(archiveMessages.notAZip);
  });

  it('is 409 "being prepared" for a closed file whose archive is not sealed yet', async () => {
    const agent = await database.db.transaction.findUniqueOrThrow({ where: { id: transactionId } });
    const closedAt = new Date('2026-11-20T10:00:00.000Z');
    const other = await createTransaction(database.db, { userId: agent.userId, documents: [], closedAt });
    await database.db.transactionArchive.create({ data: { transactionId: other.id, closedAt } });
    const answer = await download(agentToken, other.id);
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(archiveMessages.beingPrepared);
  });

  it('is 404 for someone the file does not reach', async () => {
    expect((await download(outsiderToken)).statusCode).toBe(404);
  });

  it('seals a new archive for each close, keeps the old one, and a re-run makes no second', async () => {
    const first = await download();
    clock.advance(60_000);
    expect(
      (await call('POST', `/api/admin/transactions/${transactionId}/reopen`, adminToken)).statusCode,
    ).toBe(200);
    expect((await download()).json().message).toBe(archiveMessages.closeFirst);
    clock.advance(60_000);
    expect(
      (await call('POST', `/api/admin/transactions/${transactionId}/close`, adminToken)).statusCode,
    ).toBe(200);
    await jobs.drain();
    const second = await download();
    expect(second.statusCode).toBe(200);
    expect(second.headers['x-archive-sha256']).not.toBe(first.headers['x-archive-sha256']);
    const rows = await database.db.transactionArchive.findMany({
      where: { transactionId },
      orderBy: { closedAt: 'asc' },
    });
    expect(rows.map((row) => row.status)).toEqual(['sealed', 'sealed']);
    expect(rows[0]?.sha256).toBe(first.headers['x-archive-sha256']);

    // A job run again (a crash after sealing, a retry) leaves each close with its one archive.
    const again = await sealArchive(
      { deps, db: deps.db, ip: 'job', requestId: 'test', log: { info() {}, warn() {}, error() {} } as never },
      { transactionId, closedAt: rows[1]?.closedAt as Date },
    );
    expect(again.sealed).toBe(false);
    expect(await database.db.transactionArchive.count({ where: { transactionId } })).toBe(2);
  });

  it('is purged with the documents once the retention has passed', async () => {
    const sealed = await database.db.transactionArchive.findMany({ where: { transactionId } });
    clock.advance(8 * 366 * 24 * 3600 * 1000);
    await purgeExpiredFiles(serviceContext(deps));
    for (const archive of sealed) expect(await deps.storage.exists(archive.storageKey as string)).toBe(false);
    const answer = await download(await accessTokenFor(agentUser, { now: clock.now() }));
    expect(answer.statusCode).toBe(409);
    expect(answer.json().message).toBe(archiveMessages.purged);
  });
});
