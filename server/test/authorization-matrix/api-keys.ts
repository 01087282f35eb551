import { describe, expect, it } from 'vitest';
import { integrationMessages } from '../../../shared/messages';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../../shared/schemas/api-keys';
import { restRoutesOf } from '../../rest/routes';
import type { PathScope } from '../../rest/scopes';
import { appRouter } from '../../trpc/router';
import { bearer, subscribeOverWebSocket, trpcRequest } from '../api-calls';
import { createAdmin } from '../factories';
import { allProcedures, named, outcomeOf, procedureTypes, sendRequest } from './calls';
import { PROCEDURES } from './procedures';
import { EXPORT_ROUTE_PROCEDURES, ROUTES, UPLOAD_ROUTE_PROCEDURES } from './routes';
import { clock, database, freshApiKey, running, type SignedIn } from './world';

/**
 * The API-key actor of the authorization matrix. A key acts with its creator's rights narrowed
 * to its scopes, and admins of every kind make keys: so for every /api path that takes keys
 * (derived from the routes, so that a new one cannot be missed), a key of each admin
 * (brokerage-wide, the owner, the office admin of North and of South) holding exactly the
 * path's scope gets what its creator gets in the path's row; a key holding every other scope is
 * 403 for the scope it lacks; a 'personal' path is 403 for every key. A key that no longer
 * works (revoked, expired, its creator deactivated or demoted) is 401 on every one of them, and
 * /trpc refuses every key.
 */

/** The actors who may make keys: every admin. */
const KEY_CREATORS = ['admin', 'owner', 'officeAdminOwn', 'officeAdminOther'] as const satisfies SignedIn[];

/** Every /api path that takes a bearer token: the procedures' REST paths, uploads, exports. */
const apiPaths = [
  ...new Set([
    ...restRoutesOf(appRouter).map((route) => `${route.method} ${route.path}`),
    ...Object.keys(UPLOAD_ROUTE_PROCEDURES),
    ...Object.keys(EXPORT_ROUTE_PROCEDURES),
  ]),
];

/** One key per creator and scope set, made as a cell first asks: calling leaves a key as it was. */
const keys = new Map<string, Promise<string>>();
function keyOf(creator: SignedIn, scopes: readonly ApiKeyScope[]): Promise<string> {
  const name = `${creator} ${scopes.join(' ')}`;
  let key = keys.get(name);
  if (!key) {
    key = freshApiKey(scopes, creator).then((made) => made.key);
    keys.set(name, key);
  }
  return key;
}

/** A live key of `creator`'s holding every scope. */
export const keyHoldingEveryScope = (creator: SignedIn) => keyOf(creator, API_KEY_SCOPES);

