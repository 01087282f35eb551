import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../../test/harness';
import { hostileString } from '../../test/hostile-inputs';
import { startTestProvider, TEST_CLIENT, type TestProvider } from '../../test/oidc-provider';
import { CALLBACK } from '../../test/sso-browser';

/**
 * Single sign-on's three public steps under hostile input, with a real provider behind them:
 * never a 5xx; start either goes to the provider with a path of this site to return to, or
 * refuses; every callback ends on the landing page; a made-up code is refused. Each case comes
 * from its own address, so the limits do not hide what the code does.
 */

const database = setupTestDatabase();
const APP_URL = 'http://localhost:3000';
const RUNS = Number.parseInt(process.env.FUZZ_RUNS ?? '', 10) || 150;
let provider: TestProvider;
let deps: AppDeps;
let app: FastifyInstance;
let address = 0;
const nextAddress = () => {
  address++;
  return `10.${(address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}`;
};

beforeAll(async () => {
  provider = await startTestProvider(`${APP_URL}${CALLBACK}`);
  deps = testDeps(database.db, {
    clock: new TestClock(new Date()),
    config: testConfig({
      appUrl: APP_URL,
      oidc: { issuer: provider.issuer, ...TEST_CLIENT, name: 'Harbor ID', autoRegister: false },
    }),
  });
  app = buildTestApp(deps);
});
afterAll(async () => {
  await app.close();
  await provider.stop();
});

/** Every byte escaped: encodeURIComponent throws on a lone surrogate, which a browser would send as U+FFFD. */
const percent = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
const queryValue = fc.oneof(
  hostileString,
  fc.string({ maxLength: 300 }),
  fc.constantFrom('', '%', '%zz', '%00'),
);

describe('the limit of single sign-on', () => {
  it('counts start, callback and exchange together: the 61st call from one address in 15 minutes is 429', async () => {
    const from = '192.0.2.77';
    const calls = [
      () => app.inject({ method: 'GET', url: '/api/auth/oidc/start', remoteAddress: from }),
      () => app.inject({ method: 'GET', url: `${CALLBACK}?code=c&state=s`, remoteAddress: from }),
      () =>
        app.inject({
          method: 'POST',
          url: '/api/auth/oidc/exchange',
          payload: { code: 'x' },
          remoteAddress: from,
        }),
    ];
    for (let n = 0; n < 60; n++) expect((await calls[n % 3]?.())?.statusCode).not.toBe(429);
    for (const call of calls) expect((await call()).statusCode).toBe(429);
    const elsewhere = await app.inject({
      method: 'GET',
      url: '/api/auth/oidc/start',
      remoteAddress: '192.0.2.78',
    });
    expect(elsewhere.statusCode).toBe(302);
  });
});

describe('single sign-on under hostile input', () => {
  it('start: 302 to the provider with a path of this site kept, or a 4xx', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          queryValue.map(percent),
          fc.constantFrom('%2F%2Fevil.example', '%2F%5Cevil', '%2F%09%2Fevil', '%zz'),
        ),
        async (returnTo) => {
          const res = await app.inject({
            method: 'GET',
            url: `/api/auth/oidc/start?returnTo=${returnTo}`,
            remoteAddress: nextAddress(),
          });
          expect([302, 400], res.body.slice(0, 200)).toContain(res.statusCode);
          if (res.statusCode !== 302) return;
          expect(String(res.headers.location).startsWith(`${provider.issuer}/`)).toBe(true);
          const state = new URL(String(res.headers.location)).searchParams.get('state');
          expect(state).toBeTruthy();
        },
      ),
      { numRuns: RUNS },
    );
    const kept = await database.db.oidcFlow.findMany({ select: { returnTo: true } });
    for (const { returnTo } of kept) {
      if (returnTo === null) continue;
      expect(returnTo.startsWith('/') && !returnTo.startsWith('//') && !returnTo.includes('\\')).toBe(true);
    }
  });

  it('callback: always 303 to the landing page, whatever the query and cookie', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          code: fc.option(queryValue, { nil: undefined }),
          state: fc.option(queryValue, { nil: undefined }),
          error: fc.option(queryValue, { nil: undefined }),
          raw: fc.option(fc.constantFrom('code=a&code=b&state=x', 'state[]=1', '%%%', '&&==&'), {
            nil: undefined,
          }),
          cookie: fc.option(fc.oneof(hostileString, fc.constant('portal_sso=')), { nil: undefined }),
        }),
        async ({ code, state, error, raw, cookie }) => {
          const params = new URLSearchParams();
          if (code !== undefined) params.set('code', code);
          if (state !== undefined) params.set('state', state);
          if (error !== undefined) params.set('error', error);
          const query = raw ?? params.toString();
          const res = await app.inject({
            method: 'GET',
            url: `${CALLBACK}?${query}`,
            remoteAddress: nextAddress(),
            headers: cookie === undefined ? {} : { cookie: cookie.replace(/[^\x20-\x7e]/g, '') },
          });
          expect([303, 400], res.body.slice(0, 200)).toContain(res.statusCode);
          if (res.statusCode === 303)
            expect(String(res.headers.location)).toMatch(/^\/auth\/sso#code=[\w-]{43}$/);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('exchange: a made-up code is a 4xx, never a session', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileString, fc.string({ maxLength: 300 })), async (code) => {
        const res = await app.inject({
          method: 'POST',
          url: '/api/auth/oidc/exchange',
          payload: { code },
          remoteAddress: nextAddress(),
        });
        expect([400, 413], res.body.slice(0, 200)).toContain(res.statusCode);
      }),
      { numRuns: RUNS },
    );
  });
});
