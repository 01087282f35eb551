import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { onePagePdf } from '../server/storage/sample-pdf';
import { toasts } from '../shared/messages';
import { axeFindings, screenshot } from './support/a11y';
import { approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, expect, type Locator, type Page, test } from './support/test';

/**
 * Document intake in a real Chromium: on a phone an agent photographs a paper
 * document page by page and sends it as one PDF; at a desk an agent drops a scanned packet and
 * lets the splitter file its three documents. axe finds nothing serious in either dialog.
 */

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Deal = { _id: string; forms: Array<{ _id: string; label: string }> };

/** An agent with a Purchase/Buyer transaction: the seeded checklist of nine documents and three optional. */
async function purchase(request: APIRequestContext, firstName: string) {
  const agent = await approvedAgent(request, firstName);
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: {
      type: 'Purchase',
      role: 'Buyer',
      streetAddress: '77 Intake Lane',
      city: 'Portland',
      state: 'OR',
      zip: '97201',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  return { agent, deal: (await created.json()) as Deal };
}

async function versionsOf(request: APIRequestContext, token: string, transactionId: string, formId: string) {
  const res = await request.get(`/api/transactions/${transactionId}/forms/${formId}/versions`, {
    headers: auth(token),
  });
  expect(res.status(), await res.text()).toBe(200);
  return (
    (await res.json()) as { versions: Array<{ number: number; contentType: string; pages: number | null }> }
  ).versions;
}

const card = (page: Page, label: string) => page.getByTestId(`form-${label}`);

/** A photographed page: white paper with a dark block where the text would be. */
function photo(top: number, orientation?: number): Promise<Buffer> {
  const image = sharp({ create: { width: 600, height: 800, channels: 3, background: '#ffffff' } }).composite([
    {
      input: { create: { width: 400, height: 120, channels: 3, background: '#222222' } },
      top,
      left: 100,
    },
  ]);
  return (orientation ? image.withMetadata({ orientation }) : image).jpeg({ quality: 80 }).toBuffer();
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('an agent photographs a document, puts the pages in order and sends them as one PDF', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const { agent, deal } = await purchase(request, 'Philippa');
    const label = 'Residential Purchase Agreement';
    const formId = deal.forms.find((form) => form.label === label)?._id as string;
    await signIn(page, agent.email, agent.password);
    await page.goto(`/home/transactions/${deal._id}`);

    const item = card(page, label);
    await expect(item.getByRole('button', { name: 'Take photos' })).toBeVisible();
    // The camera's picker, as the phone hands back three shots (the last one taken sideways).
    await item.locator('input[capture="environment"]').setInputFiles([
      { name: 'page-1.jpg', mimeType: 'image/jpeg', buffer: await photo(80) },
      { name: 'page-2.jpg', mimeType: 'image/jpeg', buffer: await photo(340) },
      { name: 'page-3.jpg', mimeType: 'image/jpeg', buffer: await photo(600, 6) },
    ]);
    const dialog = page.getByRole('dialog', { name: `Photos of ${label}` });
    const photos = dialog.getByRole('img', { name: /^Photo \d+$/ });
    await expect(photos).toHaveCount(3);
    await dialog.getByRole('button', { name: 'Move photo 3 earlier' }).click();
    await expect(dialog.getByRole('button', { name: 'Take another photo' })).toBeVisible();
    // The dialog fills the phone's screen and nothing in it runs off to the side.
    const width = await dialog.evaluate((element) => element.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    expect(await axeFindings(page, 'photos dialog at 390 px')).toEqual([]);
    await screenshot(page, 'agent-photos-390');

    await dialog.getByRole('button', { name: 'Upload as one PDF' }).click();
    await expect(page.getByText(toasts.fileUploaded).last()).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(item.getByTestId('form-file')).toContainText('Version 1');

    const [version] = await versionsOf(request, agent.token, deal._id, formId);
    expect(version).toMatchObject({ number: 1, contentType: 'application/pdf', pages: 3 });
  });
});

/** Files dropped on an element as the browser delivers them: dragenter, dragover, drop. */
async function dropFiles(page: Page, target: Locator, files: Array<{ name: string; buffer: Buffer }>) {
  const dataTransfer = await page.evaluateHandle(
    (sent) => {
      const transfer = new DataTransfer();
      for (const { name, base64 } of sent) {
        const bytes = Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], name, { type: 'application/pdf' }));
      }
      return transfer;
    },
    files.map(({ name, buffer }) => ({ name, base64: buffer.toString('base64') })),
  );
  for (const type of ['dragenter', 'dragover', 'drop']) await target.dispatchEvent(type, { dataTransfer });
}

