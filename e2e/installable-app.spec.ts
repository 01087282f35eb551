import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { appStatusMessages } from '../shared/app-status-messages';
import { axeFindings } from './support/a11y';
import { approvedAgent, signIn } from './support/accounts';
import { expect, type Page, test } from './support/test';

/**
 * The portal as an installed app, in a real Chromium with its service worker: installable (a
 * manifest with icons), the shell opens with no signal and says so, and a new version waits for
 * the user's word before it takes over.
 */

test.use({ serviceWorkers: 'allow', viewport: { width: 390, height: 844 } });

/** Waits until the service worker is active and controls the page (one reload after the first visit). */
async function underServiceWorker(page: Page): Promise<void> {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await page.reload();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.scriptURL ?? null))
    .toMatch(/\/sw\.js$/);
}

test('installable: a manifest with its icons, and the shell opens offline with the message', async ({
  page,
  context,
  request,
}) => {
  const manifestHref = await page
    .goto('/auth/login')
    .then(() => page.locator('link[rel="manifest"]').getAttribute('href'));
  const manifest = await (await request.get(manifestHref ?? '')).json();
  expect(manifest).toMatchObject({ name: 'Brokerage Portal', display: 'standalone', start_url: '/home' });
  const icons = manifest.icons as Array<{ src: string; sizes: string; purpose: string }>;
  expect(icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual([
    '192x192 any',
    '512x512 any',
    '512x512 maskable',
  ]);
  for (const icon of icons) {
    const answer = await request.get(icon.src);
    expect(answer.status(), icon.src).toBe(200);
    expect(answer.headers()['content-type']).toBe('image/png');
  }

  const agent = await approvedAgent(request, 'Offline');
  await signIn(page, agent.email, agent.password);
  await underServiceWorker(page);
  await expect(page.getByText(appStatusMessages.offline)).toHaveCount(0);

  await context.setOffline(true);
  await expect(page.getByText(appStatusMessages.offline)).toBeVisible();
  // A reload with no signal: the shell comes from the worker, and says there is no signal.
  await page.reload();
  await expect(page.getByText(appStatusMessages.offline)).toBeVisible();
  await expect(page.getByRole('complementary', { name: "The app's status" })).toBeVisible();
  expect(await axeFindings(page, 'offline')).toEqual([]);
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(sideways).toBeLessThanOrEqual(0);

  await context.setOffline(false);
  await expect(page.getByText(appStatusMessages.offline)).toHaveCount(0);
});

test('a new version waits for the word: a half-filled form survives it, Reload brings it in', async ({
  page,
  request,
}) => {
  const agent = await approvedAgent(request, 'Updating');
  await signIn(page, agent.email, agent.password);
  await underServiceWorker(page);
  const firstWorker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);

  // A deploy: the server now has another sw.js (its compressed copies would still be the old one).
  const worker = path.resolve('dist/client/sw.js');
  const original = await readFile(worker, 'utf8');
  await Promise.all(['.br', '.gz'].map((suffix) => copyFile(worker + suffix, `${worker + suffix}.saved`)));
  try {
    await Promise.all(['.br', '.gz'].map((suffix) => rm(worker + suffix)));
    await writeFile(worker, `${original}\n// the next version\n`);

    await page.getByRole('button', { name: 'Add Transaction' }).click();
    const street = page.getByRole('dialog').getByLabel('Street Address');
    await street.fill('12 Half Typed Lane');
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.update()));
    await expect(page.getByText(appStatusMessages.updateReady)).toBeVisible();
    expect(await axeFindings(page, 'update ready')).toEqual([]);
    // Nothing reloaded by itself: what the user typed is still there.
    await expect(street).toHaveValue('12 Half Typed Lane');

    await page.getByRole('button', { name: appStatusMessages.reloadToUpdate }).click();
    await expect(page.getByText(appStatusMessages.updateReady)).toHaveCount(0);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect
      .poll(() =>
        page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r?.waiting ?? null)),
      )
      .toBeNull();
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(firstWorker);
  } finally {
    await writeFile(worker, original);
    await Promise.all(['.br', '.gz'].map((suffix) => copyFile(`${worker + suffix}.saved`, worker + suffix)));
    await Promise.all(['.br', '.gz'].map((suffix) => rm(`${worker + suffix}.saved`)));
  }
});
