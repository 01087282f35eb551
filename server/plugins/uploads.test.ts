import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { injectUpload, TINY_PDF as PDF, startUnfinishedUpload } from '../test/api-calls';
import { accessTokenFor, createOwner, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TEST_DATA_DIR, TestClock, testDeps } from '../test/harness';
import { type MultipartPart, multipartPayload } from '../test/hostile-inputs';
import { whileStoredFileRowsRefused } from '../test/stored-files-audit';
import { until } from '../test/until';

/**
 * Files and their rows: every stored file has its stored_files row, a refused or
 * broken upload leaves neither, and a client that hangs up mid-upload leaves nothing behind.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;
let agent: { id: string; token: string };
let owner: { id: string; token: string };

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const agentRow = await createUser(database.db);
  agent = { id: agentRow.id, token: await accessTokenFor(agentRow, { now: clock.now() }) };
  const ownerRow = await createOwner(database.db);
  owner = { id: ownerRow.id, token: await accessTokenFor(ownerRow, { now: clock.now() }) };
});
afterAll(() => app.close());

const upload = (url: string, token: string, file: Buffer) => injectUpload(app, url, token, file);

const folderOf = (transactionId: string) =>
  path.join(TEST_DATA_DIR, 'uploads', 'transactions', transactionId);
const filesIn = (folder: string) => readdir(folder).catch(() => [] as string[]);

describe('stored files', () => {
  it('an upload records its file: key, size, type, uploader and transaction', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF);
    expect(res.statusCode, res.body).toBe(201);
    const row = await database.db.storedFile.findUniqueOrThrow({ where: { key: res.json().key } });
    expect(row).toMatchObject({
      size: PDF.length,
      contentType: 'application/pdf',
      uploadedBy: agent.id,
      transactionId: transaction.id,
    });

    const library = await upload('/api/uploads/forms', owner.token, PDF);
    expect(library.statusCode, library.body).toBe(201);
    expect(
      await database.db.storedFile.findUniqueOrThrow({ where: { key: library.json().key } }),
    ).toMatchObject({ uploadedBy: owner.id, transactionId: null });
  });

  it('when the database refuses the row, the file is removed again and the answer is 503', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await whileStoredFileRowsRefused(database.url, () =>
      upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
    expect(res.body).not.toContain('shutting down');
    expect(await filesIn(folderOf(transaction.id))).toEqual([]);
    expect(await database.db.storedFile.count({ where: { transactionId: transaction.id } })).toBe(0);
  });

  it('a refused type leaves no row and no file', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await upload(
      `/api/uploads/transactions/${transaction.id}`,
      agent.token,
      Buffer.from('MZ\x90\x00'),
    );
    expect(res.statusCode).toBe(415);
    expect(await filesIn(folderOf(transaction.id))).toEqual([]);
    expect(await database.db.storedFile.count({ where: { transactionId: transaction.id } })).toBe(0);
  });

  it('a client that hangs up mid-upload leaves no file, no partial file and no row; the server carries on', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const socket = await startUnfinishedUpload({
      port: (app.server.address() as AddressInfo).port,
      path: `/api/uploads/transactions/${transaction.id}`,
      token: agent.token,
      declaredBytes: 4 * 1024 * 1024,
      // Enough past the type sniffing that the file is being written when the client goes away.
      fillerBytes: 512 * 1024,
    });
    await until(async () => (await filesIn(folderOf(transaction.id))).length > 0, 5_000);
    socket.destroy();

    await until(async () => (await filesIn(folderOf(transaction.id))).length === 0, 5_000);
    expect(await database.db.storedFile.count({ where: { transactionId: transaction.id } })).toBe(0);
    const after = await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF);
    expect(after.statusCode).toBe(201);
    expect(await filesIn(folderOf(transaction.id))).toHaveLength(1);
  });
});

describe('a body with more than its one file', () => {
  const filePart: MultipartPart = {
    name: 'file',
    filename: 'contract.pdf',
    contentType: 'application/pdf',
    content: PDF,
  };
  const field = (name: string, value: string): MultipartPart => ({
    name,
    filename: null,
    contentType: null,
    content: Buffer.from(value),
  });
  const send = (transactionId: string, parts: MultipartPart[]) => {
    const body = multipartPayload({
      parts,
      boundary: '----extra-part-boundary',
      header: 'ok',
      truncateAt: null,
      closing: true,
      newline: '\r\n',
    });
    return app.inject({
      method: 'POST',
      url: `/api/uploads/transactions/${transactionId}`,
      payload: body.payload,
      headers: { 'content-type': body.contentType ?? '', authorization: `Bearer ${agent.token}` },
    });
  };

  it.each([
    ['after the file', (extra: MultipartPart) => [filePart, extra]],
    ['before the file', (extra: MultipartPart) => [extra, filePart]],
  ])('a text field %s is a 400 that names it; nothing is kept', async (_, arrange) => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await send(transaction.id, arrange(field('note', 'please review')));
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({
      message: `Unexpected field "note": ${apiMessages.uploadOneFileOnly}`,
      code: 'BAD_REQUEST',
      error: 'validation',
    });
    expect(await filesIn(folderOf(transaction.id))).toEqual([]);
    expect(await database.db.storedFile.count({ where: { transactionId: transaction.id } })).toBe(0);
  });

  it('a second file, or a field after the first extra one, is a 400 too; nothing is kept', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    for (const parts of [
      [filePart, { ...filePart, filename: 'second.pdf' }],
      [filePart, field('a', '1'), field('b', '2')],
    ]) {
      const res = await send(transaction.id, parts);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toContain(apiMessages.uploadOneFileOnly);
    }
    expect(await filesIn(folderOf(transaction.id))).toEqual([]);
    expect(await database.db.storedFile.count({ where: { transactionId: transaction.id } })).toBe(0);
  });

  it('a long field name is quoted back shortened', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await send(transaction.id, [filePart, field('x'.repeat(90), 'y')]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      `Unexpected field "${'x'.repeat(39)}…": ${apiMessages.uploadOneFileOnly}`,
    );
  });

  it('a text field named file, with no file at all, asks for the file', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await send(transaction.id, [field('file', 'not a file')]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: apiMessages.fileRequired,
      code: 'BAD_REQUEST',
      error: 'validation',
    });
  });
});
