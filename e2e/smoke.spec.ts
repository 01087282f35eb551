import { ui } from '../shared/messages';
import { axeFindings } from './support/a11y';
import { expect, type Page, test } from './support/test';

/**
 * The built client served by the built server, in a real Chromium: it renders, routes, and
 * runs under the server's Content-Security-Policy without a single violation or console error.
 */

type Watch = { problems: string[] };

async function watchPage(page: Page): Promise<Watch> {
  const watch: Watch = { problems: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') watch.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => watch.problems.push(`page error: ${error.message}`));
  // Injected by the browser itself, so the CSP (script-src 'self') does not block it.
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return watch;
}

test('/ sends a visitor without a session to the sign-in page, under the CSP', async ({ page }, testInfo) => {
  const watch = await watchPage(page);
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth\/login$/);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expect(page).toHaveTitle('Brokerage Portal');
  await testInfo.attach('sign-in', {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });
  expect(watch.problems).toEqual([]);
});

test('a client route opened directly is served by the SPA fallback', async ({ page }) => {
  const watch = await watchPage(page);
  const response = await page.goto('/some/page/that/does/not/exist');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: ui.notFound })).toBeVisible();
  expect(watch.problems).toEqual([]);
});

test('the same-origin WebSocket for live updates is allowed by the CSP', async ({ page }) => {
  const watch = await watchPage(page);
  await page.goto('/auth/login');
  const state = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const socket = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/trpc`);
        socket.onopen = () => {
          socket.close();
          resolve('open');
        };
        socket.onerror = () => resolve('error');
      }),
  );
  expect(state).toBe('open');
  expect(watch.problems).toEqual([]);
});

test('the API documentation page renders from this server alone', async ({ page }) => {
  const watch = await watchPage(page);
  const external: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith('http://127.0.0.1')) external.push(request.url());
  });
  await page.goto('/api/docs');
  // Swagger UI parses and resolves the whole document (about 170 KB) in the page before it draws
  // the title: seconds on an idle machine, more than ten on a loaded CI runner.
  await expect(page.locator('.swagger-ui .info .title')).toContainText('Brokerage Portal API', {
    timeout: 90_000,
  });
  // Collapsed by default: the reader opens the tag they came for instead of scrolling every one.
  // (The webhooks' section below them is Swagger UI's own, listed whole.)
  await expect(page.locator('.swagger-ui .opblock-tag-section').first()).toBeVisible();
  await expect(page.locator('.swagger-ui .opblock-tag-section .opblock-summary')).toHaveCount(0);
  await expect(page.locator('.swagger-ui .webhooks .opblock-summary').first()).toBeVisible();
  expect(external).toEqual([]);
  expect(watch.problems).toEqual([]);
});

test('unknown API paths answer JSON 404s, not the client', async ({ request }) => {
  const response = await request.get('/api/no/such/route');
  expect(response.status()).toBe(404);
  expect(await response.json()).toEqual({ message: 'Not found', code: 'NOT_FOUND', error: 'not-found' });
});

test('the banner editor keeps konva out of the main bundle (it loads with its page)', async () => {
  // The suite runs against the build made just before it (scripts/test-e2e.mjs).
  const { readdir, readFile } = await import('node:fs/promises');
  const dir = 'dist/client/assets';
  const scripts = (await readdir(dir)).filter((name) => name.endsWith('.js'));
  const withKonva: string[] = [];
  for (const name of scripts)
    if ((await readFile(`${dir}/${name}`, 'utf8')).includes('Konva')) withKonva.push(name);
  expect(withKonva.length).toBeGreaterThan(0);
  expect(withKonva.every((name) => name.startsWith('Banner'))).toBe(true);
  expect(scripts.filter((name) => name.startsWith('index-') && withKonva.includes(name))).toEqual([]);
});

test('the accessibility check reports what it is there to catch', async ({ page }) => {
  // Every journey asserts that axeFindings finds nothing; this one shows that it would find
  // something: three faults planted on the sign-in page, each of a kind the check must report.
  await page.goto('/auth/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await axeFindings(page, 'the sign-in page')).toEqual([]);
  await page.evaluate(() => {
    const main = document.querySelector('main') ?? document.body;
    main.append(document.createElement('button')); // no accessible name
    const faint = document.createElement('p');
    faint.textContent = 'Barely there';
    Object.assign(faint.style, { color: '#f4f4f4', background: '#ffffff' });
    main.append(faint);
    const skipped = document.createElement('h5'); // skips heading levels
    skipped.textContent = 'Out of order';
    main.append(skipped);
  });
  const findings = (await axeFindings(page, 'planted')).join('\n');
  expect(findings).toContain('button-name (critical)');
  expect(findings).toContain('color-contrast (serious)');
  expect(findings).toContain('heading-order');
});
