import { readdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { runSql } from '../test/databases';
import { accessTokenFor, createOwner, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TEST_DATA_DIR, TestClock, testDeps } from '../test/harness';
import { until } from '../test/until';

/**
 * Files and their rows (issue 8): every stored file has its stored_files row, a refused or
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

const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');
const BOUNDARY = '----portal-upload-test';

function multipartHead(filename: string): Buffer {
  return Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
}
const multipartTail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);

function upload(url: string, token: string, file: Buffer) {
  return app.inject({
    method: 'POST',
    url,
    payload: Buffer.concat([multipartHead('contract.pdf'), file, multipartTail]),
    headers: {
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      authorization: `Bearer ${token}`,
    },
  });
}

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
    // What a client sees when PostgreSQL goes away mid-request: SQLSTATE 57P01 (admin shutdown).
    await runSql(
      database.url,
      `CREATE FUNCTION refuse_stored_file() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'shutting down' USING ERRCODE = '57P01'; END $$;
       CREATE TRIGGER refuse_stored_file BEFORE INSERT ON stored_files
         FOR EACH ROW EXECUTE FUNCTION refuse_stored_file();`,
    );
    try {
      const res = await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF);
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('SERVICE_UNAVAILABLE');
      expect(res.body).not.toContain('shutting down');
    } finally {
      await runSql(
        database.url,
        'DROP TRIGGER refuse_stored_file ON stored_files; DROP FUNCTION refuse_stored_file();',
      );
    }
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
    const { port } = app.server.address() as AddressInfo;
    const head = multipartHead('half.pdf');
    const declaredLength = head.length + 4 * 1024 * 1024 + multipartTail.length;
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/uploads/transactions/${transaction.id} HTTP/1.1\r\nHost: localhost\r\n` +
        `Authorization: Bearer ${agent.token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${declaredLength}\r\n\r\n`,
    );
    socket.write(head);
    // Enough past the type sniffing that the file is being written when the client goes away.
    socket.write(Buffer.concat([PDF, Buffer.alloc(512 * 1024, 7)]));
    await until(async () => (await filesIn(folderOf(transaction.id))).length > 0, 5_000);
    socket.destroy();

    await until(async () => (await filesIn(folderOf(transaction.id))).length === 0, 5_000);
    expect(await database.db.storedFile.count({ where: { transactionId: transaction.id } })).toBe(0);
    const after = await upload(`/api/uploads/transactions/${transaction.id}`, agent.token, PDF);
    expect(after.statusCode).toBe(201);
    expect(await filesIn(folderOf(transaction.id))).toHaveLength(1);
  });
});
