import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import type { TransactionsPage } from '../../shared/schemas/transactions';
import type { UsersListAnswer } from '../../shared/schemas/users';
import { poolOf } from '../db/client';
import { Prisma } from '../db/generated/client';
import { sqlCopyOut } from '../db/sql';
import { CrlfRecords, csvCell, csvLine, defusedSql, MAX_CONCURRENT_EXPORTS } from '../services/exports';
import { transactionFileKey } from '../storage/keys';
import { parseCsv } from '../test/csv-reader';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { type Actor, restCalls } from '../test/rest-calls';
import { until } from '../test/until';

/**
 * The CSV exports: the exact bytes for a known set of rows, the same rows as the
 * lists they export (filters and searches), RFC 4180 quoting and the CSV-injection prefix, who
 * may, and that a client going away stops the COPY and frees its connection.
 */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-21T12:00:00.000Z'));
let app: FastifyInstance;
let admin: Actor;
let alice: Awaited<ReturnType<typeof createUser>>;
let bob: Awaited<ReturnType<typeof createUser>>;
const deals: Record<'main' | 'hostile' | 'closed' | 'deleted', { id: string; formIds: string[] }> =
  {} as never;

const { call, ok } = restCalls(() => app, clock);

const TRANSACTION_HEADER =
  'id,street_address,city,state,zip,type,role,status,compliant,progress_percent,required,accepted,' +
  'waived,awaiting_review,rejected,missing,agent_id,agent_name,agent_email,created_at,closed_at,sale_price_cents,year_built,financing,property_type,hoa';
const QUEUE_HEADER =
  'transaction_id,street_address,city,state,zip,type,role,item_id,item,kind,version,waiver_reason,' +
  'agent_id,agent_name,agent_email,submitted_at,waiting_seconds,office,overdue';
const USER_HEADER =
  'id,first_name,last_name,email,company,phone_number,role,status,owner,email_verified,created_at,deactivated_at';

async function csv(url: string, who: Actor = admin) {
  const res = await call('GET', url, who);
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  admin = await createAdmin(database.db, { firstName: 'Ada', lastName: 'Admin' });
  alice = await createUser(database.db, {
    firstName: 'Alice',
    lastName: 'Agent',
    email: 'alice@export.test',
    createdAt: new Date('2026-01-02T03:04:05.678Z'),
  });
  bob = await createUser(database.db, {
    firstName: '@Bob',
    lastName: 'Broker, "Jr."',
    email: 'bob@export.test',
    company: '=cmd|/C calc',
    createdAt: new Date('2026-02-01T00:00:00.000Z'),
  });
  const create = async (userId: string, fields: Omit<Parameters<typeof createTransaction>[1], 'userId'>) => {
    const deal = await createTransaction(database.db, { ...fields, userId });
    return { id: deal.id, formIds: deal.forms.map((form) => form.id) };
  };
  deals.main = await create(alice.id, {
    streetAddress: '12 Main Street',
    city: 'Springfield',
    createdAt: new Date('2026-11-01T10:00:00.000Z'),
    salePriceCents: 45_000_000n,
    yearBuilt: 1965,
    financing: 'fha',
    propertyType: 'condo',
    hoa: true,
  });
  deals.hostile = await create(bob.id, {
    streetAddress: '=HYPERLINK("http://evil.test","x")',
    city: 'Portland, ME',
    state: '+1',
    zip: '-2\n3',
    type: '\tTab',
    role: '\rCR',
    createdAt: new Date('2026-11-02T10:00:00.000Z'),
  });
  deals.closed = await create(alice.id, {
    streetAddress: '7 Harbor Lane',
    documents: ['Deed'],
    createdAt: new Date('2026-10-01T10:00:00.000Z'),
  });
  deals.deleted = await create(alice.id, {
    streetAddress: '99 Main Street',
    deletedAt: new Date('2026-11-05T00:00:00.000Z'),
    createdAt: new Date('2026-11-03T10:00:00.000Z'),
  });
  // The closed deal: its one item accepted, then closed; a closing date on it.
  await database.db.transactionForm.updateMany({
    where: { transactionId: deals.closed.id },
    data: { status: 'accepted', fileKey: transactionFileKey(deals.closed.id, 'deed.pdf', 'pdf'), version: 1 },
  });
  await database.db.transaction.update({
    where: { id: deals.closed.id },
    data: { closedAt: new Date('2026-11-10T00:00:00.000Z') },
  });
  await database.db.keyDate.create({
    data: {
      transactionId: deals.closed.id,
      kind: 'closing',
      label: 'Closing',
      date: new Date('2026-11-09'),
      position: 0,
    },
  });
  // The queue: an upload on the main deal (version 2), a waiver asked on the hostile one.
  await database.db.transactionForm.update({
    where: { id: deals.main.formIds[0] },
    data: {
      fileKey: transactionFileKey(deals.main.id, 'pa.pdf', 'pdf'),
      submittedAt: new Date('2026-11-20T12:00:00.000Z'),
      version: 2,
    },
  });
  await database.db.transactionForm.update({
    where: { id: deals.hostile.formIds[1] },
    data: {
      waiverStatus: 'requested',
      waiverReason: 'Not applicable, "no HOA"',
      waiverRequestedAt: new Date('2026-11-19T12:00:00.000Z'),
    },
  });
});
afterAll(() => app?.close());

