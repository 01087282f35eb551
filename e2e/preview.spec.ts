import { randomBytes } from 'node:crypto';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { E2E_OWNER } from '../playwright.config';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, type Browser, expect, type Page, test } from './support/test';

/**
 * The inline preview of review mode in a real Chromium: a
 * 40-page PDF shows "Page 1 of 40" after a few ranged requests instead of the whole file, pages
 * turn, the zoom changes the drawing, and the pre-checks' findings stand beside the document.
 * axe finds nothing serious, at a desk or at 390 px.
 */

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const PAGES = 40;

/**
 * 39 pages of text and a blank last one (a pre-check finding). An attachment of random bytes
 * (which no compression shrinks) makes the file far larger than the parts page 1 needs, so
 * reading it whole and reading it by ranges cannot be mistaken for each other.
 */
async function longPacket(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let number = 1; number < PAGES; number += 1) {
    const page = pdf.addPage([612, 792]);
    page.drawText(`Purchase Agreement, page ${number} of ${PAGES}`, { x: 50, y: 740, size: 18, font });
    for (let line = 0; line < 30; line += 1)
      page.drawText(`Clause ${number}.${line + 1}: the buyer and the seller agree to the terms below.`, {
        x: 50,
        y: 700 - line * 20,
        size: 11,
        font,
      });
  }
  pdf.addPage([612, 792]);
  await pdf.attach(randomBytes(1024 * 1024), 'scanner-log.bin', { mimeType: 'application/octet-stream' });
  return Buffer.from(await pdf.save());
}

/** A template of one document, an agent's transaction with the packet attached to it. */
async function packetInQueue(request: APIRequestContext, streetAddress: string) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Preview ${Date.now()}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: ['Purchase Agreement'], optionalForms: [] },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Petra');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress, city: 'Augusta', state: 'ME', zip: '04330' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deal = (await created.json()) as { _id: string; forms: Array<{ _id: string }> };
  const packet = await longPacket();
  const stored = await request.post(`/api/uploads/transactions/${deal._id}`, {
    headers: auth(agent.token),
    multipart: { file: { name: 'purchase-agreement.pdf', mimeType: 'application/pdf', buffer: packet } },
  });
  expect(stored.status(), await stored.text()).toBe(201);
  const attached = await request.put(`/api/transactions/${deal._id}/forms/${deal.forms[0]?._id}`, {
    headers: auth(agent.token),
    data: { url: ((await stored.json()) as { key: string }).key },
  });
  expect(attached.status(), await attached.text()).toBe(200);
  return { type, size: packet.length };
}

type FileAnswer = { status: number; range: string | undefined; bytes: number };

/** Review mode on the queue's only item of `type`, with every answer from /files recorded. */
async function openReview(
  browser: Browser,
  type: string,
  streetAddress: string,
  viewport: { width: number; height: number },
) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const files: FileAnswer[] = [];
  page.on('response', async (response) => {
    if (!new URL(response.url()).pathname.startsWith('/files/')) return;
    const range = await response.request().headerValue('range');
    const bytes = Number((await response.headerValue('content-length')) ?? 0);
    files.push({ status: response.status(), range: range ?? undefined, bytes });
  });
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  await page.goto('/admin/review');
  await page.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: type }).click();
  const row = page.getByRole('row').filter({ hasText: streetAddress });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'Review' }).click();
  return { page, panel: page.getByRole('dialog'), files };
}

const drawn = (panel: ReturnType<Page['getByRole']>, pageNumber: number) =>
  expect(panel.locator(`canvas[data-drawn-page="${pageNumber}"]`)).toBeVisible();

test('review mode shows a 40-page PDF from ranges: pages, zoom, pre-checks; axe finds nothing', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const streetAddress = '40 Preview Parade';
  const { type, size } = await packetInQueue(request, streetAddress);
  const { page, panel, files } = await openReview(browser, type, streetAddress, { width: 1440, height: 900 });

  await expect(panel.getByText(`Page 1 of ${PAGES}`)).toBeVisible();
  await drawn(panel, 1);
  // Beside the document: what the upload's pre-checks found, and the page count.
  await expect(panel.getByTestId('review-warnings')).toContainText('Pre-checks');
  await expect(panel.getByTestId('review-warnings')).toContainText(`Page ${PAGES} looks blank`);
  await expect(panel).toContainText(`${PAGES} pages`);

  // Progressive: the first answer said ranges work, and the pages came in 64 KiB parts.
  const parts = files.filter((answer) => answer.status === 206);
  expect(files[0]?.status).toBe(200);
  expect(parts.length).toBeGreaterThan(0);
  for (const part of parts) expect(part.range).toMatch(/^bytes=\d+-\d+$/);
  expect(parts.reduce((sum, part) => sum + part.bytes, 0)).toBeLessThan(size / 2);

  await panel.getByRole('button', { name: 'Next page' }).click();
  await expect(panel.getByText(`Page 2 of ${PAGES}`)).toBeVisible();
  await drawn(panel, 2);
  await expect(panel.getByRole('img', { name: `Purchase Agreement, page 2 of ${PAGES}` })).toBeVisible();

  const canvas = panel.locator('canvas');
  const fittedWidth = (await canvas.boundingBox())?.width ?? 0;
  const fittedPercent = await panel.getByTestId('zoom-percent').textContent();
  await panel.getByRole('button', { name: 'Zoom in' }).click();
  await expect(panel.getByTestId('zoom-percent')).not.toHaveText(fittedPercent ?? '');
  await expect.poll(async () => (await canvas.boundingBox())?.width ?? 0).toBeGreaterThan(fittedWidth);
  await expect(panel.getByRole('button', { name: 'Fit width' })).toHaveAttribute('aria-pressed', 'false');

  await panel.getByRole('textbox', { name: 'Go to page' }).fill('39');
  await panel.getByRole('textbox', { name: 'Go to page' }).press('Enter');
  await expect(panel.getByText(`Page 39 of ${PAGES}`)).toBeVisible();
  await drawn(panel, 39);

  expect(await axeFindings(page, 'review panel with the PDF viewer')).toEqual([]);
  await screenshot(page, 'owner-review-preview-1440');
});

test('the viewer fits a phone: no sideways scrolling of the page, controls reachable, axe clean', async ({
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const streetAddress = '390 Preview Parade';
  const { type } = await packetInQueue(request, streetAddress);
  const { page, panel } = await openReview(browser, type, streetAddress, { width: 390, height: 844 });

  await expect(panel.getByText(`Page 1 of ${PAGES}`)).toBeVisible();
  await drawn(panel, 1);
  // Fitted to the width: the canvas stays inside the phone's width.
  expect((await panel.locator('canvas').boundingBox())?.width ?? 0).toBeLessThanOrEqual(390);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  for (const name of ['Previous page', 'Next page', 'Zoom out', 'Zoom in', 'Fit width', 'Actual size'])
    await expect(panel.getByRole('button', { name })).toBeInViewport({ ratio: 1 });

  // From the keyboard: Enter on the focused button turns the page.
  await panel.getByRole('button', { name: 'Next page' }).focus();
  await page.keyboard.press('Enter');
  await expect(panel.getByText(`Page 2 of ${PAGES}`)).toBeVisible();
  await drawn(panel, 2);

  expect(await axeFindings(page, 'review panel with the PDF viewer at 390 px')).toEqual([]);
  await screenshot(page, 'owner-review-preview-390');
});
