import { E2E_OWNER } from '../playwright.config';
import { onePagePdf } from '../server/storage/sample-pdf';
import { axeFindings, settle } from './support/a11y';
import { apiSignIn, approvedAgent, signIn } from './support/accounts';
import { type APIRequestContext, type Browser, expect, type Page, test } from './support/test';

/**
 * The review desk as the owner lives it in a real Chromium: the queue and the dashboard follow an
 * agent's uploads live, without a reload, while a review under way keeps its item and its text;
 * and on a phone the review dialog keeps Accept and Reject in reach below a document taller than
 * the screen, shows no keyboard legend, and passes axe.
 */

test.describe.configure({ mode: 'serial' });

const DOCUMENTS = ['Purchase Agreement', 'Agency Disclosure', 'Inspection Report'];
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

type Deal = { _id: string; forms: Array<{ _id: string; label: string }> };

/** An agent's file on a template of its own type, and how the agent uploads into it (the API). */
async function deskFile(request: APIRequestContext, street: string) {
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const type = `Desk ${Date.now()}`;
  const template = await request.post('/api/admin/forms/transactions/insert', {
    headers: auth(owner.token),
    data: { type, role: '-', forms: DOCUMENTS },
  });
  expect(template.status(), await template.text()).toBe(201);
  const agent = await approvedAgent(request, 'Desmond');
  const created = await request.post('/api/transactions', {
    headers: auth(agent.token),
    data: { type, role: '-', streetAddress: street, city: 'Augusta', state: 'ME', zip: '04330' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const deal = (await created.json()) as Deal;
  const upload = async (label: string) => {
    const stored = await request.post(`/api/uploads/transactions/${deal._id}`, {
      headers: auth(agent.token),
      multipart: { file: { name: `${label}.pdf`, mimeType: 'application/pdf', buffer: onePagePdf(label) } },
    });
    expect(stored.status(), await stored.text()).toBe(201);
    const formId = deal.forms.find((form) => form.label === label)?._id;
    const attached = await request.put(`/api/transactions/${deal._id}/forms/${formId}`, {
      headers: auth(agent.token),
      data: { url: ((await stored.json()) as { key: string }).key },
    });
    expect(attached.status(), await attached.text()).toBe(200);
  };
  return { type, upload };
}

async function ownerPage(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await signIn(page, E2E_OWNER.email, E2E_OWNER.password);
  return page;
}

const waitingFigure = (page: Page) => page.getByTestId('stat-Waiting for review');

test('the queue and the dashboard follow uploads live; an open review keeps its item and text', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { type, upload } = await deskFile(request, '12 Live Lane');
  await upload('Purchase Agreement');

  // The owner's dashboard and queue are open, the queue on this type, reviewing its only item.
  const dashboard = await ownerPage(browser, { viewport: { width: 1440, height: 900 } });
  await dashboard.goto('/admin/dashboard');
  await expect(waitingFigure(dashboard)).toHaveText(/^\d+$/);
  const waiting = Number(await waitingFigure(dashboard).textContent());

  const queue = await dashboard.context().newPage();
  await queue.goto('/admin/review');
  await queue.getByRole('combobox', { name: 'Type' }).click();
  await queue.getByRole('option', { name: type }).click();
  const summary = queue.getByTestId('pager-summary');
  await expect(summary).toHaveText('Showing 1 to 1 of 1 results');
  await queue
    .getByRole('row', { name: /Purchase Agreement, 12 Live Lane/ })
    .getByRole('button', { name: 'Review' })
    .click();
  const panel = queue.getByRole('dialog');
  await expect(panel).toContainText('Item 1 of 1');
  const comment = panel.getByRole('textbox', { name: 'Comment' });
  await comment.fill('Checking page 2 against the MLS');

  // The agent uploads two more documents through the API: nobody reloads anything.
  await upload('Agency Disclosure');
  await expect(summary).toHaveText('Showing 1 to 2 of 2 results');
  await expect(panel).toContainText('Item 1 of 2');
  await upload('Inspection Report');
  await expect(summary).toHaveText('Showing 1 to 3 of 3 results');
  await expect(panel).toContainText('Item 1 of 3');
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText('Purchase Agreement');
  await expect(comment).toHaveValue('Checking page 2 against the MLS');
  await expect(queue.getByRole('row').filter({ hasText: '12 Live Lane' })).toHaveCount(3);

  await expect(waitingFigure(dashboard)).toHaveText(String(waiting + 2));
});

test('on a phone the review dialog keeps Accept and Reject in reach, shows no legend and passes axe', async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const { type, upload } = await deskFile(request, '14 Pocket Place');
  for (const label of DOCUMENTS) await upload(label);

  const phone = await ownerPage(browser, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  await phone.goto('/admin/review');
  await phone.getByRole('combobox', { name: 'Type' }).click();
  await phone.getByRole('option', { name: type }).click();
  await phone
    .getByRole('row', { name: /Purchase Agreement, 14 Pocket Place/ })
    .getByRole('button', { name: 'Review' })
    .click();
  const panel = phone.getByRole('dialog');
  await expect(panel.locator('canvas').first()).toBeVisible({ timeout: 20_000 });

  // Without a scroll: both buttons wholly on screen below the drawn document.
  const accept = panel.getByRole('button', { name: 'Accept' });
  const reject = panel.getByRole('button', { name: 'Reject' });
  await expect(accept).toBeInViewport({ ratio: 1 });
  await expect(reject).toBeInViewport({ ratio: 1 });
  await expect(panel.getByTestId('shortcut-legend')).toHaveCount(0);
  expect(await axeFindings(phone, 'review dialog 390 touch')).toEqual([]);
  // The dialog fills the screen: the screen is the picture (a full-page capture would lay the
  // page out again at its whole height, without the touch screen's media features).
  await settle(phone);
  await phone.screenshot({ path: 'test-results/screenshots/owner-review-dialog-390-touch.png' });

  // Scrolled to its end, the dialog shows its last content whole, above the bar, not under it.
  const bar = panel.getByTestId('decision-bar');
  await panel.evaluate((dialog) => dialog.scrollTo(0, dialog.scrollHeight));
  const content = bar.locator('xpath=preceding-sibling::*[1]');
  await expect(panel.getByText('Versions', { exact: true })).toBeInViewport();
  const [barBox, contentBox] = [await bar.boundingBox(), await content.boundingBox()];
  if (!barBox || !contentBox) throw new Error('the bar or the content is not drawn');
  expect(contentBox.y + contentBox.height).toBeLessThanOrEqual(barBox.y + 1);
  expect(barBox.y + barBox.height).toBeLessThanOrEqual(844 + 1);

  // Tapped with nothing said, Reject asks for a reason at the comment box; with one, it rejects.
  await reject.tap();
  await expect(panel.getByText('Give a reason for the rejection')).toBeVisible();
  await panel.getByRole('textbox', { name: 'Comment' }).fill('Page 3 is missing');
  await reject.tap();
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText('Agency Disclosure');
  // The next item's document drawn first: a tap while the page still moves lands elsewhere.
  await expect(panel.locator('canvas').first()).toBeVisible({ timeout: 20_000 });
  // The rejection's toast lies over the decision bar at this width, and a finger resting on it
  // keeps it open: the reviewer closes it first, as one would.
  const toast = phone.locator('.mantine-Notification-root', { hasText: 'Document rejected' });
  if (await toast.isVisible()) await toast.getByRole('button').tap();
  await expect(toast).toBeHidden();
  await settle(phone);
  await accept.tap();
  await expect(panel.getByRole('heading', { level: 3 })).toHaveText('Inspection Report');
  await expect(accept).toBeInViewport({ ratio: 1 });
});