describe('csvCell', () => {
  it('quotes commas, quotes and line breaks (RFC 4180) and defuses formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=a,"b"')).toBe(`"'=a,""b"""`);
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(42)).toBe('42');
  });
});

describe('the rows as PostgreSQL writes them (COPY, defusedSql, CrlfRecords)', () => {
  const samples = [
    'plain',
    'a,b',
    'say "hi"',
    'two\nlines',
    'cr\rlf',
    'crlf\r\nin',
    '=1+2',
    '+1',
    '-1',
    '@x',
    '\tx',
    '\rx',
    '=a,"b"',
    'a=b',
    "'quoted'",
    '""',
    ',',
    '-',
    '=',
    ' =not',
    'naïve café',
    '\u{1F600}',
    '\\',
    '%_',
    '"\n"',
  ];

  async function copied(values: string[]): Promise<string> {
    const rows = values.map((value, n) => Prisma.sql`(${value}::text, ${n})`);
    const { stream } = await sqlCopyOut(
      database.db,
      Prisma.sql`SELECT ${defusedSql(Prisma.sql`v`)}, (v IS NULL)::text
        FROM (VALUES ${Prisma.join(rows)}) AS s(v, n) ORDER BY n`,
    );
    const records = stream.pipe(new CrlfRecords('header\r\n'));
    let text = '';
    for await (const chunk of records) text += chunk.toString();
    return text;
  }

  it('writes every cell as csvCell does, records ending in CRLF', async () => {
    const expected = `header\r\n${samples.map((sample) => csvLine([sample, false])).join('')}`;
    expect(await copied(samples)).toBe(expected);
  });

  it('keeps CRLF right when chunks split records, quotes and doubled quotes anywhere', async () => {
    const source = `a,"b\n""c""",d\n"x\n",y\n`;
    for (let size = 1; size <= 4; size++) {
      const records = new CrlfRecords('h\r\n');
      let text = '';
      records.on('data', (chunk: Buffer) => {
        text += chunk.toString();
      });
      const bytes = Buffer.from(source);
      for (let i = 0; i < bytes.length; i += size) records.write(bytes.subarray(i, i + size));
      records.end();
      await new Promise((resolve) => records.once('end', resolve));
      expect({ size, text }).toEqual({ size, text: `h\r\na,"b\n""c""",d\r\n"x\n",y\r\n` });
    }
  });
});

