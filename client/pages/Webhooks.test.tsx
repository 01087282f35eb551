import { notifications } from '@mantine/notifications';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookDelivery, WebhookEndpoint } from '../../shared/schemas/webhooks';
import { webhookMessages } from '../../shared/webhook-messages';
import { webhookToasts } from '../components/webhooks/toasts';
import { renderWithProviders } from '../test-utils/render';
import { signInAs } from '../test-utils/transactions';
import { stubTrpcClient, trpcError } from '../test-utils/trpc-stub';
import { Webhooks } from './Webhooks';

const SECRET = 'whsec_dGhpcyBpcyBhIHRlc3Qgc2VjcmV0IG9mIDMyIGJ5dGVzIQ==';
const ROTATED = 'whsec_YW5vdGhlciB0ZXN0IHNlY3JldCBvZiAzMiBieXRlcyE=';
const endpoint: WebhookEndpoint = {
  _id: '11111111-1111-4111-8111-111111111111',
  url: 'https://crm.example.com/hooks',
  events: ['transaction.created', 'document.uploaded'],
  description: 'CRM sync',
  active: true,
  createdAt: '2026-11-27T10:00:00.000Z',
};
const delivery: WebhookDelivery = {
  _id: '22222222-2222-4222-8222-222222222222',
  eventId: '33333333-3333-4333-8333-333333333333',
  event: 'transaction.created',
  status: 'failed',
  attempts: 7,
  lastStatusCode: 500,
  lastError: 'HTTP 500',
  nextAttemptAt: null,
  createdAt: '2026-11-27T10:05:00.000Z',
};

function renderPage() {
  let endpoints = [endpoint];
  const stub = stubTrpcClient({
    'webhooks.list': () => endpoints,
    'webhooks.create': (input) => {
      const made = { ...endpoint, ...(input as object), _id: '44444444-4444-4444-8444-444444444444' };
      endpoints = [...endpoints, made as WebhookEndpoint];
      return { ...made, secret: SECRET };
    },
    'webhooks.update': (input) => {
      const { id, ...change } = input as { id: string };
      endpoints = endpoints.map((e) => (e._id === id ? { ...e, ...change } : e));
      return endpoints.find((e) => e._id === id);
    },
    'webhooks.test': () => ({ ...delivery, event: 'ping', status: 'pending', attempts: 0 }),
    'webhooks.deliveries': () => ({ items: [delivery], totalPages: 1, totalItems: 1 }),
    'webhooks.retry': () => ({ ...delivery, status: 'pending' }),
    'webhooks.rotateSecret': () => ({ secret: ROTATED }),
  });
  renderWithProviders(<Webhooks />, { path: '/admin/webhooks', trpcClient: stub.client });
  return stub;
}

beforeEach(() => signInAs('admin'));
afterEach(() => notifications.clean());

