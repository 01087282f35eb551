import { E2E_OWNER } from '../playwright.config';
import { apiMessages, ui } from '../shared/messages';
import { registeredAndApprovedAgent, signIn } from './support/accounts';
import { expect, test } from './support/test';

/**
 * Live notifications in a real Chromium: the agent's page is open in one browser
 * context; the admin rejects a form in another; without a reload the agent's bell lights up, the
 * open transaction shows the new status and comment, and /notifications lists the message.
 */

test('a rejection reaches the open agent page live: the bell shows the dot, /notifications lists it', async ({
  browser,
  request,
}) => {
  const agent = await registeredAndApprovedAgent(request, 'Lena');
  const agentContext = await browser.newContext();
  const agentPage = await agentContext.newPage();
  await signIn(agentPage, agent.email, agent.password);

  const created = await request.post('/api/transactions', {
    headers: { authorization: `Bearer ${agent.token}` },
    data: {
      type: 'Listing',
      role: 'Seller',
      streetAddress: '9 Beacon Street',
      city: 'Salem',
      state: 'MA',
      zip: '01970',
    },
  });
  expect(created.status()).toBe(201);
  const deal = (await created.json()) as { _id: string; forms: Array<{ _id: string; label: string }> };
  const form = deal.forms[0];
  // A file to review: a document without a file has nothing to accept or reject.
  const auth = { authorization: `Bearer ${agent.token}` };
  const uploaded = await request.post(`/api/uploads/transactions/${deal._id}`, {
    headers: auth,
    multipart: {
      file: { name: 'listing.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') },
    },
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  const attached = await request.put(`/api/transactions/${deal._id}/forms/${form?._id}`, {
    headers: auth,
    data: { url: ((await uploaded.json()) as { key: string }).key },
  });
  expect(attached.status(), await attached.text()).toBe(200);

  // The approval itself was the agent's first notification: read it, and the dot goes.
  const bell = agentPage.getByRole('button', { name: 'Notifications' }).first();
  await expect(bell).toHaveAttribute('data-unread', 'true');
  await bell.click();
  await expect(agentPage.getByRole('link', { name: apiMessages.accountApproved })).toBeVisible();
  await agentPage.getByRole('link', { name: 'Transactions', exact: true }).click();
  await expect(agentPage).toHaveURL(/\/home$/);
  await expect(bell).not.toHaveAttribute('data-unread', 'true');
  // The agent keeps the transaction open while the admin reviews it.
  await agentPage.goto(`/home/transactions/${deal._id}`);
  const agentCard = agentPage.getByTestId(`form-${form?.label}`);
  await expect(agentCard.getByTestId('form-status')).toHaveText('Pending');

  const adminContext = await browser.newContext();
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, E2E_OWNER.email, E2E_OWNER.password);
  await adminPage.goto(`/adminTransactions/transactions/${deal._id}`);
  const card = adminPage.getByTestId(`form-${form?.label}`);
  await card.getByRole('button', { name: 'Add a comment' }).click();
  await card.getByLabel('Comment').fill('Signature missing on the last page.');
  await card.getByRole('button', { name: 'Reject' }).click();
  await expect(card.getByTestId('form-status')).toHaveText('Rejected');

  // No reload on the agent's side: the bell, the toast and the open page itself follow.
  await expect(bell).toHaveAttribute('data-unread', 'true');
  await expect(agentCard.getByTestId('form-status')).toHaveText('Rejected');
  await expect(agentCard.getByText('Signature missing on the last page.')).toBeVisible();
  await expect(agentPage.getByText(/Signature missing on the last page\./).first()).toBeVisible();
  await bell.click();
  await expect(agentPage).toHaveURL(/\/notifications$/);
  await expect(
    agentPage.getByRole('link', { name: /was rejected .*Signature missing on the last page\./ }),
  ).toBeVisible();
  await expect(bell).not.toHaveAttribute('data-unread', 'true');
  await expect(agentPage.getByText(ui.noNotifications)).toHaveCount(0);

  await agentContext.close();
  await adminContext.close();
});
