import { createHash } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { injectUpload, TINY_PDF as PDF, startUnfinishedUpload } from '../test/api-calls';
import { accessTokenFor, createOwner, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';
import { captureLogs } from '../test/log-capture';
import { type S3TestServer, startS3TestServer } from '../test/s3-server';
import {
  auditStoredFilesInBucket,
  STORAGE_AND_ROWS_AGREE,
  whileStoredFileRowsRefused,
} from '../test/stored-files-audit';
import { until } from '../test/until';

/**
 * The upload and download paths of the API with STORAGE_DRIVER=s3, against s3rver: what
 * uploads.test.ts and the files cases of transactions.test.ts and libraries.test.ts prove for the
 * local driver, with the bucket in place of the uploads folder and presigned links in place of
 * /files links.
 */

const database = setupTestDatabase();
// The real time: s3rver judges a presigned link's expiry by its own clock.
const clock = new TestClock(new Date());
const MiB = 1024 * 1024;
let s3: S3TestServer;
let deps: AppDeps;
let app: FastifyInstance;
let agent: { id: string; token: string };
let owner: { id: string; token: string };

beforeAll(async () => {
  s3 = await startS3TestServer();
  deps = testDeps(database.db, {
    clock,
    config: testConfig({ maxUploadBytes: 8 * MiB }),
    storage: s3.storage(clock),
  });
  app = buildTestApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const agentRow = await createUser(database.db);
  agent = { id: agentRow.id, token: await accessTokenFor(agentRow, { now: clock.now() }) };
  const ownerRow = await createOwner(database.db);
  owner = { id: ownerRow.id, token: await accessTokenFor(ownerRow, { now: clock.now() }) };
});
afterAll(async () => {
  await app?.close();
  await s3?.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const upload = (url: string, token: string, file: Buffer, filename = 'contract.pdf', on = app) =>
  injectUpload(on, url, token, file, filename);

function call(method: 'GET' | 'POST' | 'PUT', url: string, token: string, payload?: object) {
  return app.inject({ method, url, payload, headers: { authorization: `Bearer ${token}` } });
}

async function download(url: string) {
  const res = await fetch(url);
  return {
    status: res.status,
    body: Buffer.from(await res.arrayBuffer()),
    contentType: res.headers.get('content-type'),
    contentDisposition: res.headers.get('content-disposition'),
  };
}

const inBucket = (transactionId: string) => s3.objectKeys({ prefix: `transactions/${transactionId}/` });
const rowsOf = (transactionId: string) => database.db.storedFile.count({ where: { transactionId } });

describe('uploads to S3 through the API', () => {
  it('201 with a presigned link that downloads the same bytes, inline, by name; the stored_files row', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await upload(
      `/api/uploads/transactions/${transaction.id}`,
      agent.token,
      PDF,
      'Deed (final).pdf',
    );
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer).toMatchObject({
      name: 'Deed-final.pdf',
      size: PDF.length,
      contentType: 'application/pdf',
    });
    expect(answer.url.startsWith(`${s3.endpoint}/${s3.bucket}/${answer.key}?`)).toBe(true);
    expect(await inBucket(transaction.id)).toEqual([answer.key]);
    expect(await database.db.storedFile.findUniqueOrThrow({ where: { key: answer.key } })).toMatchObject({
      size: PDF.length,
      contentType: 'application/pdf',
      uploadedBy: agent.id,
      transactionId: transaction.id,
    });

    const file = await download(answer.url);
    expect(file.status).toBe(200);
    expect(file.body.equals(PDF)).toBe(true);
    expect(file.contentType).toBe('application/pdf');
    expect(file.contentDisposition).toMatch(/^inline; filename="Deed-final\.pdf"/);
  });

  it('a file above the part size goes up as a multipart upload and comes back byte for byte', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const bytes = Buffer.concat([PDF, Buffer.alloc(7 * MiB, 0x5a)]);
    const res = await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, bytes, 'scan.pdf');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().size).toBe(bytes.length);
    const file = await download(res.json().url);
    expect(sha256(file.body)).toBe(sha256(bytes));
    expect(await s3.pendingUploads()).toEqual([]);
  });

  it('the presigned link attaches to a form (and a foreign one does not); the form lists a fresh link', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const other = await createTransaction(database.db, { userId: agent.id });
    const formId = transaction.forms[0]?.id ?? '';
    const answer = (await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF)).json();
    const foreign = (await upload(`/api/uploads/transactions/${other.id}`, agent.token, PDF)).json();

    const refused = await call('PUT', `/api/transactions/${transaction.id}/forms/${formId}`, agent.token, {
      url: foreign.url,
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(apiMessages.fileNotOfTransaction);

    const attached = await call('PUT', `/api/transactions/${transaction.id}/forms/${formId}`, agent.token, {
      url: answer.url,
    });
    expect(attached.statusCode, attached.body).toBe(200);
    expect((await database.db.transactionForm.findUniqueOrThrow({ where: { id: formId } })).fileKey).toBe(
      answer.key,
    );
    const link = attached.json().url as string;
    expect(link.startsWith(`${s3.endpoint}/${s3.bucket}/${answer.key}?`)).toBe(true);
    expect((await download(link)).body.equals(PDF)).toBe(true);
  });

  it('a library form takes the presigned link of its upload and lists a presigned link', async () => {
    const uploaded = await upload('/api/uploads/forms', owner.token, PDF, 'Buyer Checklist.pdf');
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const created = await call('POST', '/api/forms', owner.token, {
      name: 'Buyer Checklist',
      link: uploaded.json().url,
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(
      (await database.db.libraryItem.findUniqueOrThrow({ where: { id: created.json()._id } })).link,
    ).toBe(uploaded.json().key);
    const file = await download(created.json().link);
    expect(file.status).toBe(200);
    expect(file.body.equals(PDF)).toBe(true);
  });

  it('415 and 413 leave nothing in the bucket, no pending upload and no row', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const refused = await upload(
      `/api/uploads/transactions/${transaction.id}`,
      agent.token,
      Buffer.from('MZ\x90\x00'),
      'invoice.pdf',
    );
    expect(refused.statusCode).toBe(415);

    // Over the 8 MiB limit: the first 8 MiB reach S3 (two parts) before the limit is seen.
    const tooLarge = await upload(
      `/api/uploads/transactions/${transaction.id}`,
      agent.token,
      Buffer.concat([PDF, Buffer.alloc(8 * MiB + 100 * 1024, 1)]),
    );
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().code).toBe('PAYLOAD_TOO_LARGE');
    expect(await inBucket(transaction.id)).toEqual([]);
    expect(await s3.pendingUploads()).toEqual([]);
    expect(await rowsOf(transaction.id)).toBe(0);
  });

  it('a client that hangs up mid-upload leaves nothing: no object, no pending upload, no row; the server carries on', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const socket = await startUnfinishedUpload({
      port: (app.server.address() as AddressInfo).port,
      path: `/api/uploads/transactions/${transaction.id}`,
      token: agent.token,
      declaredBytes: 7.5 * MiB,
      // Past the first 5 MiB part, so the multipart upload is under way when the client goes away.
      fillerBytes: 6 * MiB,
    });
    await until(async () => (await s3.pendingUploads()).some((key) => key.includes(transaction.id)), 10_000);
    socket.destroy();

    await until(async () => (await s3.pendingUploads()).length === 0, 10_000);
    expect(await inBucket(transaction.id)).toEqual([]);
    expect(await rowsOf(transaction.id)).toBe(0);
    const after = await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF);
    expect(after.statusCode).toBe(201);
    expect(await inBucket(transaction.id)).toEqual([after.json().key]);
  });

  it('when the database refuses the row, the object is removed from the bucket again and the answer is 503', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await whileStoredFileRowsRefused(database.url, () =>
      upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    expect(await inBucket(transaction.id)).toEqual([]);
    expect(await rowsOf(transaction.id)).toBe(0);
  });

  it('S3 refusing the credentials: 503 "file storage is unavailable", no row, and no credential in the log', async () => {
    const secret = 'refused-secret-never-to-be-logged';
    const logs = captureLogs({ level: 'info' });
    const refusing = buildTestApp(
      { ...deps, storage: s3.storage(clock, { accessKeyId: 'REFUSED-KEY-ID', secretAccessKey: secret }) },
      { loggerInstance: logs.logger },
    );
    try {
      const transaction = await createTransaction(database.db, { userId: agent.id });
      const res = await upload(
        `/api/uploads/transactions/${transaction.id}`,
        agent.token,
        PDF,
        'x.pdf',
        refusing,
      );
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({
        message: apiMessages.storageUnavailable,
        code: 'SERVICE_UNAVAILABLE',
        error: 'service-unavailable',
      });
      expect(await rowsOf(transaction.id)).toBe(0);
      const failure = logs.entries().find((entry) => entry.msg === 'request failed');
      expect(failure?.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(logs.lines.join('\n')).not.toMatch(/refused-secret|REFUSED-KEY-ID|X-Amz-Signature=[0-9a-f]/);
    } finally {
      await refusing.close();
    }
  });

  it('afterwards the bucket and stored_files agree: no object without its row, none half-written', async () => {
    const audit = await auditStoredFilesInBucket(database.url, s3);
    expect(audit).toMatchObject(STORAGE_AND_ROWS_AGREE);
    expect(audit.files).toBeGreaterThanOrEqual(6);
  });
});
