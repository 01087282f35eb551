import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM, CHROMIUM_ARGS } from './e2e/support/chromium';

/**
 * Browser tests in Debian's Chromium against the BUILT server (run `npm run build` first;
 * `npm run test:e2e` does both). The server runs on a fresh embedded database each run.
 */

const port = Number(process.env.E2E_PORT ?? 4173);
const baseURL = `http://127.0.0.1:${port}`;
/** The same server by name, for what an IP address cannot do (passkeys). */
export const E2E_NAMED_URL = `http://localhost:${port}`;
const dataDir = path.join(tmpdir(), `brokerage-portal-e2e-${port}`);
/**
 * The portal sends its mail over SMTP (its outbox, jobs and retries, as in production) to a sink
 * on this port, which writes each message here as an .eml file the tests read.
 */
export const E2E_OUTBOX = path.join(tmpdir(), `brokerage-portal-e2e-mail-${port}`);
const smtpPort = port + 1;
/** The OpenID provider single sign-on's journey signs in at (e2e/support/oidc-provider-server.ts). */
export const E2E_OIDC = {
  issuer: `http://127.0.0.1:${port + 2}`,
  clientId: 'portal',
  clientSecret: 'portal-client-secret-for-tests',
  name: 'Harbor ID',
};
export const E2E_OWNER = { email: 'owner@example.com', password: 'e2e-owner-password' };

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/e2e',
  // Caps, not goals (here and in each spec's test.setTimeout): journeys with two signed-in
  // browsers and an axe scan took over 30 s on a CI machine shared with other work (two cores).
  // A whole run once went 2.5 times slower than the same journeys alone; most of that was
  // contexts left open (e2e/support/test.ts now closes them), but the host itself can be that
  // much slower at times, so every cap still leaves room for it.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // One journey at a time: two at once were not measured on a quiet machine yet, and under load
  // a dialog's fade-in met an axe scan. The journeys no longer read the owner's whole lists, so
  // two workers can be tried.
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list'], ['html', { open: 'never', outputFolder: 'test-results/e2e-report' }]],
  use: {
    baseURL,
    // Locally, a trace of every test, kept when it fails, without its screencast (the film strip
    // encoded a frame whenever the page painted, to be thrown away when the test passed). In CI,
    // none: the run keeps only its log, so a trace could never be opened, and recording the DOM
    // snapshot of every action cost a fifth of the page tour's time (e2e/pages.spec.ts on two
    // cores: 115 s with traces, 91 s without). A failure still gets its screenshot and its error.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: CHROMIUM, args: CHROMIUM_ARGS },
    // The installed app's worker would fetch every built file in each journey's fresh context;
    // only e2e/installable-app.spec.ts, which tests it, lets it run.
    serviceWorkers: 'block',
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      command: `rm -rf '${E2E_OUTBOX}' && npx tsx e2e/support/smtp-sink.ts ${smtpPort} '${E2E_OUTBOX}'`,
      port: smtpPort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `npx tsx e2e/support/oidc-provider-server.ts ${port + 2} ${baseURL}/api/auth/oidc/callback`,
      port: port + 2,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    {
      command: `rm -rf '${dataDir}' && node dist/server/main.js`,
      url: `${baseURL}/readyz`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'pipe',
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: baseURL,
        DATA_DIR: dataDir,
        DATABASE_URL: '', // always the embedded database, whatever the calling shell has
        ADMIN_EMAIL: E2E_OWNER.email,
        ADMIN_PASSWORD: E2E_OWNER.password,
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MIN: '0',
        // Every journey signs in from 127.0.0.1: the suite makes more than the default 100
        // sign-ins of a 15-minute window (one office address, as SIGN_IN_LIMIT_PER_IP describes).
        SIGN_IN_LIMIT_PER_IP: '10000',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        // The webhooks journey's receiver listens on 127.0.0.1 (e2e/webhooks.spec.ts).
        WEBHOOK_ALLOW_PRIVATE: 'true',
        // A passkey's relying party is a domain name, never an IP address: the passkeys journey
        // opens the portal as localhost (e2e/passkeys.spec.ts).
        WEBAUTHN_RP_ID: 'localhost',
        WEBAUTHN_ORIGINS: `http://localhost:${port}`,
        OIDC_ISSUER: E2E_OIDC.issuer,
        OIDC_CLIENT_ID: E2E_OIDC.clientId,
        OIDC_CLIENT_SECRET: E2E_OIDC.clientSecret,
        OIDC_NAME: E2E_OIDC.name,
      },
    },
  ],
});