/** A scanned packet: three documents of the checklist, each titled on its first page (2 + 1 + 2 pages). */
async function packet(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages: Array<[title: string | null, body: string]> = [
    ['Residential Purchase Agreement', 'The buyer offers to purchase the property described below.'],
    [null, 'Signatures of buyer and seller, and the date of acceptance.'],
    ['Agency Disclosure', 'Disclosure regarding real estate agency relationship.'],
    ['Wire Fraud Advisory', 'Never wire money on instructions received by e-mail alone.'],
    [null, 'Acknowledgment of receipt, signed by every party.'],
  ];
  for (const [title, body] of pages) {
    const page = pdf.addPage([612, 792]);
    if (title) page.drawText(title, { x: 72, y: 700, size: 20, font: bold });
    page.drawText(body, { x: 72, y: title ? 660 : 700, size: 11, font });
  }
  return Buffer.from(await pdf.save());
}

test('an agent drops a packet and the splitter files its three documents', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { agent, deal } = await purchase(request, 'Percival');
  await signIn(page, agent.email, agent.password);
  await page.goto(`/home/transactions/${deal._id}`);

  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Split a packet' }).click();
  await (await chooser).setFiles({ name: 'packet.pdf', mimeType: 'application/pdf', buffer: await packet() });

  const dialog = page.getByRole('dialog', { name: 'Split packet.pdf (5 pages)' });
  // pdf.js read each page's title in the browser and proposed a document for each.
  await expect(dialog.getByRole('combobox', { name: 'Pages 1-2' })).toHaveValue(
    'Residential Purchase Agreement',
  );
  await expect(dialog.getByRole('combobox', { name: 'Page 3' })).toHaveValue('Agency Disclosure');
  await expect(dialog.getByRole('combobox', { name: 'Pages 4-5' })).toHaveValue('Wire Fraud Advisory');
  await expect(dialog.getByRole('img', { name: 'Page 1' })).toBeVisible();
  expect(await axeFindings(page, 'packet splitter')).toEqual([]);
  await screenshot(page, 'agent-packet-splitter-1440');

  await dialog.getByRole('button', { name: 'Split' }).click();
  await expect(page.getByText('Packet split into 3 documents')).toBeVisible();
  await expect(dialog).toBeHidden();

  const filed = ['Residential Purchase Agreement', 'Agency Disclosure', 'Wire Fraud Advisory'];
  for (const label of filed)
    await expect(card(page, label).getByTestId('form-file')).toContainText('Version 1');
  for (const form of deal.forms.filter((form) => !filed.includes(form.label)))
    await expect(card(page, form.label).getByTestId('form-file')).toHaveCount(0);

  const pageCounts = await Promise.all(
    filed.map(async (label) => {
      const formId = deal.forms.find((form) => form.label === label)?._id as string;
      return (await versionsOf(request, agent.token, deal._id, formId))[0]?.pages;
    }),
  );
  expect(pageCounts).toEqual([2, 1, 2]);

  // The agent reads a part inside the page: the viewer, page by page, no download.
  const agreement = card(page, 'Residential Purchase Agreement');
  await agreement.getByRole('button', { name: 'Preview' }).click();
  const viewer = agreement.getByRole('region', { name: 'Document: Residential Purchase Agreement' });
  await expect(viewer.getByText('Page 1 of 2')).toBeVisible({ timeout: 15_000 });

  // Two files dropped on one item: both attached, in order; the second reads as another document.
  const closing = card(page, 'Closing Disclosure');
  await dropFiles(page, closing, [
    { name: 'closing.pdf', buffer: onePagePdf('Closing Disclosure') },
    { name: 'inspection.pdf', buffer: onePagePdf('Home Inspection Report') },
  ]);
  await expect(page.getByText('2 files uploaded successfully!')).toBeVisible();
  await expect(closing.getByTestId('form-file')).toContainText('inspection.pdf');
  await expect(closing.getByTestId('form-file')).toContainText('Version 2');
  await expect(closing.getByTestId('upload-notices')).toContainText(
    'This looks like "Home Inspection Report"',
  );
});
