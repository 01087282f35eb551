import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, toasts, validation } from '../../shared/messages';
import type { Transaction } from '../../shared/schemas/transactions';
import type { AppDeps } from '../deps';
import { SIGNED_URL_TTL_SECONDS } from '../storage/storage';
import { injectUpload, TINY_PDF as PDF } from '../test/api-calls';
import {
  accessTokenFor,
  attachTestFile,
  createAdmin,
  createOwner,
  createTemplate,
  createTransaction,
  createUser,
} from '../test/factories';
import {
  buildTestApp,
  setupTestDatabase,
  TEST_DATA_DIR,
  TestClock,
  testConfig,
  testDeps,
} from '../test/harness';

/**
 * Transactions, templates, uploads and review through the documented REST paths, on a real
 * database and the real local storage driver.
 */

const database = setupTestDatabase();
let app: FastifyInstance;
let clock: TestClock;
let deps: AppDeps;

type Actor = { id: string; token: string };
let agentA: Actor;
let agentB: Actor;
let admin: Actor;
let owner: Actor;
const TYPE = `Listing-${Date.now()}`;

async function actor(user: { id: string; role: 'user' | 'admin'; tokenVersion: number }): Promise<Actor> {
  return { id: user.id, token: await accessTokenFor(user, { now: clock.now() }) };
}

beforeAll(async () => {
  clock = new TestClock();
  deps = testDeps(database.db, { clock, config: testConfig({ maxUploadBytes: 200 * 1024 }) });
  app = buildTestApp(deps);
  agentA = await actor(await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' }));
  agentB = await actor(await createUser(database.db, { firstName: 'Bob', lastName: 'Broker' }));
  admin = await actor(await createAdmin(database.db));
  owner = await actor(await createOwner(database.db));
  await createTemplate(database.db, {
    type: TYPE,
    role: 'Seller',
    documents: ['Listing Agreement', 'Disclosure', 'Inspection'],
  });
  await createTemplate(database.db, { type: TYPE, role: 'Buyer', documents: ['Purchase Agreement'] });
  await createTemplate(database.db, {
    type: `Referral-${TYPE}`,
    role: '-',
    documents: ['Referral Agreement'],
  });
});
afterAll(() => app.close());

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
}

const address = { streetAddress: '12 Harbor Lane', city: 'Portland', state: 'ME', zip: '04101' };

