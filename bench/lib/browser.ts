import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Page } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from '../../e2e/support/chromium';
import { PROJECT_ROOT } from '../../server/paths';
import type { PortalStack } from '../../server/test/built-server';
import { expectStatus, openTransaction, signIn, timedCall } from '../../server/test/rest-client';

/** What the browser benchmarks share: Debian's Chromium, its switches, and signed-in agents. */

export { CHROMIUM, CHROMIUM_ARGS };

export const AGENT_PASSWORD = 'Client-bench-password-1';

export type Account = { email: string; password: string };

/** An agent added by the owner through POST /api/users, with `count` transactions of distinct addresses. */
export async function agentWithTransactions(
  stack: PortalStack,
  owner: { token: string },
  name: string,
  count: number,
): Promise<Account> {
  const email = `${name}@client-bench.test`;
  await expectStatus(
    timedCall(stack.server.baseUrl, 'POST', '/api/users', {
      token: owner.token,
      json: {
        firstName: name,
        lastName: 'Bench',
        email,
        phoneNumber: '555-010-2000',
        company: 'Bench Realty',
        password: AGENT_PASSWORD,
        role: 'user',
      },
    }),
    201,
  );
  const agent = await signIn(stack.server.baseUrl, email, AGENT_PASSWORD);
  for (let i = 1; i <= count; i++) {
    await openTransaction(stack.server.baseUrl, agent.token, {
      streetAddress: `${i} ${name} Street`,
      type: 'Listing',
      role: 'Seller',
    });
  }
  return { email, password: AGENT_PASSWORD };
}

/** Signs in through the sign-in page of `baseUrl`, as a person would; the session stays in the page's storage. */
export async function signInThroughPage(page: Page, baseUrl: string, account: Account): Promise<void> {
  await page.goto(`${baseUrl}/auth/login`);
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/home$/);
}

/**
 * `npm run build` as a deploy runs it (vite build, the bundle budget, the precompression, the
 * server bundle): the benchmarks measure what production serves. A broken budget fails the build;
 * the client benchmark then reports the budget from its own check.
 */
export async function buildAll(): Promise<void> {
  await promisify(execFile)('npm', ['run', 'build'], { cwd: PROJECT_ROOT, maxBuffer: 16 * 1024 * 1024 });
}
