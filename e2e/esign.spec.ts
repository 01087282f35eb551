import { PDFDocument, StandardFonts } from 'pdf-lib';
import { routeTo } from '../client/paths';
import { E2E_OWNER } from '../playwright.config';
import type { SignatureRequest } from '../shared/schemas/esign';
import { esignPageMessages } from '../shared/signing-page-messages';
import { axeFindings, screenshot } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { linkFromMail } from './support/outbox';
import { expect, type Locator, type Page, test } from './support/test';

/**
 * A document signed by two people with no account: an agent sends an item's two-page PDF for
 * signature from the transaction page, placing each signer's fields on the pages (axe finds
 * nothing serious in the dialog, at a desktop's width and a phone's); the first signer opens the
 * mailed link on a phone, draws the signature with a finger and signs; the second, on a desktop,
 * types the name and fills a text field. The agent's chips go green as they sign, the signed file
 * is the item's version 2 (`esign`), and it waits in the review queue.
 */

const REQUIRED = 'Listing Agreement';
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Listing agreement, page ${n}`, { x: 72, y: 720, size: 18, font });
  }
  return Buffer.from(await doc.save());
}

/** Waits until the page's first sheet is drawn, with this signer's boxes over it. */
/** Places a field of the chosen signer and kind where the agent clicks, on the page shown. */
async function placeField(dialog: Locator, pageNumber: number, at: { x: number; y: number }) {
  const placed = dialog.getByRole('button', { name: /, page \d+: drag/ });
  const before = await placed.count();
  await expect(dialog.locator(`canvas[data-drawn-page="${pageNumber}"]`)).toBeVisible();
  await dialog.getByTestId('field-placer').click({ position: at });
  await expect(placed).toHaveCount(before + 1);
}

async function documentShown(page: Page, boxes: number) {
  await expect(page.locator('canvas[data-drawn-page="1"]')).toBeVisible();
  await expect(page.locator('[data-testid^="field-box-"]')).toHaveCount(boxes);
}

test('two signers, a phone and a desktop, drawn and typed: the signed file is version 2, awaiting review', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now();
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Esign ${stamp}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: [REQUIRED], optionalForms: [] },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Signe');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: '8 Signature Lane', city: 'Augusta', state: 'ME', zip: '04330' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deal = (await created.json()) as { _id: string; forms: Array<{ _id: string; label: string }> };
  const formId = deal.forms.find((form) => form.label === REQUIRED)?._id as string;

  const stored = await request.post(`/api/uploads/transactions/${deal._id}`, {
    headers: auth(agent.token),
    multipart: { file: { name: 'listing.pdf', mimeType: 'application/pdf', buffer: await twoPagePdf() } },
  });
  expect(stored.status(), await stored.text()).toBe(201);
  const attached = await request.put(`/api/transactions/${deal._id}/forms/${formId}`, {
    headers: auth(agent.token),
    data: { url: ((await stored.json()) as { key: string }).key },
  });
  expect(attached.status(), await attached.text()).toBe(200);

  const signers = [
    { name: 'Pat Phone', email: `pat-${stamp}@example.com` },
    { name: 'Dana Desk', email: `dana-${stamp}@example.com` },
  ];
  const agentContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const agentPage = await agentContext.newPage();
  await signIn(agentPage, agent.email, agent.password);
  await agentPage.goto(routeTo.transaction(deal._id));
  const card = agentPage.getByTestId(`form-${REQUIRED}`);
  await card.getByRole('button', { name: 'Send for signature' }).click();
  const dialog = agentPage.getByRole('dialog', { name: `Send for signature: ${REQUIRED}` });
  await dialog.getByLabel('Subject').fill('Listing agreement for 8 Signature Lane');
  await dialog.getByLabel('Message to the signers').fill('Please sign where marked.');
  await dialog.getByLabel('Signer 1: name').fill(signers[0]?.name as string);
  await dialog.getByLabel('Signer 1: e-mail').fill(signers[0]?.email as string);
  await dialog.getByRole('button', { name: 'Add a signer' }).click();
  await dialog.getByLabel('Signer 2: name').fill(signers[1]?.name as string);
  await dialog.getByLabel('Signer 2: e-mail').fill(signers[1]?.email as string);

  // Pat signs on page 1; Dana signs and writes a line on page 2, the text field dragged into place.
  await dialog.getByLabel('Field for').selectOption({ label: 'Pat Phone' });
  await placeField(dialog, 1, { x: 150, y: 120 });
  await dialog.getByLabel('Field for').selectOption({ label: 'Dana Desk' });
  await dialog.getByRole('button', { name: 'Next page' }).click();
  await placeField(dialog, 2, { x: 150, y: 160 });
  await dialog
    .locator('label')
    .filter({ hasText: /^Text$/ })
    .click();
  await placeField(dialog, 2, { x: 150, y: 40 });
  const textField = dialog.getByRole('button', { name: /^Text for Dana Desk, page 2/ });
  const dragFrom = await textField.boundingBox();
  if (!dragFrom) throw new Error('the placed text field is not laid out');
  await agentPage.mouse.move(dragFrom.x + 10, dragFrom.y + 5);
  await agentPage.mouse.down();
  await agentPage.mouse.move(dragFrom.x + 200, dragFrom.y + 105, { steps: 5 });
  await agentPage.mouse.up();
  const dragTo = await textField.boundingBox();
  expect(dragTo?.y).toBeGreaterThan(dragFrom.y + 90);
  expect(dragTo?.x).toBeGreaterThan(dragFrom.x + 150);
  await expect(dialog.getByRole('list', { name: 'Placed fields' }).getByRole('listitem')).toHaveCount(3);
  expect(await axeFindings(agentPage, 'send for signature 1280')).toEqual([]);
  await screenshot(agentPage, 'agent-send-for-signature-1280');
  await dialog.getByRole('button', { name: 'Send for signature' }).click();
  await expect(dialog).toBeHidden();
  const chips = card.getByRole('list', { name: 'Signers of Listing agreement for 8 Signature Lane' });
  await expect(chips.getByRole('listitem')).toHaveText(['Pat Phone: Waiting', 'Dana Desk: Waiting']);

  // At a phone's width the item's chips and the dialog stay inside the screen.
  await agentPage.setViewportSize({ width: 390, height: 844 });
  await card.getByRole('button', { name: 'Send for signature' }).click();
  await expect(dialog.locator('canvas[data-drawn-page="1"]')).toBeVisible();
  expect(await agentPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(agentPage, 'send for signature 390')).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await agentPage.setViewportSize({ width: 1280, height: 900 });

  const listed = await request.get(`/api/transactions/${deal._id}/signature-requests`, {
    headers: auth(agent.token),
  });
  const sent = ((await listed.json()) as SignatureRequest[])[0];
  expect(sent?.subject).toBe('Listing agreement for 8 Signature Lane');
  const requestId = sent?._id as string;
  const [phoneLink, deskLink] = [
    await linkFromMail(signers[0]?.email as string, '/sign/'),
    await linkFromMail(signers[1]?.email as string, '/sign/'),
  ];

  // The first signer, on a phone: draws with a finger-sized stroke, agrees, signs.
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const phone = await phoneContext.newPage();
  await phone.goto(new URL(phoneLink).pathname);
  await expect(
    phone.getByRole('heading', { level: 1, name: 'Listing agreement for 8 Signature Lane' }),
  ).toBeVisible();
  await expect(phone.getByText('Pat Phone')).toBeVisible();
  await documentShown(phone, 1);
  expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await axeFindings(phone, 'signing page 390')).toEqual([]);
  await screenshot(phone, 'signer-signing-page-390');
  const canvas = phone.getByTestId('signature-canvas');
  await canvas.scrollIntoViewIfNeeded();
  const box = await canvas.boundingBox();
  if (!box) throw new Error('the signature canvas is not laid out');
  expect(box.x + box.width).toBeLessThanOrEqual(390);
  await phone.mouse.move(box.x + 20, box.y + box.height / 2);
  await phone.mouse.down();
  for (const step of [1, 2, 3, 4, 5, 6])
    await phone.mouse.move(box.x + 20 + step * 30, box.y + box.height / 2 + (step % 2 ? -15 : 15));
  await phone.mouse.up();
  await expect(canvas).toHaveAttribute('aria-label', /signed$/);
  await phone.getByRole('checkbox', { name: esignPageMessages.consent }).check();
  await phone.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(phone.getByRole('heading', { level: 1, name: 'Signed, thank you' })).toBeVisible();

  // The second, on a desktop: types the name, fills the text field, signs.
  const deskContext = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const desk = await deskContext.newPage();
  await desk.goto(new URL(deskLink).pathname);
  await expect(desk.getByText('Dana Desk')).toBeVisible();
  await desk.getByRole('button', { name: 'Next page' }).click();
  await expect(desk.locator('canvas[data-drawn-page="2"]')).toBeVisible();
  await expect(desk.locator('[data-testid^="field-box-"]')).toHaveCount(2);
  await desk
    .locator('label')
    .filter({ hasText: /^Type$/ })
    .click();
  await expect(desk.getByRole('textbox', { name: /Signature 1 \(page 2\): type it/ })).toHaveValue(
    'Dana Desk',
  );
  await desk.getByRole('textbox', { name: /Text 1 \(page 2\)/ }).fill('Listing price agreed');
  await desk.getByRole('checkbox', { name: esignPageMessages.consent }).check();
  await desk.getByRole('button', { name: 'Sign', exact: true }).click();
  await expect(desk.getByRole('heading', { level: 1, name: 'Signed, thank you' })).toBeVisible();

  // Completed: the signed file is the item's version 2, from e-signature, awaiting review.
  await expect
    .poll(async () => {
      const listed = await request.get(`/api/transactions/${deal._id}/signature-requests`, {
        headers: auth(agent.token),
      });
      return ((await listed.json()) as SignatureRequest[]).find((row) => row._id === requestId)?.status;
    })
    .toBe('completed');
  // The agent's page follows without a reload: both chips green, the item at version 2.
  await expect(chips.getByRole('listitem')).toHaveText(['Pat Phone: Signed', 'Dana Desk: Signed']);
  for (const chip of await chips.getByRole('listitem').all())
    await expect(chip).toHaveAttribute('data-status', 'signed');
  await expect(card.getByTestId('form-file')).toContainText('Version 2');
  const versions = await request.get(`/api/transactions/${deal._id}/forms/${formId}/versions`, {
    headers: auth(agent.token),
  });
  const list = ((await versions.json()) as { versions: Array<{ number: number; source: string }> }).versions;
  expect(list.map((version) => [version.number, version.source])).toEqual([
    [2, 'esign'],
    [1, 'upload'],
  ]);
  const queue = await request.get(`/api/admin/review-queue?limit=100&agentId=${agent.id}`, {
    headers: auth(owner.token),
  });
  expect(queue.status(), await queue.text()).toBe(200);
  const items = (
    (await queue.json()) as {
      items: Array<{ transaction: { _id: string }; form: { _id: string; version: number } }>;
    }
  ).items;
  expect(
    items.find((item) => item.transaction._id === deal._id && item.form._id === formId)?.form.version,
  ).toBe(2);

  // The link is spent: opening it again says the request is closed.
  await phone.goto(new URL(phoneLink).pathname);
  await expect(phone.getByRole('alert')).toHaveText('This signature request is closed');
});