describe('Webhooks', () => {
  it('lists endpoints with their events and state', async () => {
    renderPage();
    expect(screen.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    const row = within((await screen.findByText(endpoint.url)).closest('tr') as HTMLElement);
    expect(row.getByText('transaction.created, document.uploaded')).toBeVisible();
    expect(row.getByText('Active')).toBeVisible();
    expect(row.getByText('CRM sync')).toBeVisible();
  });

  it('asks for a URL and at least one event', async () => {
    const user = userEvent.setup();
    renderPage();
    await user.click(await screen.findByRole('button', { name: 'Add webhook' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add webhook' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(webhookMessages.urlRequired)).toBeVisible();
    expect(dialog.getByText(webhookMessages.eventsRequired)).toBeVisible();
  });

  it('adds an endpoint and shows its secret once, with a copy button', async () => {
    const user = userEvent.setup();
    const stub = renderPage();
    await screen.findByText(endpoint.url);
    await user.click(screen.getByRole('button', { name: 'Add webhook' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Add webhook' }));
    // Pasted, as people do with a URL (and much quicker than typing it key by key).
    await user.click(dialog.getByRole('textbox', { name: 'URL' }));
    await user.paste('https://erp.example.com/in');
    await user.click(dialog.getByRole('combobox', { name: 'Events' }));
    await user.click(await screen.findByRole('option', { name: 'document.accepted' }));
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    const secret = within(await screen.findByRole('dialog', { name: 'Signing secret' }));
    expect(secret.getByText(SECRET)).toBeVisible();
    expect(secret.getByText(webhookToasts.secretShownOnce)).toBeVisible();
    expect(secret.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    expect(stub.callsTo('webhooks.create')).toEqual([
      { url: 'https://erp.example.com/in', events: ['document.accepted'], description: '' },
    ]);
    await user.click(secret.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(SECRET)).not.toBeInTheDocument());
  });

  it('rotates the secret after a confirmation that tells of the 24 hours, and shows the new one once', async () => {
    const user = userEvent.setup();
    const stub = renderPage();
    await user.click(await screen.findByRole('button', { name: `Rotate secret of ${endpoint.url}` }));
    const cancelled = within(await screen.findByRole('dialog', { name: 'Rotate secret' }));
    expect(cancelled.getByText(webhookToasts.rotateQuestion(endpoint.url))).toBeVisible();
    await user.click(cancelled.getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Rotate secret' })).not.toBeInTheDocument(),
    );
    expect(stub.callsTo('webhooks.rotateSecret')).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Rotate secret of ${endpoint.url}` }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Rotate secret' }));
    await user.click(confirm.getByRole('button', { name: 'Rotate' }));
    const shown = within(await screen.findByRole('dialog', { name: 'Signing secret' }));
    expect(shown.getByText(ROTATED)).toBeVisible();
    expect(shown.getByText(webhookToasts.rotated)).toBeVisible();
    expect(shown.getByText(webhookToasts.secretShownOnce)).toBeVisible();
    expect(shown.getByRole('button', { name: 'Copy secret' })).toBeVisible();
    expect(stub.callsTo('webhooks.rotateSecret')).toEqual([{ id: endpoint._id }]);
    await user.click(shown.getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText(ROTATED)).not.toBeInTheDocument());
  });

  it('a rotation the server refuses says why and shows no secret', async () => {
    const user = userEvent.setup();
    const stub = stubTrpcClient({
      'webhooks.list': () => [endpoint],
      'webhooks.rotateSecret': () => {
        throw trpcError(404, webhookMessages.notFound);
      },
    });
    renderWithProviders(<Webhooks />, { path: '/admin/webhooks', trpcClient: stub.client });
    await user.click(await screen.findByRole('button', { name: `Rotate secret of ${endpoint.url}` }));
    const confirm = within(await screen.findByRole('dialog', { name: 'Rotate secret' }));
    await user.click(confirm.getByRole('button', { name: 'Rotate' }));
    expect(await screen.findByText(webhookMessages.notFound)).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Signing secret' })).not.toBeInTheDocument();
  });

  it("edits an endpoint; the server's refusal of a private address shows under the URL", async () => {
    const user = userEvent.setup();
    const stub = stubTrpcClient({
      'webhooks.list': () => [endpoint],
      'webhooks.update': () => {
        throw trpcError(400, webhookMessages.urlNotPublic);
      },
    });
    renderWithProviders(<Webhooks />, { path: '/admin/webhooks', trpcClient: stub.client });
    await user.click(await screen.findByRole('button', { name: `Edit ${endpoint.url}` }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit webhook' }));
    const url = dialog.getByRole('textbox', { name: 'URL' });
    expect(url).toHaveValue(endpoint.url);
    await user.clear(url);
    await user.paste('http://10.0.0.5/hook');
    await user.click(dialog.getByRole('button', { name: 'Submit' }));
    expect(await dialog.findByText(webhookMessages.urlNotPublic)).toBeVisible();
    expect(stub.callsTo('webhooks.update')).toEqual([
      { id: endpoint._id, url: 'http://10.0.0.5/hook', events: endpoint.events, description: 'CRM sync' },
    ]);
  });

  it('sends a test, lists deliveries and retries one; deactivates', async () => {
    const user = userEvent.setup();
    const stub = renderPage();
    await screen.findByText(endpoint.url);
    await user.click(screen.getByRole('button', { name: `Send test to ${endpoint.url}` }));
    expect(await screen.findByText(webhookToasts.testSent)).toBeVisible();
    expect(stub.callsTo('webhooks.test')).toEqual([{ id: endpoint._id }]);
    expect(await screen.findByRole('heading', { name: `Deliveries to ${endpoint.url}` })).toBeVisible();
    const row = within((await screen.findByText('failed')).closest('tr') as HTMLElement);
    expect(row.getByText('500')).toBeVisible();
    expect(row.getByText('7')).toBeVisible();
    await user.click(row.getByRole('button', { name: /^Retry transaction.created/ }));
    expect(await screen.findByText(webhookToasts.retried)).toBeVisible();
    expect(stub.callsTo('webhooks.retry')).toEqual([{ id: endpoint._id, deliveryId: delivery._id }]);
    await user.click(screen.getByRole('button', { name: `Deactivate ${endpoint.url}` }));
    expect(await screen.findByText('Deactivated')).toBeVisible();
    expect(stub.callsTo('webhooks.update')).toEqual([{ id: endpoint._id, active: false }]);
  });

  it('a failed test says why', async () => {
    const user = userEvent.setup();
    const stub = stubTrpcClient({
      'webhooks.list': () => [endpoint],
      'webhooks.test': () => {
        throw trpcError(409, webhookMessages.inactive);
      },
      'webhooks.deliveries': () => ({ items: [], totalPages: 0, totalItems: 0 }),
    });
    renderWithProviders(<Webhooks />, { path: '/admin/webhooks', trpcClient: stub.client });
    await user.click(await screen.findByRole('button', { name: `Send test to ${endpoint.url}` }));
    expect(await screen.findByText(webhookMessages.inactive)).toBeVisible();
  });

  it('a failed delivery waiting for its next attempt says when, and which attempt; one never tried says pending', async () => {
    const user = userEvent.setup();
    // This very minute: today's, so the page leaves the date out.
    const nextAttemptAt = new Date();
    nextAttemptAt.setSeconds(0, 0);
    const retrying: WebhookDelivery = {
      ...delivery,
      _id: '55555555-5555-4555-8555-555555555555',
      status: 'pending',
      attempts: 1,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      nextAttemptAt: nextAttemptAt.toISOString(),
    };
    const waiting: WebhookDelivery = {
      ...delivery,
      _id: '66666666-6666-4666-8666-666666666666',
      event: 'document.uploaded',
      status: 'pending',
      attempts: 0,
      lastStatusCode: null,
      lastError: null,
      nextAttemptAt: new Date().toISOString(),
    };
    const stub = stubTrpcClient({
      'webhooks.list': () => [endpoint],
      'webhooks.deliveries': () => ({ items: [retrying, waiting], totalPages: 1, totalItems: 2 }),
    });
    renderWithProviders(<Webhooks />, { path: '/admin/webhooks', trpcClient: stub.client });
    await user.click(await screen.findByRole('button', { name: `Deliveries to ${endpoint.url}` }));
    // The time in the user's zone and locale, as the browser tells it (e.g. 11:32 AM).
    const at = nextAttemptAt.toLocaleTimeString(undefined, { timeStyle: 'short' });
    const row = within((await screen.findByText('503')).closest('tr') as HTMLElement);
    expect(row.getByText(`Retrying at ${at} (attempt 2 of 7)`)).toBeVisible();
    const never = within(screen.getByText('document.uploaded').closest('tr') as HTMLElement);
    expect(never.getByText('pending')).toBeVisible();
  });
});