describe('GET /api/admin/transactions.csv', () => {
  it('answers every undeleted transaction, newest first, with the exact header, cells and headers', async () => {
    const res = await csv('/api/admin/transactions.csv');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="transactions-2026-11-21.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    const main = deals.main.id;
    const hostile = deals.hostile.id;
    const closed = deals.closed.id;
    expect(res.body).toBe(
      `${TRANSACTION_HEADER}\r\n` +
        `${hostile},"'=HYPERLINK(""http://evil.test"",""x"")","Portland, ME",'+1,"'-2\n3",'\tTab,"'\rCR",` +
        `needs-review,false,0,3,0,0,0,0,3,${bob.id},"'@Bob Broker, ""Jr.""",bob@export.test,2026-11-02T10:00:00.000Z,,,,,,\r\n` +
        `${main},12 Main Street,Springfield,CA,90210,Purchase,Buyer,needs-review,false,0,3,0,0,1,0,2,` +
        `${alice.id},Alice Agent,alice@export.test,2026-11-01T10:00:00.000Z,,45000000,1965,fha,condo,true\r\n` +
        `${closed},7 Harbor Lane,Springfield,CA,90210,Purchase,Buyer,closed,true,100,1,1,0,0,0,0,` +
        `${alice.id},Alice Agent,alice@export.test,2026-10-01T10:00:00.000Z,2026-11-10T00:00:00.000Z,,,,,\r\n`,
    );
    // A CSV reader gets the values back as stored (with the injection prefix).
    const rows = parseCsv(res.body);
    expect(rows[1]?.slice(1, 7)).toEqual([
      `'=HYPERLINK("http://evil.test","x")`,
      'Portland, ME',
      "'+1",
      "'-2\n3",
      "'\tTab",
      "'\rCR",
    ]);
  });

  it('answers the same rows, in the same order, as the admin list and search for each status and query', async () => {
    const ids = (body: string) =>
      parseCsv(body)
        .slice(1)
        .map((row) => row[0]);
    for (const status of [undefined, 'needs-review', 'missing', 'closed', 'compliant', 'rejected']) {
      for (const query of [undefined, '', 'main', 'ALICE', 'portland, me', '%', 'nothing-like-this']) {
        const params = new URLSearchParams();
        if (status) params.set('status', status);
        if (query !== undefined) params.set('query', query);
        const exported = ids((await csv(`/api/admin/transactions.csv?${params}`)).body);
        const filter = status ? `&status=${status}` : '';
        const page = query?.trim()
          ? await ok<TransactionsPage>(
              200,
              'GET',
              `/api/admin/transactions/search/${encodeURIComponent(query)}?limit=100${filter}`,
              admin,
            )
          : await ok<TransactionsPage>(200, 'GET', `/api/admin/transactions?limit=100${filter}`, admin);
        expect({ status, query, ids: exported }).toEqual({
          status,
          query,
          ids: page.transactions.map((row) => row._id),
        });
      }
    }
  });

  it('refuses a NUL in the query as the search does (400), before any CSV', async () => {
    const exported = await call('GET', '/api/admin/transactions.csv?query=a%00b', admin);
    const searched = await call('GET', '/api/admin/transactions/search/a%00b', admin);
    expect({ status: exported.statusCode, body: exported.json() }).toEqual({
      status: searched.statusCode,
      body: searched.json(),
    });
    expect(exported.statusCode).toBe(400);
    expect((await call('GET', '/api/users.csv?query=%00', admin)).statusCode).toBe(400);
  });

  it('answers the header row alone when nothing matches', async () => {
    expect((await csv('/api/admin/transactions.csv?query=no-such-address')).body).toBe(
      `${TRANSACTION_HEADER}\r\n`,
    );
  });

  it('refuses a status that does not exist with the usual 400 body', async () => {
    const res = await call('GET', '/api/admin/transactions.csv?status=lost', admin);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().code).toBe('BAD_REQUEST');
  });
});

describe('GET /api/admin/review-queue.csv', () => {
  it('answers every entry of the queue, oldest first, as the queue lists them', async () => {
    const res = await csv('/api/admin/review-queue.csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="review-queue-2026-11-21.csv"');
    expect(res.body).toBe(
      `${QUEUE_HEADER}\r\n` +
        `${deals.hostile.id},"'=HYPERLINK(""http://evil.test"",""x"")","Portland, ME",'+1,"'-2\n3",'\tTab,"'\rCR",` +
        `${deals.hostile.formIds[1]},Agency Disclosure,waiver,0,"Not applicable, ""no HOA""",` +
        `${bob.id},"'@Bob Broker, ""Jr.""",bob@export.test,2026-11-19T12:00:00.000Z,172800,,true\r\n` +
        `${deals.main.id},12 Main Street,Springfield,CA,90210,Purchase,Buyer,` +
        `${deals.main.formIds[0]},Purchase Agreement,document,2,,` +
        `${alice.id},Alice Agent,alice@export.test,2026-11-20T12:00:00.000Z,86400,,false\r\n`,
    );
    const queue = await ok<{ items: Array<{ form: { _id: string } }> }>(
      200,
      'GET',
      '/api/admin/review-queue?limit=100',
      admin,
    );
    expect(
      parseCsv(res.body)
        .slice(1)
        .map((row) => row[7]),
    ).toEqual(queue.items.map((item) => item.form._id));
  });

  it("takes the queue's filters: an agent, a type", async () => {
    const byAlice = parseCsv((await csv(`/api/admin/review-queue.csv?agentId=${alice.id}`)).body);
    expect(byAlice.slice(1).map((row) => row[0])).toEqual([deals.main.id]);
    const byType = parseCsv((await csv('/api/admin/review-queue.csv?type=Sale')).body);
    expect(byType).toEqual([QUEUE_HEADER.split(',')]);
  });
});

