import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutesOf } from '../rest/routes';
import type { PathScope } from '../rest/scopes';
import { accessOf } from '../trpc/init';
import { appRouter } from '../trpc/router';
import { bearer } from './api-calls';
import { apiKeyScopeOfUrl, describeApiKeyActor, keyHoldingEveryScope } from './authorization-matrix/api-keys';
import {
  allProcedures,
  callProcedure,
  callRoute,
  calls,
  mismatches,
  named,
  procedureTypes,
} from './authorization-matrix/calls';
import { FACTS_ROWS } from './authorization-matrix/facts';
import { PROCEDURES } from './authorization-matrix/procedures';
import { EXPORT_ROUTE_PROCEDURES, ROUTES, UPLOAD_ROUTE_PROCEDURES } from './authorization-matrix/routes';
import { OK, type Outcome, uniform } from './authorization-matrix/rules';
import {
  A,
  type ActorName,
  database,
  freshAgent,
  freshApiKeyId,
  freshDeal,
  freshDealAwaitingReview,
  newDeal,
  newUser,
  north,
  running,
  startMatrix,
  tokenOf,
  world,
} from './authorization-matrix/world';
import { createAdmin } from './factories';

/**
 * The authorization matrix: every tRPC procedure and every HTTP route the app registers, called
 * for real by nine actors (anonymous, agents A and B, an admin, the owner, an office admin of A's
 * office and one of another, a coordinator working for A and one working for B), against a
 * reviewed table of what each may do (./authorization-matrix/: rules.ts states the policy,
 * procedures.ts and routes.ts the rows, world.ts the actors and targets, calls.ts the calls;
 * facts.ts calls some of the same paths again with facts and template rules in the body).
 */

// --- Setup ---

/** Every route the app registers, as `METHOD url`; HEAD mirrors GET through the same handler. */
const registeredRoutes: string[] = [];
/** The API key scope each route declares (`x-api-key-scope` in its schema), as `METHOD url`. */
const declaredScopes = new Map<string, PathScope>();
/** The procedures' REST paths. */
const restRoutes = restRoutesOf(appRouter);

beforeAll(() =>
  startMatrix((route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || route.url.startsWith('/trpc')) continue;
      registeredRoutes.push(`${method} ${route.url}`);
      const scope = (route.schema as { 'x-api-key-scope'?: PathScope } | undefined)?.['x-api-key-scope'];
      if (scope) declaredScopes.set(`${method} ${route.url}`, scope);
    }
  }),
);

let coverage = '';
afterAll(async () => {
  // Printed for the record of what was covered (noConsole allows warn, not log).
  if (coverage) console.warn(`authorization matrix: ${coverage}, ${calls} calls`);
  await running.app?.close();
});

// --- The tests ---