/** The scope the route serving `url` declares, if it declares one. */
export function apiKeyScopeOfUrl(
  declaredScopes: Map<string, PathScope>,
  method: string,
  url: string,
): PathScope | undefined {
  const path = url.split('?')[0] ?? url;
  for (const [route, scope] of declaredScopes) {
    const [routeMethod, pattern = ''] = route.split(' ');
    const matcher = new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/:[^/.]+/g, '[^/]+')}$`);
    if (routeMethod === method && matcher.test(path)) return scope;
  }
  return undefined;
}

/** Keys holding every scope that no longer work, each with the 401 message it gets. */
let deadKeys: Promise<Array<{ cell: string; key: string; message: string }>> | undefined;
function keysThatNoLongerWork() {
  deadKeys ??= (async () => {
    const now = clock.now().getTime();
    const creatorWho = async (change: { isAdminApproved: false } | { role: 'user' }) => {
      const creator = await createAdmin(database.db);
      const made = await freshApiKey(API_KEY_SCOPES, creator);
      await database.db.user.update({ where: { id: creator.id }, data: change });
      return made.key;
    };
    const revokedAt = new Date(now - 60_000);
    return [
      {
        cell: 'revoked key',
        key: (await freshApiKey(API_KEY_SCOPES, 'owner', { revokedAt })).key,
        message: integrationMessages.keyRevoked,
      },
      {
        cell: 'expired key',
        key: (await freshApiKey(API_KEY_SCOPES, 'owner', { expiresAt: new Date(now - 1000) })).key,
        message: integrationMessages.keyExpired,
      },
      {
        cell: 'key of a deactivated admin',
        key: await creatorWho({ isAdminApproved: false }),
        message: integrationMessages.keyCreatorInactive,
      },
      {
        cell: 'key of a demoted admin',
        key: await creatorWho({ role: 'user' }),
        message: integrationMessages.keyCreatorInactive,
      },
    ];
  })();
  return deadKeys;
}

/** A refusal as status and message (error bodies may carry more fields: they are not compared). */
function refusalOf(res: { statusCode: number; body: string }): string {
  let message: unknown;
  try {
    message = (JSON.parse(res.body) as { message?: unknown }).message;
  } catch {
    message = res.body.slice(0, 80);
  }
  return `${res.statusCode} ${String(message)}`;
}

/**
 * Calls the path with each key cell and returns the cells whose answer is not the one wanted
 * (`{}` when all are). The cells a key is refused in change nothing, so they share one request.
 */
async function keyMismatches(path: string, scope: PathScope): Promise<Record<string, string>> {
  const row = ROUTES[path];
  if (!row) throw new Error(`no matrix row for ${path}`);
  const wanted: Record<string, string> = {};
  const got: Record<string, string> = {};
  const creatorsGet = named(row.expect);
  if (scope !== 'personal') {
    // 'any' paths take a key of any scope: one is enough to show it.
    const holding: ApiKeyScope[] = scope === 'any' ? ['users:read'] : [scope];
    for (const creator of KEY_CREATORS) {
      const cell = `${creator}'s key with ${holding.join(' ')}`;
      const res = await sendRequest(path, await row.request(creator), await keyOf(creator, holding));
      wanted[cell] = String(creatorsGet[creator]);
      got[cell] = String(outcomeOf(res.statusCode));
    }
  }
  const refusals: Array<{ cell: string; key: string; answer: string }> = [];
  if (scope === 'personal') {
    for (const creator of KEY_CREATORS) {
      const key = await keyHoldingEveryScope(creator);
      refusals.push({ cell: `${creator}'s key`, key, answer: `403 ${integrationMessages.notForApiKeys}` });
    }
  } else if (scope !== 'any') {
    const allBut = API_KEY_SCOPES.filter((other) => other !== scope);
    for (const creator of KEY_CREATORS) {
      const key = await keyOf(creator, allBut);
      const answer = `403 ${integrationMessages.lacksScope(scope)}`;
      refusals.push({ cell: `${creator}'s key without ${scope}`, key, answer });
    }
  }
  for (const dead of await keysThatNoLongerWork())
    refusals.push({ cell: dead.cell, key: dead.key, answer: `401 ${dead.message}` });
  const request = await row.request('owner');
  for (const { cell, key, answer } of refusals) {
    wanted[cell] = answer;
    got[cell] = refusalOf(await sendRequest(path, request, key));
  }
  return Object.fromEntries(
    Object.keys(wanted)
      .filter((cell) => got[cell] !== wanted[cell])
      .map((cell) => [cell, `expected ${wanted[cell]}, got ${got[cell]}`]),
  );
}

/**
 * The API-key rows of the matrix. `declaredScopes` is filled as the app registers its routes
 * (the `x-api-key-scope` each declares, by `METHOD url`).
 */
export function describeApiKeyActor(declaredScopes: Map<string, PathScope>): void {
  describe('the API-key actor: a key of each admin, on every /api path', () => {
    it('declares a scope for every /api path that takes a bearer token, and nothing else', () => {
      expect([...declaredScopes.keys()].sort()).toEqual([...apiPaths].sort());
      // A procedure's REST path is mounted with the scope its meta declares.
      for (const route of restRoutesOf(appRouter))
        expect(declaredScopes.get(`${route.method} ${route.path}`), route.procedurePath).toBe(route.scope);
    });

    for (const path of apiPaths) {
      it(path, async () => {
        const scope = declaredScopes.get(path);
        if (!scope) throw new Error(`no API key scope declared for ${path}`);
        expect(await keyMismatches(path, scope)).toEqual({});
      });
    }
  });

  describe('/trpc refuses every API key: integrators use /api', () => {
    it('answers 401 "API keys work on the /api paths only" from every procedure, public ones too', async () => {
      const key = await keyHoldingEveryScope('owner');
      const wrong: Record<string, string> = {};
      for (const [path] of allProcedures) {
        const row = PROCEDURES[path];
        const type = procedureTypes.get(path);
        const input = row?.via ? undefined : await row?.input?.('owner');
        let answer: string;
        if (type === 'subscription') {
          const subscription = subscribeOverWebSocket(running.webSocketUrl, path, input, key);
          try {
            answer = String(await Promise.race([subscription.started.then(() => 'ok'), subscription.failed]));
          } finally {
            subscription.close();
          }
          if (answer !== '401') wrong[path] = `expected 401, got ${answer}`;
          continue;
        }
        const res = await running.app.inject(trpcRequest(path, type ?? 'query', input, bearer(key)));
        const message = (res.json() as { error?: { message?: string } }).error?.message;
        answer = `${res.statusCode} ${message}`;
        const expected = `401 ${integrationMessages.keyOnlyOnApi}`;
        if (answer !== expected) wrong[path] = `expected ${expected}, got ${answer}`;
      }
      expect(wrong).toEqual({});
    });
  });
}