describe('GET /api/users.csv', () => {
  // A phone number in +1 form is defused too: the contract names every cell starting with +.
  it('answers the accounts of the users list search, newest first, defused and quoted', async () => {
    const res = await csv('/api/users.csv?query=export.test');
    expect(res.headers['content-disposition']).toBe('attachment; filename="users-2026-11-21.csv"');
    expect(res.body).toBe(
      `${USER_HEADER}\r\n` +
        `${bob.id},'@Bob,"Broker, ""Jr.""",bob@export.test,'=cmd|/C calc,'+1 555 010 0000,user,active,false,true,` +
        '2026-02-01T00:00:00.000Z,\r\n' +
        `${alice.id},Alice,Agent,alice@export.test,Acme Realty,'+1 555 010 0000,user,active,false,true,` +
        '2026-01-02T03:04:05.678Z,\r\n',
    );
  });

  it('answers the same rows as GET /api/users for each query', async () => {
    for (const query of [undefined, 'alice', 'ACME', '%', '_', 'nobody-at-all']) {
      const suffix = query === undefined ? '' : `query=${encodeURIComponent(query)}`;
      const exported = parseCsv((await csv(`/api/users.csv?${suffix}`)).body)
        .slice(1)
        .map((row) => row[0]);
      const list = await ok<UsersListAnswer>(200, 'GET', `/api/users?limit=100&${suffix}`, admin);
      expect({ query, ids: exported }).toEqual({ query, ids: list.users.map((user) => user._id) });
    }
  });
});

describe('who may export', () => {
  const urls = ['/api/admin/transactions.csv', '/api/admin/review-queue.csv', '/api/users.csv'];
  it('answers 401 to anonymous callers and 403 to agents, with the usual JSON bodies', async () => {
    for (const url of urls) {
      const anonymous = await call('GET', url);
      expect({ url, status: anonymous.statusCode, body: anonymous.json() }).toEqual({
        url,
        status: 401,
        body: { message: apiMessages.notSignedIn, code: 'UNAUTHORIZED', error: 'unauthenticated' },
      });
      const agent = await call('GET', url, alice);
      expect({ url, status: agent.statusCode, body: agent.json() }).toEqual({
        url,
        status: 403,
        body: { message: apiMessages.forbidden, code: 'FORBIDDEN', error: 'forbidden' },
      });
      expect(agent.headers['content-disposition']).toBeUndefined();
    }
  });

  it('answers HEAD with the headers alone, after the same checks, and runs no export', async () => {
    const head = async (who?: Actor) =>
      app.inject({
        method: 'HEAD',
        url: '/api/admin/transactions.csv',
        headers: who ? { authorization: `Bearer ${await accessTokenFor(who, { now: clock.now() })}` } : {},
      });
    const allowed = await head(admin);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.headers['content-disposition']).toBe('attachment; filename="transactions-2026-11-21.csv"');
    expect(allowed.body).toBe('');
    expect((await head(alice)).statusCode).toBe(403);
    expect((await head()).statusCode).toBe(401);
  });

  it('answers 401 "session" to a token that is not valid', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/users.csv',
      headers: { authorization: 'Bearer not-a-token' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(apiMessages.sessionInvalid);
  });
});