describe('the table itself', () => {
  it('has exactly one row per procedure and per registered route: nothing new slips in unreviewed', () => {
    const procedures = [...procedureTypes.keys()].sort();
    const routes = [...new Set(registeredRoutes)].sort();
    const reviewed = (keys: string[], table: object) => keys.filter((key) => key in table).length;
    coverage =
      `${reviewed(procedures, PROCEDURES)}/${procedures.length} procedures, ` +
      `${reviewed(routes, ROUTES)}/${routes.length} routes`;
    expect(Object.keys(PROCEDURES).sort()).toEqual(procedures);
    expect(Object.keys(ROUTES).sort()).toEqual(routes);
    // The documented REST table and the upload routes are all among them.
    for (const route of restRoutes) expect(routes).toContain(`${route.method} ${route.path}`);
    for (const key of Object.keys(UPLOAD_ROUTE_PROCEDURES)) expect(routes).toContain(key);
  });

  it('shows every input valid: each row that tells actors apart lets at least one of them through', () => {
    for (const [key, row] of [...Object.entries(PROCEDURES), ...Object.entries(ROUTES)]) {
      const tellsApart = new Set(row.expect).size > 1;
      if (tellsApart)
        expect({ key, someoneSucceeds: row.expect.includes(OK) }).toEqual({ key, someoneSucceeds: true });
    }
  });

  it("agrees with each procedure's declared access (meta.access)", () => {
    for (const [path, procedure] of allProcedures) {
      const got = named(PROCEDURES[path]?.expect ?? uniform(OK));
      const access = accessOf(procedure);
      const who = { path, access };
      const of = (...actors: ActorName[]) => ({
        ...who,
        ...Object.fromEntries(actors.map((a) => [a, got[a]])),
      });
      const all = (outcome: Outcome, ...actors: ActorName[]) => ({
        ...who,
        ...Object.fromEntries(actors.map((a) => [a, outcome])),
      });
      expect(of('anonymous')).toEqual(all(access === 'public' ? OK : 401, 'anonymous'));
      const agents: ActorName[] = ['agentA', 'agentB', 'coordinatorOwn', 'coordinatorOther'];
      if (access === 'admin' || access === 'owner') expect(of(...agents)).toEqual(all(403, ...agents));
      if (access === 'owner') {
        const admins: ActorName[] = ['admin', 'officeAdminOwn', 'officeAdminOther'];
        expect(of(...admins, 'owner')).toEqual({ ...all(403, ...admins), owner: OK });
      }
    }
  });

  it('gives every REST route the row of the procedure it calls', () => {
    const pairs: Array<[string, string]> = [
      ...restRoutes.map((route): [string, string] => [`${route.method} ${route.path}`, route.procedurePath]),
      ...Object.entries(UPLOAD_ROUTE_PROCEDURES),
      ...Object.entries(EXPORT_ROUTE_PROCEDURES),
    ];
    for (const [route, path] of pairs) {
      expect({ route, path, expect: ROUTES[route]?.expect }).toEqual({
        route,
        path,
        expect: PROCEDURES[path]?.expect,
      });
    }
  });
});

describe('tRPC procedures (HTTP; the subscription over a WebSocket)', () => {
  for (const [path, row] of Object.entries(PROCEDURES)) {
    it(path, async () => {
      expect(await mismatches(row.expect, (actor) => callProcedure(path, row, actor))).toEqual({});
    });
  }
});

describe('HTTP routes', () => {
  for (const [key, row] of Object.entries(ROUTES)) {
    it(key, async () => {
      expect(await mismatches(row.expect, (actor) => callRoute(key, row, actor))).toEqual({});
    });
  }
});

describe('facts and conditional items, through the paths that set them', () => {
  for (const [name, row] of Object.entries(FACTS_ROWS)) {
    it(name, async () => {
      const wanted = named(row.row.expect);
      const held: Partial<Record<ActorName, unknown>> = {};
      const wrong = await mismatches(row.row.expect, async (actor) => {
        const outcome =
          'procedure' in row
            ? await callProcedure(row.procedure, row.row, actor)
            : await callRoute(row.route, row.row, actor);
        const found = await row.stored();
        const expected = wanted[actor] === OK ? row.applied : row.untouched;
        if (!isDeepStrictEqual(found, expected)) held[actor] = found;
        return outcome;
      });
      expect({ wrong, held }).toEqual({ wrong: {}, held: {} });
    });
  }
});

describeApiKeyActor(declaredScopes);

/**
 * What the lists hold, beyond their status: the office admin of North finds A in every desk list
 * and export, the admin of South finds nothing of North there; A's coordinator finds A's deals in
 * its own list and opens one for A, the other coordinator finds none.
 */
