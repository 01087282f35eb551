import assert from 'node:assert/strict';
import path from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { EXAMPLES_DIR } from './typecheck-examples';

/**
 * The integrator's examples (examples/*.ts) run against a listening portal, and what they answer
 * checked: the sign-in tour of examples/typed-client.ts, then the API key integration of
 * examples/integration.ts (a deal opened for an agent, a file attached, the signed
 * `document.accepted` webhook, reconciled with the events list). It sets up what an admin would, through the public API: an agent
 * and an API key. The portal must deliver webhooks (its job worker running) to 127.0.0.1
 * (WEBHOOK_ALLOW_PRIVATE), and have the default Purchase / Buyer template (seeded on first start).
 * Used by scripts/run-typed-client-example.ts (the built server) and
 * server/rest/typed-client.test.ts (the app in-process).
 */

export const CHECKLIST_LABEL = 'Residential Purchase Agreement';
const AGENT = { firstName: 'Avery', lastName: 'Agent', password: 'Example-agent-password-1' };

/**
 * What is called of each example. They import the generated api-types.ts, which only the
 * type-check's scratch folder has, so they are imported by a path computed at run time (the
 * project's own tsc does not follow it); at run time those imports are types only.
 */
type TypedClientModule = {
  typedClientTour(
    baseUrl: string,
    credentials: { email: string; password: string },
  ): Promise<{
    created: { user: { _id: string } };
    total: number;
    missing: { status: number; error: { code: string; error: string } | undefined };
  }>;
};
type ReviewedDocument = { transactionId: string; formId: string; version: number };
type IntegrationModule = {
  integrationTour(options: {
    baseUrl: string;
    apiKey: string;
    agentId: string;
    checklistLabel: string;
    document: { name: string; content: Blob };
    review(document: ReviewedDocument): Promise<unknown>;
    timeoutMs?: number;
  }): Promise<{
    refused: { status: number; error: { message: string; error: string } | undefined };
    transaction: { _id: string; user: { _id: string } };
    item: { _id: string; label: string; version: number };
    accepted: { id: string; payload: { type: string; timestamp: string; data: Record<string, unknown> } };
    sent: { _id: string; type: string; timestamp: string; data: unknown }[];
    missed: unknown[];
  }>;
};
type ReviewerModule = {
  acceptDocument(
    baseUrl: string,
    reviewer: { email: string; password: string },
    document: ReviewedDocument,
  ): Promise<unknown>;
};
const importExample = <T>(file: string) => import(path.join(EXAMPLES_DIR, file)) as Promise<T>;

/** A plain JSON call for the set-up (the examples are the typed part). */
async function call<T>(baseUrl: string, url: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as T & { message?: string };
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}: ${answer.message}`);
  return answer;
}

/** A one-page contract, as an agent's scan would be: a PDF with the item's name in its text. */
async function contractPdf(): Promise<Blob> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([612, 792]);
  page.drawText(CHECKLIST_LABEL, { x: 72, y: 700, size: 20, font });
  page.drawText('14 Integration Lane, Portland, OR 97205. Signed by both parties.', {
    x: 72,
    y: 660,
    size: 11,
    font,
  });
  return new Blob([new Uint8Array(await pdf.save())], { type: 'application/pdf' });
}

/**
 * Runs both examples as `owner` (the owner admin: it makes the agent and the key, and reviews);
 * throws an AssertionError naming what differed. `say` is told of each example that passed.
 */
export async function exerciseExamples(
  baseUrl: string,
  owner: { email: string; password: string },
  say: (line: string) => void = () => {},
): Promise<void> {
  const { token } = await call<{ token: string }>(baseUrl, '/api/auth/login', owner);
  const agentEmail = `agent-${Date.now()}@example.test`;
  const agent = await call<{ _id: string }>(
    baseUrl,
    '/api/users',
    { ...AGENT, email: agentEmail, phoneNumber: '555-010-0002', company: 'Example Realty', role: 'user' },
    token,
  );
  const { key } = await call<{ key: string }>(
    baseUrl,
    '/api/admin/api-keys',
    { name: 'CRM (typed client example)', scopes: ['transactions:write', 'webhooks:manage'] },
    token,
  );

  const { typedClientTour } = await importExample<TypedClientModule>('typed-client.ts');
  const tour = await typedClientTour(baseUrl, { email: agentEmail, password: AGENT.password });
  assert.equal(tour.created.user._id, agent._id, 'the tour creates a transaction of its own');
  assert.equal(tour.total, 1, 'the tour lists the one transaction it created');
  assert.equal(tour.missing.status, 404);
  assert.equal(tour.missing.error?.code, 'NOT_FOUND');
  assert.equal(tour.missing.error?.error, 'not-found');
  say('typed-client.ts: signed in, created, listed, read a 404');

  const { integrationTour } = await importExample<IntegrationModule>('integration.ts');
  const { acceptDocument } = await importExample<ReviewerModule>('reviewer.ts');
  const result = await integrationTour({
    baseUrl,
    apiKey: key,
    agentId: agent._id,
    checklistLabel: CHECKLIST_LABEL,
    document: { name: 'purchase-agreement.pdf', content: await contractPdf() },
    review: (reviewed) => acceptDocument(baseUrl, owner, reviewed),
    // Within a test's 30 s, so a delivery that never comes fails as such.
    timeoutMs: 15_000,
  });
  assert.equal(result.refused.status, 400);
  assert.equal(result.refused.error?.message, 'No active agent with this id');
  assert.equal(result.refused.error?.error, 'validation');
  assert.equal(result.transaction.user._id, agent._id, 'the deal is the agent’s');
  assert.equal(result.item.label, CHECKLIST_LABEL);
  assert.equal(result.item.version, 1, 'the file is the item’s first version');
  const { type, data } = result.accepted.payload;
  assert.equal(type, 'document.accepted');
  assert.equal(data._id, result.item._id);
  assert.equal(data.transactionId, result.transaction._id);
  assert.equal(data.status, 'accepted');
  assert.match(result.accepted.id, /\S/, 'the delivery carries its webhook-id');
  // The events list holds what was delivered, field for field, under the delivery's webhook-id.
  assert.deepEqual(result.sent, [{ _id: result.accepted.id, ...result.accepted.payload }]);
  assert.deepEqual(result.missed, []);
  say(
    'integration.ts: deal opened for the agent, file attached, signed document.accepted received, ' +
      'reconciled with the events list',
  );
}