async function open(who: Actor, overrides: Record<string, unknown> = {}): Promise<Transaction> {
  const res = await call('POST', '/api/transactions', who, {
    type: TYPE,
    role: 'Seller',
    ...address,
    ...overrides,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f20000000049454e44ae426082',
  'hex',
);

const upload = (url: string, who: Actor | undefined, file: Buffer, filename = 'contract.pdf') =>
  injectUpload(app, url, who?.token, file, filename);

describe('creating a transaction', () => {
  it('201 with the checklist of its template, all pending, in template order; the agent is the caller', async () => {
    const created = await open(agentA, { user: agentA.id });
    expect(created).toMatchObject({ ...address, type: TYPE, role: 'Seller', isTitleReport: false });
    expect(created.user).toEqual({ _id: agentA.id, firstName: 'Alice', lastName: 'Agent' });
    expect(created.forms.map((f) => [f.label, f.status, f.url, f.comments])).toEqual([
      ['Listing Agreement', 'pending', null, []],
      ['Disclosure', 'pending', null, []],
      ['Inspection', 'pending', null, []],
    ]);
    const events = await database.db.auditEvent.findMany({ where: { transactionId: created._id } });
    expect(events.map((e) => [e.action, e.actorId])).toEqual([['transaction.create', agentA.id]]);
  });

  it('a type without roles uses role "-"', async () => {
    const created = await open(agentA, { type: `Referral-${TYPE}`, role: '-' });
    expect(created.forms.map((f) => f.label)).toEqual(['Referral Agreement']);
  });

  it("refuses to create for someone else (403), with the product's messages for missing fields (400), and without a template (400)", async () => {
    const before = await database.db.transaction.count();
    expect(
      (
        await call('POST', '/api/transactions', agentA, {
          type: TYPE,
          role: 'Seller',
          ...address,
          user: agentB.id,
        })
      ).statusCode,
    ).toBe(403);
    const missing = await call('POST', '/api/transactions', agentA, {
      type: ' ',
      role: '',
      streetAddress: '',
      city: '',
      state: '',
      zip: '',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().issues).toEqual([
      { path: 'streetAddress', message: validation.streetAddressRequired },
      { path: 'city', message: validation.cityRequired },
      { path: 'state', message: validation.stateRequired },
      { path: 'zip', message: validation.zipRequired },
      { path: 'type', message: validation.typeRequired },
      { path: 'role', message: validation.roleRequired },
    ]);
    const noTemplate = await call('POST', '/api/transactions', agentA, {
      type: TYPE,
      role: 'Landlord',
      ...address,
    });
    expect(noTemplate.statusCode).toBe(400);
    expect(noTemplate.json().message).toBe(apiMessages.noTemplate);
    expect(await database.db.transaction.count()).toBe(before);
  });

  it('anonymous: 401 whatever the body', async () => {
    expect((await call('POST', '/api/transactions', undefined, { nonsense: true })).statusCode).toBe(401);
  });
});

describe("an agent's own transactions", () => {
  it('list: newest first, paged by 10, with honest totals beyond the last page', async () => {
    const agent = await actor(await createUser(database.db));
    for (let i = 0; i < 12; i++) {
      await createTransaction(database.db, {
        userId: agent.id,
        streetAddress: `${i} Elm St`,
        createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
      });
    }
    const first = (await call('GET', `/api/transactions/${agent.id}?page=1&limit=10`, agent)).json();
    expect(first.totalTransactions).toBe(12);
    expect(first.totalPages).toBe(2);
    expect(first.transactions).toHaveLength(10);
    expect(first.transactions[0].streetAddress).toBe('11 Elm St');
    expect(first.transactions[0]).not.toHaveProperty('forms');
    const last = (await call('GET', `/api/transactions/${agent.id}?page=2&limit=10`, agent)).json();
    expect(last.transactions.map((t: Transaction) => t.streetAddress)).toEqual(['1 Elm St', '0 Elm St']);
    const beyond = (await call('GET', `/api/transactions/${agent.id}?page=9`, agent)).json();
    expect(beyond).toEqual({ transactions: [], totalPages: 2, totalTransactions: 12 });
    expect((await call('GET', `/api/transactions/${agent.id}?page=0`, agent)).statusCode).toBe(400);
  });

  it("another user's list is 403 (decided before any lookup); an admin may read it", async () => {
    expect((await call('GET', `/api/transactions/${agentA.id}`, agentB)).statusCode).toBe(403);
    expect((await call('GET', `/api/transactions/${agentA.id}`, admin)).statusCode).toBe(200);
  });

  it("search: trimmed, case-insensitive, on street, city, state and zip; only the caller's rows; wildcards literal", async () => {
    const agent = await actor(await createUser(database.db));
    const other = await createUser(database.db);
    await createTransaction(database.db, {
      userId: agent.id,
      streetAddress: '7 Quarry Road',
      city: 'Bangor',
      state: 'ME',
      zip: '04401',
    });
    await createTransaction(database.db, {
      userId: agent.id,
      streetAddress: '9 Mill St',
      city: 'Quarryville',
      state: 'PA',
      zip: '17566',
    });
    await createTransaction(database.db, {
      userId: agent.id,
      streetAddress: '100%_Real Ave',
      city: 'Salem',
      state: 'OR',
      zip: '97301',
    });
    await createTransaction(database.db, {
      userId: other.id,
      streetAddress: '1 Quarry Road',
      city: 'Bangor',
      state: 'ME',
      zip: '04401',
    });

    const search = async (term: string) =>
      (await call('GET', `/api/transactions/search/${agent.id}/${encodeURIComponent(term)}`, agent)).json();
    expect((await search('  qUARRY  ')).transactions.map((t: Transaction) => t.streetAddress).sort()).toEqual(
      ['7 Quarry Road', '9 Mill St'],
    );
    expect((await search('pa')).totalTransactions).toBe(1);
    expect((await search('04401')).transactions.map((t: Transaction) => t.streetAddress)).toEqual([
      '7 Quarry Road',
    ]);
    expect((await search('%_')).transactions.map((t: Transaction) => t.streetAddress)).toEqual([
      '100%_Real Ave',
    ]);
    expect((await search('_')).totalTransactions).toBe(1);
    expect((await search('nothing-like-this')).totalTransactions).toBe(0);
  });

  it("someone else's transaction is 404 for reading, changing, commenting and attaching; 403 when the path names them", async () => {
    const mine = await open(agentA);
    const formId = mine.forms[0]?._id;
    expect(
      (await call('GET', `/api/transactions/individual/${mine._id}/${agentB.id}`, agentB)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', `/api/transactions/individual/${mine._id}/${agentA.id}`, agentB)).statusCode,
    ).toBe(403);
    expect(
      (await call('PUT', `/api/transactions/${mine._id}/${agentB.id}`, agentB, address)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `/api/transactions/${mine._id}/forms/${formId}/comments`, agentB, { text: 'hi' }))
        .statusCode,
    ).toBe(404);
    expect(
      (await call('PUT', `/api/transactions/${mine._id}/forms/${formId}`, agentB, { url: 'x' })).statusCode,
    ).toBe(404);
    expect((await upload(`/api/uploads/transactions/${mine._id}`, agentB, PDF)).statusCode).toBe(404);
    const read = await call('GET', `/api/transactions/individual/${mine._id}/${agentA.id}`, agentA);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(mine);
  });

  it('update changes only the address fields and is audited', async () => {
    const mine = await open(agentA);
    const res = await call('PUT', `/api/transactions/${mine._id}/${agentA.id}`, agentA, {
      streetAddress: '14 Harbor Lane',
      city: 'Portland',
      state: 'ME',
      zip: '04102',
      isTitleReport: true,
      type: 'Other',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      streetAddress: '14 Harbor Lane',
      zip: '04102',
      isTitleReport: false,
      type: TYPE,
    });
    const event = await database.db.auditEvent.findFirstOrThrow({
      where: { transactionId: mine._id, action: 'transaction.update' },
    });
    expect(event.before).toMatchObject({ streetAddress: '12 Harbor Lane' });
    expect(event.after).toMatchObject({ streetAddress: '14 Harbor Lane' });
    const empty = await call('PUT', `/api/transactions/${mine._id}/${agentA.id}`, agentA, {
      ...address,
      city: '  ',
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues).toEqual([{ path: 'city', message: validation.cityRequired }]);
  });

  it("comments carry the caller's real role, whatever the body says", async () => {
    const mine = await open(agentA);
    const formId = mine.forms[1]?._id;
    const res = await call('POST', `/api/transactions/${mine._id}/forms/${formId}/comments`, agentA, {
      text: ' Signed copy attached ',
      role: 'admin',
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      text: 'Signed copy attached',
      role: 'user',
      status: null,
      user: { _id: agentA.id },
    });
    expect(
      (await call('POST', `/api/transactions/${mine._id}/forms/${formId}/comments`, agentA, { text: '   ' }))
        .statusCode,
    ).toBe(400);
  });
});

describe('files', () => {
  it('upload -> attach -> signed link serves the bytes with nosniff; a new file sets the form back to pending, the old one is kept', async () => {
    const mine = await open(agentA);
    const form = mine.forms[0];
    const uploaded = await upload(
      `/api/uploads/transactions/${mine._id}`,
      agentA,
      PDF,
      '../../etc/My Contract (final).PDF',
    );
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const answer = uploaded.json();
    expect(answer).toMatchObject({
      name: 'My-Contract-final.pdf',
      size: PDF.length,
      contentType: 'application/pdf',
    });
    expect(answer.key).toMatch(
      new RegExp(`^transactions/${mine._id}/[0-9a-f-]{36}-My-Contract-final\\.pdf$`),
    );

    await database.db.transactionForm.update({ where: { id: form?._id }, data: { status: 'rejected' } });
    const attached = await call('PUT', `/api/transactions/${mine._id}/forms/${form?._id}`, agentA, {
      url: answer.url,
    });
    expect(attached.statusCode, attached.body).toBe(200);
    expect(attached.json().status).toBe('pending');

    const link = new URL(attached.json().url);
    const download = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-disposition']).toMatch(/^inline; filename="My-Contract-final\.pdf"/);

    const second = (await upload(`/api/uploads/transactions/${mine._id}`, agentA, PNG, 'photo.png')).json();
    await call('PUT', `/api/transactions/${mine._id}/forms/${form?._id}`, agentA, { url: second.key });
    expect(await deps.storage.exists(answer.key)).toBe(true);
    const uploads = await database.db.auditEvent.findMany({
      where: { transactionId: mine._id, action: 'form.upload' },
      orderBy: { createdAt: 'asc' },
    });
    expect(uploads.map((e) => (e.after as { fileKey: string }).fileKey)).toEqual([answer.key, second.key]);
  });

  it('a file is accepted for a form only if it was uploaded to that same transaction', async () => {
    const mine = await open(agentA);
    const other = await open(agentA);
    const foreign = (await upload(`/api/uploads/transactions/${other._id}`, agentA, PDF)).json();
    for (const url of [
      foreign.key,
      foreign.url,
      `transactions/${mine._id}/../${other._id}/x.pdf`,
      'https://evil.example/x.pdf',
      `transactions/${mine._id}/00000000-0000-4000-8000-000000000000-missing.pdf`,
    ]) {
      const res = await call('PUT', `/api/transactions/${mine._id}/forms/${mine.forms[0]?._id}`, agentA, {
        url,
      });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe(apiMessages.fileNotOfTransaction);
    }
    expect(
      (await database.db.transactionForm.findUniqueOrThrow({ where: { id: mine.forms[0]?._id } })).fileKey,
    ).toBeNull();
  });

  it('415 for a type not accepted by its bytes, whatever its name; 413 over the limit with nothing kept; 400 without a file', async () => {
    const mine = await open(agentA);
    const script = await upload(
      `/api/uploads/transactions/${mine._id}`,
      agentA,
      Buffer.from('<script>alert(1)</script>'),
      'invoice.pdf',
    );
    expect(script.statusCode).toBe(415);
    expect(script.json()).toEqual({
      message: apiMessages.fileTypeRefused,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      error: 'unsupported-media-type',
    });

    const big = Buffer.concat([PDF, Buffer.alloc(300 * 1024, 1)]);
    const tooLarge = await upload(`/api/uploads/transactions/${mine._id}`, agentA, big);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().code).toBe('PAYLOAD_TOO_LARGE');
    // Nothing of either refused file is left in the transaction's folder.
    const folder = path.join(TEST_DATA_DIR, 'uploads', 'transactions', mine._id);
    expect(await readdir(folder).catch(() => [])).toEqual([]);

    const noFile = await app.inject({
      method: 'POST',
      url: `/api/uploads/transactions/${mine._id}`,
      payload: { file: 'not multipart' },
      headers: { authorization: `Bearer ${agentA.token}` },
    });
    expect(noFile.statusCode).toBe(400);
    expect((await upload(`/api/uploads/transactions/${mine._id}`, undefined, PDF)).statusCode).toBe(401);
  });

  it('signed links: tampering is 403, expiry after 1 hour is 403 with its own message', async () => {
    const mine = await open(agentA);
    const { url } = (await upload(`/api/uploads/transactions/${mine._id}`, agentA, PDF)).json();
    const link = new URL(url);
    const path = `${link.pathname}${link.search}`;
    expect((await app.inject(path)).statusCode).toBe(200);
    // One character of the signature changed (to another character: a signature starting with
    // 'A' must not come back unchanged, as it did once in 64 runs).
    const tampered = path.replace(/sig=(.)/, (_, first: string) => `sig=${first === 'A' ? 'B' : 'A'}`);
    expect(tampered).not.toBe(path);
    expect((await app.inject(tampered)).statusCode).toBe(403);
    const exp = Number(link.searchParams.get('exp'));
    expect((await app.inject(path.replace(`exp=${exp}`, `exp=${exp + 3600}`))).statusCode).toBe(403);
    expect(
      (await app.inject(`${link.pathname.replace(/[^/]+$/, 'other.pdf')}${link.search}`)).statusCode,
    ).toBe(404);
    // Paths that try to leave the uploads folder never reach the disk.
    for (const attempt of [
      '/files/../../etc/passwd',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      `/files/transactions/${mine._id}/..%2F..%2F..%2Fetc%2Fpasswd${link.search}`,
    ]) {
      const res = await app.inject(attempt);
      expect([403, 404], attempt).toContain(res.statusCode);
      expect(res.body).not.toContain('root:');
    }
    clock.advance(SIGNED_URL_TTL_SECONDS * 1000);
    const expired = await app.inject(path);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().message).toBe(apiMessages.linkExpired);
    // The clock moved past the access tokens' 15 minutes: issue fresh ones for the tests below.
    for (const who of [agentA, agentB, admin, owner]) {
      const user = await database.db.user.findUniqueOrThrow({ where: { id: who.id } });
      who.token = (await actor(user)).token;
    }
  });

  it('library uploads are for the owner only', async () => {
    expect((await upload('/api/uploads/forms', admin, PDF)).statusCode).toBe(403);
    expect((await upload('/api/uploads/forms', agentA, PDF)).statusCode).toBe(403);
    const res = await upload('/api/uploads/forms', owner, PDF, 'Buyer Checklist.pdf');
    expect(res.statusCode).toBe(201);
    expect(res.json().key).toMatch(/^forms\/[0-9a-f-]{36}-Buyer-Checklist\.pdf$/);
  });
});

describe('admin transactions and review', () => {
  it('agents cannot use the admin paths', async () => {
    expect((await call('GET', '/api/admin/transactions', agentA)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/transactions', undefined)).statusCode).toBe(401);
  });

  it("search spans every user and the agent's name", async () => {
    const carla = await createUser(database.db, { firstName: 'Carlotta', lastName: 'Zimmerwald' });
    await createTransaction(database.db, { userId: carla.id, streetAddress: '3 Birch Way' });
    const res = (await call('GET', '/api/admin/transactions/search/zimmerw', admin)).json();
    expect(res.transactions.map((t: Transaction) => t.streetAddress)).toEqual(['3 Birch Way']);
    expect(res.transactions[0].user).toMatchObject({ firstName: 'Carlotta' });
  });

  it('review: reject with a comment, then accept; each is one comment row; the agent reads both', async () => {
    const mine = await open(agentA);
    const formId = mine.forms[0]?._id;
    await attachTestFile(database.db, { id: formId ?? '', transactionId: mine._id });
    const reject = await call('POST', `/api/admin/transactions/${mine._id}/forms/${formId}/comments`, admin, {
      status: 'rejected',
      text: 'Missing signature on page 2',
    });
    expect(reject.statusCode).toBe(201);
    expect(reject.json()).toMatchObject({
      status: 'rejected',
      comments: [{ text: 'Missing signature on page 2', role: 'admin', status: 'rejected' }],
    });
    const accept = await call('POST', `/api/admin/transactions/${mine._id}/forms/${formId}/comments`, admin, {
      status: 'accepted',
    });
    expect(accept.json().status).toBe('accepted');
    const onlyText = await call(
      'POST',
      `/api/admin/transactions/${mine._id}/forms/${formId}/comments`,
      admin,
      { text: 'Thanks' },
    );
    expect(onlyText.json().status).toBe('accepted');
    const nothing = await call(
      'POST',
      `/api/admin/transactions/${mine._id}/forms/${formId}/comments`,
      admin,
      { text: '  ' },
    );
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().message).toBe(validation.commentRequired);
    expect(
      (
        await call('POST', `/api/admin/transactions/${mine._id}/forms/${formId}/comments`, admin, {
          status: 'pending',
        })
      ).statusCode,
    ).toBe(400);

    const seen = (await call('GET', `/api/transactions/individual/${mine._id}/${agentA.id}`, agentA)).json();
    expect(seen.forms[0].status).toBe('accepted');
    expect(
      seen.forms[0].comments.map((c: { text: string; status: string | null }) => [c.text, c.status]),
    ).toEqual([
      ['Missing signature on page 2', 'rejected'],
      ['', 'accepted'],
      ['Thanks', null],
    ]);
    const history = (await call('GET', `/api/admin/transactions/${mine._id}/history`, admin)).json();
    expect(history.map((h: { action: string }) => h.action)).toEqual([
      'comment.create',
      'form.review',
      'form.review',
      'transaction.create',
    ]);
    expect(history[1].actor).toMatchObject({ _id: admin.id });
    expect((await call('GET', `/api/admin/transactions/${mine._id}/history`, agentA)).statusCode).toBe(403);
  });

  it('admin update sets the three checkboxes; soft delete hides it from every list, search and page', async () => {
    const mine = await open(agentA, { streetAddress: '55 Vanishing Ave' });
    const updated = await call('PUT', `/api/admin/transactions/${mine._id}`, admin, {
      ...address,
      streetAddress: '55 Vanishing Ave',
      isTransactionCoordinator: true,
      isTitleReport: true,
    });
    expect(updated.json()).toMatchObject({
      isTransactionCoordinator: true,
      isTitleReport: true,
      isNaturalHazardDisclosure: false,
    });

    const deleted = await call('DELETE', `/api/admin/transactions/${mine._id}`, admin);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ message: toasts.transactionDeleted });
    expect((await call('GET', `/api/admin/transactions/individual/${mine._id}`, admin)).statusCode).toBe(404);
    expect(
      (await call('GET', `/api/transactions/individual/${mine._id}/${agentA.id}`, agentA)).statusCode,
    ).toBe(404);
    expect(
      (await call('GET', '/api/admin/transactions/search/vanishing', admin)).json().totalTransactions,
    ).toBe(0);
    expect(
      (await call('GET', `/api/transactions/search/${agentA.id}/vanishing`, agentA)).json().totalTransactions,
    ).toBe(0);
    const list = (await call('GET', `/api/transactions/${agentA.id}?limit=100`, agentA)).json();
    expect(list.transactions.map((t: Transaction) => t._id)).not.toContain(mine._id);
    expect((await call('DELETE', `/api/admin/transactions/${mine._id}`, admin)).statusCode).toBe(404);
    expect(
      await database.db.auditEvent.count({
        where: { transactionId: mine._id, action: 'transaction.delete' },
      }),
    ).toBe(1);
  });
});

describe('templates', () => {
  it('view/all for any signed-in user; paged view and search for admins only', async () => {
    const all = await call('GET', '/api/admin/forms/transactions/view/all', agentA);
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual(
      expect.arrayContaining([
        {
          _id: expect.any(String),
          type: TYPE,
          role: 'Seller',
          forms: ['Listing Agreement', 'Disclosure', 'Inspection'],
          optionalForms: [],
          keyDateKinds: [],
          conditionalForms: [],
        },
      ]),
    );
    expect((await call('GET', '/api/admin/forms/transactions/view?page=1&limit=10', agentA)).statusCode).toBe(
      403,
    );
    const view = (await call('GET', '/api/admin/forms/transactions/view?page=1&limit=2', admin)).json();
    expect(view.data).toHaveLength(2);
    expect(view.totalPages).toBe(Math.ceil(view.totalItems / 2));
    const search = (
      await call(
        'GET',
        `/api/admin/forms/transactions/search?query=${encodeURIComponent('purchase agr')}&page=1&limit=10`,
        admin,
      )
    ).json();
    expect(search.forms.map((t: { role: string }) => t.role)).toContain('Buyer');
    expect(search).toMatchObject({ pages: 1 });
  });

  it('insert by the owner only; 409 on a duplicate (type, role); update and delete by admins, audited', async () => {
    const body = {
      type: `Lease-${TYPE}`,
      role: 'Tenant',
      forms: ['Rental Application', 'Lease'],
      optionalForms: ['Pet Addendum'],
      keyDateKinds: ['inspection', 'closing'],
    };
    expect((await call('POST', '/api/admin/forms/transactions/insert', admin, body)).statusCode).toBe(403);
    const created = await call('POST', '/api/admin/forms/transactions/insert', owner, body);
    expect(created.statusCode).toBe(201);
    const id = created.json()._id;
    expect(created.json()).toEqual({ _id: id, conditionalForms: [], ...body });
    expect((await call('POST', '/api/admin/forms/transactions/insert', owner, body)).statusCode).toBe(409);
    const invalid = await call('POST', '/api/admin/forms/transactions/insert', owner, {
      type: '',
      role: '',
      forms: [''],
    });
    expect(invalid.json().issues).toEqual([
      { path: 'type', message: validation.typeRequired },
      { path: 'role', message: validation.roleRequired },
      { path: 'forms.0', message: validation.documentNameRequired },
    ]);

    const updated = await call('PUT', `/api/admin/forms/transactions/form/${id}`, admin, {
      ...body,
      forms: ['Lease'],
    });
    expect(updated.json().forms).toEqual(['Lease']);
    expect((await call('PUT', `/api/admin/forms/transactions/form/${id}`, agentA, body)).statusCode).toBe(
      403,
    );
    const removed = await call('DELETE', `/api/admin/forms/transactions/form/${id}`, admin);
    expect(removed.json()).toEqual({ message: toasts.templateDeleted });
    expect((await call('DELETE', `/api/admin/forms/transactions/form/${id}`, admin)).statusCode).toBe(404);
    const actions = (
      await database.db.auditEvent.findMany({ where: { entityId: id }, orderBy: { createdAt: 'asc' } })
    ).map((e) => e.action);
    expect(actions).toEqual(['template.create', 'template.update', 'template.delete']);
  });

  it("a type's spelling is normalised: spaces collapsed, a case-only variant is the existing type", async () => {
    const type = `Short Sale ${Date.now()}`;
    const insert = (body: { type: string; role: string; forms: string[] }) =>
      call('POST', '/api/admin/forms/transactions/insert', owner, body);
    const first = await insert({ type: `  ${type.replace(/ /g, '   ')} `, role: 'Seller', forms: ['Deed'] });
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().type).toBe(type);

    // Another role of the same type, typed in another case: no second menu entry.
    const second = await insert({ type: type.toLowerCase(), role: 'Buyer', forms: ['Offer'] });
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().type).toBe(type);
    // The same (type, role) in another case is a duplicate, not a new template.
    const duplicate = await insert({ type: type.toUpperCase(), role: 'Seller', forms: ['Deed'] });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().message).toBe(`A template for ${type} / Seller already exists`);

    const types = (await call('GET', '/api/admin/forms/transactions/view/all', agentA))
      .json()
      .map((t: { type: string }) => t.type)
      .filter((t: string) => t.toLowerCase() === type.toLowerCase());
    expect(types).toEqual([type, type]);

    // Updating into a case variant of another template's type takes that type's spelling...
    const update = (id: string, body: { type: string; role: string; forms: string[] }) =>
      call('PUT', `/api/admin/forms/transactions/form/${id}`, admin, body);
    const other = await insert({ type: `Probate ${Date.now()}`, role: '-', forms: ['Letters'] });
    const moved = await update(other.json()._id, { type: type.toUpperCase(), role: '-', forms: ['Letters'] });
    expect(moved.json().type).toBe(type);
    // ...while the only template of a type may change its own case.
    const lone = await insert({ type: `Relocation ${Date.now()}`, role: '-', forms: ['Move'] });
    const recased = await update(lone.json()._id, {
      type: lone.json().type.toUpperCase(),
      role: '-',
      forms: ['Move'],
    });
    expect(recased.json().type).toBe(lone.json().type.toUpperCase());
  });

  it('a type is compared as text, not as a pattern: a trailing backslash, % or _ are plain characters', async () => {
    const stamp = Date.now();
    const insert = (type: string) =>
      call('POST', '/api/admin/forms/transactions/insert', owner, {
        type,
        role: `Role ${stamp}`,
        forms: ['Deed'],
      });
    const backslash = await insert(`Trust \\ ${stamp} \\`);
    expect(backslash.statusCode, backslash.body).toBe(201);
    expect(backslash.json().type).toBe(`Trust \\ ${stamp} \\`);
    // As a pattern '%' matched the oldest type and took its spelling; as text it is a type of its own.
    const percent = await insert('%');
    expect(percent.statusCode, percent.body).toBe(201);
    expect(percent.json().type).toBe('%');
    const underscore = await insert(`Trust _ ${stamp} _`);
    expect(underscore.json().type).toBe(`Trust _ ${stamp} _`);
  });

  it('an existing transaction keeps its checklist when its template changes', async () => {
    const mine = await open(agentA, { role: 'Buyer' });
    const template = await database.db.transactionTemplate.findFirstOrThrow({
      where: { type: TYPE, role: 'Buyer' },
    });
    await call('PUT', `/api/admin/forms/transactions/form/${template.id}`, admin, {
      type: TYPE,
      role: 'Buyer',
      forms: ['Something Else'],
    });
    const read = (await call('GET', `/api/transactions/individual/${mine._id}/${agentA.id}`, agentA)).json();
    expect(read.forms.map((f: { label: string }) => f.label)).toEqual(['Purchase Agreement']);
  });
});
