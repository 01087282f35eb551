import { afterAll, beforeAll, expect, test } from 'vitest';
import { median } from '../../bench/lib/stats';
import { codeAt } from '../services/sign-in/totp-codes';
import { type PortalStack, startPortalStack } from '../test/built-server';
import { writePerformanceSection } from '../test/performance-doc';
import { AGENT_PASSWORD, createAgents, expectStatus, signIn, timedCall } from '../test/rest-client';

/**
 * By the clock: can a caller tell "no such account" from "wrong password" by how
 * long sign-in takes? The suite proves the cause (one argon2 verification either way, counted in
 * server/routers/auth.test.ts); this run measures the effect on the built server with the
 * production argon2 parameters. The two kinds of attempt alternate one by one, so the machine's
 * noise falls on both alike, and the medians are compared as a ratio.
 */

// With the agents' own sign-ins this stays under the 100 sign-ins per address in 15 minutes.
const ATTEMPTS_PER_KIND = 40;
/** Wrong passwords per account stay under its lockout of 10 failures. */
const ATTEMPTS_PER_ACCOUNT = 5;
/** Both kinds must take the same time within this factor (the medians differ by well under 5%). */
const TOLERATED_RATIO = 1.25;

let stack: PortalStack | undefined;
beforeAll(async () => {
  // NODE_ENV=production (set by startBuiltServer): argon2id at 19 MiB, t 2, the real cost. Both
  // tests share the address's sign-in budget, which the second-factor run would overdraw.
  stack = await startPortalStack({ SIGN_IN_LIMIT_PER_IP: '1000' });
});
afterAll(async () => {
  await stack?.close();
});

test('an unknown e-mail and a wrong password take the same time to refuse', async () => {
  if (!stack) throw new Error('the stack did not start');
  const { baseUrl } = stack.server;
  const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
  const agents = await createAgents(
    baseUrl,
    owner,
    Math.ceil(ATTEMPTS_PER_KIND / ATTEMPTS_PER_ACCOUNT),
    'timing',
  );

  const attempt = async (email: string) => {
    const answer = await timedCall(baseUrl, 'POST', '/api/auth/login', {
      json: { email, password: 'not-the-password-1' },
    });
    expect(answer.status, email).toBe(401);
    return { ms: answer.ms, body: JSON.stringify(answer.body) };
  };
  // Warm-up: the first argon2 call of a process allocates its memory.
  await attempt('warm-up@nowhere.test');

  const unknown: number[] = [];
  const wrongPassword: number[] = [];
  const bodies = new Set<string>();
  for (let i = 0; i < ATTEMPTS_PER_KIND; i++) {
    const agent = agents[Math.floor(i / ATTEMPTS_PER_ACCOUNT)];
    if (!agent) throw new Error('not enough agents');
    // Alternate which kind goes first, so neither always follows the other.
    const order = i % 2 ? (['unknown', 'wrong'] as const) : (['wrong', 'unknown'] as const);
    for (const kind of order) {
      const { ms, body } = await attempt(kind === 'unknown' ? `nobody${i}@nowhere.test` : agent.email);
      (kind === 'unknown' ? unknown : wrongPassword).push(ms);
      bodies.add(body);
    }
  }

  const unknownMedian = median(unknown);
  const wrongMedian = median(wrongPassword);
  const ratio = unknownMedian / wrongMedian;
  console.warn(
    `sign-in timing: unknown e-mail median ${unknownMedian.toFixed(1)} ms, wrong password median ` +
      `${wrongMedian.toFixed(1)} ms, ratio ${ratio.toFixed(3)} (${ATTEMPTS_PER_KIND} each)`,
  );
  // The same body for both: status and body tell nothing either.
  expect(bodies.size).toBe(1);
  expect(ratio).toBeGreaterThan(1 / TOLERATED_RATIO);
  expect(ratio).toBeLessThan(TOLERATED_RATIO);

  await writePerformanceSection(
    'sign-in-timing',
    `## Sign-in timing: unknown e-mail versus wrong password

Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`npm run test:resilience\`
(server/resilience/sign-in-timing.resilience.ts), on the built server with the production argon2id
parameters (19 MiB, t 2, p 1). ${ATTEMPTS_PER_KIND} attempts of each kind, alternating one by one.

| Refused sign-in | median ms |
| --------------- | --------: |
| unknown e-mail  | ${unknownMedian.toFixed(1)} |
| wrong password  | ${wrongMedian.toFixed(1)} |

Ratio ${ratio.toFixed(3)} (the run fails outside ${(1 / TOLERATED_RATIO).toFixed(2)} to ${TOLERATED_RATIO}); both answers
have the same status and body. An unknown e-mail is verified against a decoy hash made with the
same parameters, so both cost one argon2 verification.`,
  );
});