describe('streaming', () => {
  const BIG = 20_000;
  let baseUrl: string;
  let server: FastifyInstance;

  // Each export is about 14 MB: more than loopback's socket buffers take (they grow to a few MB
  // each way), so a client that stops reading holds its export running.
  beforeAll(async () => {
    const agent = await createUser(database.db, { firstName: 'Bulk', lastName: 'Loader' });
    await database.db.$executeRaw`
      INSERT INTO transactions (user_id, street_address, city, state, zip, type, role, created_at)
      SELECT ${agent.id}::uuid, n || ' Bulk Road, ' || repeat('a street name long enough to fill the buffers ', 12), 'Bulkville',
             'TX', '75001', 'Purchase', 'Buyer', timestamptz '2025-01-01' + n * interval '1 minute'
        FROM generate_series(1, ${BIG}) AS n`;
    server = buildTestApp(testDeps(database.db, { clock }));
    await server.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
  });
  afterAll(() => server?.close());

  const pool = () => {
    const value = poolOf(database.db);
    if (!value) throw new Error('no pool');
    return value;
  };
  /** Connections taken from the pool (an export holds one until it ends). */
  const busy = () => pool().totalCount - pool().idleCount;

  /** Starts an export and reads only its first chunk: the server is then held by backpressure. */
  async function startPaused(url: string) {
    const token = await accessTokenFor(admin, { now: clock.now() });
    return new Promise<{ req: http.ClientRequest; res: http.IncomingMessage; first: string }>(
      (resolve, reject) => {
        const req = http.get(`${baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } }, (res) => {
          res.once('data', (chunk: Buffer) => {
            res.pause();
            resolve({ req, res, first: chunk.toString('utf8') });
          });
        });
        req.on('error', reject);
      },
    );
  }

  it('sends every row of a large export over a real socket, then gives the connection back', async () => {
    const token = await accessTokenFor(admin, { now: clock.now() });
    const res = await fetch(`${baseUrl}/api/admin/transactions.csv?query=bulk road`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const text = await res.text();
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(TRANSACTION_HEADER);
    expect(lines.length).toBe(BIG + 2); // the header, the rows, and the empty string after the last CRLF
    expect(lines[1]).toContain(`${BIG} Bulk Road`);
    await until(() => busy() === 0, 5_000);
  });

  it('stops the COPY and frees its connection when the client goes away mid-export', async () => {
    const copying = async () => {
      const [row] = await database.db.$queryRaw<Array<{ n: number }>>`
        SELECT count(*)::int AS n FROM pg_stat_activity
         WHERE datname = current_database() AND query LIKE 'COPY (%' AND pid <> pg_backend_pid()`;
      return row?.n ?? 0;
    };
    const { req, res, first } = await startPaused('/api/admin/transactions.csv');
    expect(first.startsWith(TRANSACTION_HEADER)).toBe(true);
    // Held by backpressure: the COPY's connection is out of the pool, the statement running.
    expect(busy()).toBe(1);
    expect(await copying()).toBe(1);
    req.destroy();
    res.destroy();
    // The connection was in the middle of a COPY: it is closed, not pooled again, and
    // PostgreSQL ends the statement and its backend when the socket goes.
    await until(() => busy() === 0, 5_000);
    await until(async () => (await copying()) === 0, 5_000);
    // And the pool still works (it opens a new connection when it needs one).
    expect((await csv('/api/users.csv?query=export.test')).statusCode).toBe(200);
    expect(pool().idleCount).toBeGreaterThanOrEqual(1);
  });

  it(`answers 503 to a ${MAX_CONCURRENT_EXPORTS + 1}th export at once, and exports again once one ends`, async () => {
    const held = [];
    for (let i = 0; i < MAX_CONCURRENT_EXPORTS; i++)
      held.push(await startPaused('/api/admin/transactions.csv'));
    const token = await accessTokenFor(admin, { now: clock.now() });
    const refused = await fetch(`${baseUrl}/api/users.csv`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      message: apiMessages.exportsBusy,
      code: 'SERVICE_UNAVAILABLE',
      error: 'service-unavailable',
    });
    for (const { req, res } of held) {
      req.destroy();
      res.destroy();
    }
    await until(() => busy() === 0, 5_000);
    const again = await fetch(`${baseUrl}/api/users.csv`, { headers: { authorization: `Bearer ${token}` } });
    expect(again.status).toBe(200);
    expect((await again.text()).startsWith(USER_HEADER)).toBe(true);
  });
});