describe('what office admins and coordinators find in lists', () => {
  const read = async (actor: ActorName, url: string, apiKey?: string) => {
    const res = await running.app.inject({
      method: 'GET',
      url,
      headers: bearer(apiKey ?? (await tokenOf(actor))),
    });
    expect(res.statusCode, `${actor} GET ${url}: ${res.body}`).toBe(200);
    return res.body;
  };
  /** Each desk list and export, with what of North's it should show (A, by id, unless said). */
  const DESK_LISTS: Record<string, () => string | Promise<string>> = {
    '/api/admin/transactions?page=1&limit=100': () => A().id,
    '/api/admin/transactions/search/harbor?page=1&limit=100': () => A().id,
    '/api/admin/review-queue?page=1&limit=100': async () => (await freshDealAwaitingReview()).id,
    '/api/users?page=1&limit=100&query=Alice': () => A().id,
    '/api/admin/transactions.csv': () => A().id,
    '/api/admin/review-queue.csv': async () => (await freshDealAwaitingReview()).id,
    '/api/users.csv': () => A().id,
    '/api/admin/offices': () => north(),
    '/api/calendar?from=2026-11-01&to=2026-11-30': async () => {
      const deal = await freshDeal();
      await database.db.keyDate.create({
        data: {
          transactionId: deal.id,
          kind: 'closing',
          label: 'Closing',
          date: new Date('2026-11-20'),
          position: 0,
        },
      });
      return deal.id;
    },
    // The dashboard's figures per office name the offices it shows.
    '/api/admin/dashboard?from=2026-11-01&to=2026-11-30': () => north(),
    '/api/admin/api-keys': freshApiKeyId,
  };

  it('shows North to its office admin and nothing of North to the admin of South, and so to their keys', async () => {
    const found: Record<string, Record<string, boolean>> = {};
    const wanted: typeof found = {};
    for (const [url, northern] of Object.entries(DESK_LISTS)) {
      const marker = await northern();
      const finds = async (actor: 'officeAdminOwn' | 'officeAdminOther', key?: string) =>
        (await read(actor, url, key)).includes(marker);
      found[url] = { own: await finds('officeAdminOwn'), other: await finds('officeAdminOther') };
      wanted[url] = { own: true, other: false };
      // A key reads every desk list its creator reads, but the list of keys (no key calls it).
      if (apiKeyScopeOfUrl(declaredScopes, 'GET', url) === 'personal') continue;
      found[url].ownKey = await finds('officeAdminOwn', await keyHoldingEveryScope('officeAdminOwn'));
      found[url].otherKey = await finds('officeAdminOther', await keyHoldingEveryScope('officeAdminOther'));
      wanted[url] = { ...wanted[url], ownKey: true, otherKey: false };
    }
    expect(found).toEqual(wanted);
  });

  it("lists A's deals for A's coordinator, with A named, and none for the other coordinator", async () => {
    // The newest of A's deals heads the first page, however many the cells made.
    const fresh = await freshDeal();
    const listOf = async (actor: 'coordinatorOwn' | 'coordinatorOther') =>
      JSON.parse(await read(actor, `/api/transactions/${world.users[actor].id}?page=1&limit=10`)) as {
        transactions: Array<{ _id: string; user?: { _id: string } }>;
      };
    const own = (await listOf('coordinatorOwn')).transactions.find((row) => row._id === fresh.id);
    expect(own?.user?._id).toBe(A().id);
    expect((await listOf('coordinatorOther')).transactions.map((row) => row._id)).not.toContain(fresh.id);
  });

  it("opens a deal in A's name when A's coordinator creates one for A", async () => {
    const res = await running.app.inject({
      method: 'POST',
      url: '/api/transactions',
      payload: newDeal('coordinatorOwn'),
      headers: bearer(await tokenOf('coordinatorOwn')),
    });
    expect(res.statusCode, res.body).toBe(201);
    const row = await database.db.transaction.findUniqueOrThrow({ where: { id: res.json()._id } });
    expect({ agent: row.userId, office: row.officeId }).toEqual({ agent: A().id, office: north() });
  });
});

describe("an office admin's limits", () => {
  const send = async (method: 'POST' | 'PUT', url: string, payload: object) =>
    running.app.inject({ method, url, payload, headers: bearer(await tokenOf('officeAdminOwn')) });

  it('makes no brokerage-wide admin and moves nobody out of its office (403), and its new users are of its office', async () => {
    const northAdmin = await createAdmin(database.db, { office: { connect: { id: north() } } });
    const agent = await freshAgent();
    const madeWide = await send('PUT', `/api/users/${northAdmin.id}`, { officeId: null });
    const movedOut = await send('PUT', `/api/users/${agent.id}`, { officeId: null });
    const created = await send('POST', '/api/users', { ...newUser(), officeId: undefined });
    expect({
      madeWide: madeWide.statusCode,
      movedOut: movedOut.statusCode,
      created: created.statusCode,
    }).toEqual({
      madeWide: 403,
      movedOut: 403,
      created: 201,
    });
    expect(created.json().officeId).toBe(north());
    const still = await database.db.user.findMany({ where: { id: { in: [northAdmin.id, agent.id] } } });
    expect(still.map((user) => user.officeId)).toEqual([north(), north()]);
  });
});