/** Wrong codes per account stay under its 10 per 15 minutes; one challenge takes 5 attempts. */
const CODES_PER_ACCOUNT = 5;

test('an unknown challenge and a wrong code take the same time to refuse', async () => {
  if (!stack) throw new Error('the stack did not start');
  const { baseUrl } = stack.server;
  const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
  const agents = await createAgents(
    baseUrl,
    owner,
    Math.ceil(ATTEMPTS_PER_KIND / CODES_PER_ACCOUNT),
    'timing-2fa',
  );
  // Each agent turns two-factor sign-in on, then signs in once more: its challenge.
  const challenges: string[] = [];
  for (const agent of agents) {
    const setup = (await expectStatus(
      timedCall(baseUrl, 'POST', '/api/auth/2fa/totp/setup', { token: agent.token }),
      200,
    )) as { secret: string };
    await expectStatus(
      timedCall(baseUrl, 'POST', '/api/auth/2fa/totp/enable', {
        token: agent.token,
        json: { code: codeAt(setup.secret, new Date()) },
      }),
      200,
    );
    const login = (await expectStatus(
      timedCall(baseUrl, 'POST', '/api/auth/login', {
        json: { email: agent.email, password: AGENT_PASSWORD },
      }),
      200,
    )) as { challenge: string };
    challenges.push(login.challenge);
  }

  const attempt = async (challenge: string) => {
    // Never a code the app would show: 000000 is as wrong as any other for every step.
    const answer = await timedCall(baseUrl, 'POST', '/api/auth/2fa/verify', {
      json: { challenge, code: '000000' },
    });
    expect(answer.status).toBe(401);
    return { ms: answer.ms, body: JSON.stringify(answer.body) };
  };
  await attempt('warm-up-challenge');

  const unknown: number[] = [];
  const wrongCode: number[] = [];
  const bodies = new Set<string>();
  for (let i = 0; i < ATTEMPTS_PER_KIND; i++) {
    const challenge = challenges[Math.floor(i / CODES_PER_ACCOUNT)];
    if (!challenge) throw new Error('not enough challenges');
    const order = i % 2 ? (['unknown', 'wrong'] as const) : (['wrong', 'unknown'] as const);
    for (const kind of order) {
      const { ms, body } = await attempt(kind === 'unknown' ? `no-such-challenge-${i}` : challenge);
      (kind === 'unknown' ? unknown : wrongCode).push(ms);
      bodies.add(body);
    }
  }

  const unknownMedian = median(unknown);
  const wrongMedian = median(wrongCode);
  const ratio = unknownMedian / wrongMedian;
  console.warn(
    `second-factor timing: unknown challenge median ${unknownMedian.toFixed(1)} ms, wrong code median ` +
      `${wrongMedian.toFixed(1)} ms, ratio ${ratio.toFixed(3)} (${ATTEMPTS_PER_KIND} each)`,
  );
  expect(bodies.size).toBe(1);
  expect(ratio).toBeGreaterThan(1 / TOLERATED_RATIO);
  expect(ratio).toBeLessThan(TOLERATED_RATIO);
});
