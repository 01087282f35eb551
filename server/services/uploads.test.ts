import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { bearer, injectUpload, TINY_PDF, trpcRequest } from '../test/api-calls';
import { accessTokenFor, createAdmin, createOwner, createTransaction, createUser } from '../test/factories';
import { buildTestApp, serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import type { Caller } from './context';
import { type IncomingPhoto, uploadTransactionPhotos } from './intake/photos';
import { type IncomingUpload, uploadLibraryForm, uploadTransactionDocument } from './uploads';

/**
 * Who may upload is the uploads service's own rule, like every other service's: called directly,
 * with no procedure or route in front of it, it refuses another agent's transaction and a library
 * upload by anyone but the owner, without taking a byte from the file it was handed. Over HTTP
 * the routes answer the same refusals, since they call the service through its procedure.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;
type Person = Caller & { token: string };
let agent: Person;
let stranger: Person;
let admin: Person;
let owner: Person;

async function person(row: {
  id: string;
  role: 'user' | 'admin';
  isOwner: boolean;
  tokenVersion: number;
}): Promise<Person> {
  return {
    id: row.id,
    role: row.role,
    isOwner: row.isOwner,
    token: await accessTokenFor(row, { now: clock.now() }),
  };
}

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  app = buildTestApp(deps);
  agent = await person(await createUser(database.db));
  stranger = await person(await createUser(database.db));
  admin = await person(await createAdmin(database.db));
  owner = await person(await createOwner(database.db));
});
afterAll(() => app.close());

const callerOf = ({ token: _token, ...caller }: Person) => serviceContext(deps, caller);

/** A file handle that counts how often the service asked for the file. */
function handle(bytes = TINY_PDF): IncomingUpload & { received: number } {
  const file = {
    received: 0,
    async receive() {
      file.received++;
      return {
        filename: 'contract.pdf',
        bytes: Readable.from([bytes]),
        finish: async () => ({ truncated: false }),
      };
    },
  };
  return file;
}

/** Photos that count whether the service began to read them. */
function photos(): AsyncIterable<IncomingPhoto> & { read: boolean } {
  const iterable = {
    read: false,
    async *[Symbol.asyncIterator]() {
      iterable.read = true;
      yield { bytes: Buffer.alloc(0), truncated: false };
    },
  };
  return iterable;
}

const storedFor = (transactionId: string) => database.db.storedFile.count({ where: { transactionId } });

describe('the uploads service, called directly', () => {
  it("refuses another agent's transaction (404) before it asks for the file", async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const file = handle();
    await expect(
      uploadTransactionDocument(callerOf(stranger), { id: transaction.id, file }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(file.received).toBe(0);

    const pages = photos();
    await expect(
      uploadTransactionPhotos(callerOf(stranger), { id: transaction.id, photos: pages }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(pages.read).toBe(false);
    expect(await storedFor(transaction.id)).toBe(0);
  });

  it('refuses a library upload to anyone but the owner (403), an admin included', async () => {
    for (const caller of [agent, admin]) {
      const file = handle();
      await expect(uploadLibraryForm(callerOf(caller), { file })).rejects.toMatchObject({
        code: 'FORBIDDEN',
      });
      expect(file.received).toBe(0);
    }
  });

  it("stores the file for the transaction's agent, an admin and the owner", async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    for (const caller of [agent, admin]) {
      const file = handle();
      const answer = await uploadTransactionDocument(callerOf(caller), { id: transaction.id, file });
      expect(answer).toMatchObject({ size: TINY_PDF.length, contentType: 'application/pdf' });
      expect(file.received).toBe(1);
    }
    expect(await storedFor(transaction.id)).toBe(2);
    const library = await uploadLibraryForm(callerOf(owner), { file: handle() });
    expect(library.key).toMatch(/^forms\//);
  });
});

describe('the same refusals over HTTP', () => {
  it("another agent's transaction: 404, nothing stored", async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const res = await injectUpload(
      app,
      `/api/uploads/transactions/${transaction.id}`,
      stranger.token,
      TINY_PDF,
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(await storedFor(transaction.id)).toBe(0);
  });

  it('a library upload by an admin who is not the owner: 403', async () => {
    const res = await injectUpload(app, '/api/uploads/forms', admin.token, TINY_PDF);
    expect(res.statusCode, res.body).toBe(403);
  });

  it('over /trpc, where no file can come: 401 anonymous, 400 signed in, nothing stored', async () => {
    const transaction = await createTransaction(database.db, { userId: agent.id });
    const input = { id: transaction.id, file: { receive: 'not a handle' } };
    const anonymous = await app.inject(trpcRequest('uploads.transactionDocument', 'mutation', input));
    expect(anonymous.statusCode).toBe(401);
    const signedIn = await app.inject(
      trpcRequest('uploads.transactionDocument', 'mutation', input, bearer(agent.token)),
    );
    expect(signedIn.statusCode).toBe(400);
    expect(await storedFor(transaction.id)).toBe(0);
  });
});
