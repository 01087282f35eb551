import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../deps';
import { bearer, injectUpload, TINY_PDF, trpcRequest } from '../test/api-calls';
import {
  accessTokenFor,
  createLibraryItem,
  createOwner,
  createTransaction,
  createUser,
} from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../test/harness';

/**
 * Links to files this server serves itself: the portal's own pages (over /trpc, and
 * uploads that ask for it) get site-relative /files/ paths, so a wrong APP_URL cannot break
 * "View"; the documented REST API keeps absolute APP_URL links.
 */

const WRONG_APP_URL = 'http://portal.wrong-host.invalid:1';
const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let app: FastifyInstance;
let agent: { id: string; token: string };
let owner: { id: string; token: string };
let transactionId: string;
let formId: string;
let uploadedKey: string;

const signedPath = /^\/files\/[^?]+\?exp=\d+&sig=[\w-]+$/;

async function trpcQuery<T>(path: string, input: unknown, token: string): Promise<T> {
  const res = await app.inject(trpcRequest(path, 'query', input, bearer(token)));
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { result: { data: T } }).result.data;
}

async function restGet<T>(url: string, token: string): Promise<T> {
  const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

/** The link opens the file on this very server, whatever host APP_URL names. */
async function expectServedHere(link: string) {
  const { pathname, search } = new URL(link, 'http://this-server');
  const res = await app.inject({ method: 'GET', url: pathname + search });
  expect(res.statusCode).toBe(200);
  expect(res.rawPayload.equals(TINY_PDF)).toBe(true);
}

beforeAll(async () => {
  deps = testDeps(database.db, { clock, config: testConfig({ appUrl: WRONG_APP_URL }) });
  app = buildTestApp(deps);
  const agentRow = await createUser(database.db);
  agent = { id: agentRow.id, token: await accessTokenFor(agentRow, { now: clock.now() }) };
  const ownerRow = await createOwner(database.db);
  owner = { id: ownerRow.id, token: await accessTokenFor(ownerRow, { now: clock.now() }) };
  const transaction = await createTransaction(database.db, { userId: agent.id, documents: ['Deed'] });
  transactionId = transaction.id;
  const form = await database.db.transactionForm.findFirstOrThrow({ where: { transactionId } });
  formId = form.id;
  const res = await injectUpload(app, `/api/uploads/transactions/${transactionId}`, agent.token, TINY_PDF);
  expect(res.statusCode, res.body).toBe(201);
  uploadedKey = res.json().key;
  await database.db.transactionForm.update({ where: { id: formId }, data: { fileKey: uploadedKey } });
});
afterAll(() => app.close());

describe('links to local files', () => {
  it("a transaction's form links by path over /trpc, by APP_URL over REST", async () => {
    const viaTrpc = await trpcQuery<{ forms: Array<{ url: string | null }> }>(
      'transactions.get',
      { id: transactionId, userId: agent.id },
      agent.token,
    );
    const relative = viaTrpc.forms[0]?.url ?? '';
    expect(relative).toMatch(signedPath);
    await expectServedHere(relative);

    const viaRest = await restGet<{ forms: Array<{ url: string | null }> }>(
      `/api/transactions/individual/${transactionId}/${agent.id}`,
      agent.token,
    );
    const absolute = viaRest.forms[0]?.url ?? '';
    expect(absolute.startsWith(`${WRONG_APP_URL}/files/`)).toBe(true);
    expect(absolute.slice(WRONG_APP_URL.length)).toMatch(signedPath);
  });

  it('the forms library links by path over /trpc, by APP_URL over REST', async () => {
    const name = `Linked form ${Date.now()}`;
    await createLibraryItem(database.db, { name, link: uploadedKey });
    const viaTrpc = await trpcQuery<{ forms: Array<{ name: string; link: string }> }>(
      'libraries.forms.search',
      { query: name, page: 1, limit: 10 },
      agent.token,
    );
    expect(viaTrpc.forms.map((item) => item.name)).toEqual([name]);
    expect(viaTrpc.forms[0]?.link).toMatch(signedPath);
    await expectServedHere(viaTrpc.forms[0]?.link ?? '');

    const viaRest = await restGet<{ forms: Array<{ link: string }> }>(
      `/api/forms/search?query=${encodeURIComponent(name)}&page=1&limit=10`,
      agent.token,
    );
    expect(viaRest.forms[0]?.link.startsWith(`${WRONG_APP_URL}/files/`)).toBe(true);
  });

  it('an upload answers an APP_URL link, or a path when the page asks for links=same-origin', async () => {
    const plain = await injectUpload(app, '/api/uploads/forms', owner.token, TINY_PDF);
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().url.startsWith(`${WRONG_APP_URL}/files/`)).toBe(true);

    const sameOrigin = await injectUpload(app, '/api/uploads/forms?links=same-origin', owner.token, TINY_PDF);
    expect(sameOrigin.statusCode, sameOrigin.body).toBe(201);
    expect(sameOrigin.json().url).toMatch(signedPath);
    await expectServedHere(sameOrigin.json().url);

    const transactionUpload = await injectUpload(
      app,
      `/api/uploads/transactions/${transactionId}?links=same-origin`,
      agent.token,
      TINY_PDF,
    );
    expect(transactionUpload.statusCode, transactionUpload.body).toBe(201);
    expect(transactionUpload.json().url).toMatch(signedPath);

    // Anything else is the documented default.
    const other = await injectUpload(app, '/api/uploads/forms?links=relative', owner.token, TINY_PDF);
    expect(other.statusCode, other.body).toBe(201);
    expect(other.json().url.startsWith(`${WRONG_APP_URL}/files/`)).toBe(true);
  });
});
