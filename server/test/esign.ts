import type { FastifyInstance } from 'fastify';
import { PDFDocument } from 'pdf-lib';
import { afterAll, beforeAll, expect } from 'vitest';
import type { SignatureRequest } from '../../shared/schemas/esign';
import type { TransactionForm } from '../../shared/schemas/transactions';
import type { Clock } from '../clock';
import type { Db } from '../db/client';
import type { AppDeps } from '../deps';
import type { MailContent } from '../mail/content';
import { sealerFor } from '../security/sealing';
import { bearer, injectUpload } from './api-calls';
import { accessTokenFor, createTransaction, createUser } from './factories';
import { buildTestApp, type TestClock, testDeps } from './harness';
import { type Actor, restCalls } from './rest-calls';
import { TEST_JWT_SECRET } from './test-config';

/**
 * The signature requests' test helpers: a real PDF of `pages` pages attached to an item through
 * the upload routes, a request sent over REST, and the signing links read back from the real mail
 * outbox (each mail's sealed content opened as the mail job opens it).
 */

/** A PDF with `pages` letter-size pages, each with a line of text so it is not blank. */
export async function pdfOfPages(pages: number, label = 'Signature test'): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (let page = 1; page <= pages; page++) {
    doc.addPage([612, 792]).drawText(`${label}, page ${page} of ${pages}`, { x: 72, y: 720, size: 14 });
  }
  return Buffer.from(await doc.save());
}

/** Uploads `bytes` to the transaction and makes it the item's current file, as the client does. */
export async function attachPdf(
  app: FastifyInstance,
  clock: Clock,
  who: Actor,
  deal: { id: string },
  formId: string,
  bytes: Buffer,
): Promise<TransactionForm> {
  const token = await accessTokenFor(who, { now: clock.now() });
  const uploaded = await injectUpload(
    app,
    `/api/uploads/transactions/${deal.id}`,
    token,
    bytes,
    'contract.pdf',
  );
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const res = await app.inject({
    method: 'PUT',
    url: `/api/transactions/${deal.id}/forms/${formId}`,
    payload: { url: (uploaded.json() as { url: string }).url },
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as TransactionForm;
}

/** A request body with one signature field per signer on page 1 (and whatever `extra` adds). */
export function requestBody(
  formId: string,
  signers: { name: string; email: string }[],
  extra: Record<string, unknown> = {},
) {
  return {
    formId,
    subject: 'Purchase agreement',
    message: 'Please sign where marked.',
    signers,
    fields: signers.map((_, signer) => ({
      signer,
      page: 1,
      kind: 'signature',
      x: 72,
      y: 600,
      width: 180,
      height: 36,
    })),
    ...extra,
  };
}

type OutboxMail = { kind: string; content: MailContent };

/** The mails queued to `email`, oldest first, opened. */
export async function mailsTo(db: Db, email: string): Promise<OutboxMail[]> {
  const rows = await db.$queryRaw<{ kind: string; sealed: string }[]>`
    SELECT kind, sealed FROM mail_outbox ORDER BY created_at, id`;
  const sealer = sealerFor(TEST_JWT_SECRET);
  return rows
    .map((row) => ({ kind: row.kind, content: JSON.parse(sealer.open(row.sealed)) as MailContent }))
    .filter((mail) => mail.content.to === email);
}

/** The token of the latest signing link mailed to `email`. */
export async function latestToken(db: Db, email: string): Promise<string> {
  const mails = (await mailsTo(db, email)).filter((mail) => mail.kind.startsWith('esign.'));
  const url = mails.at(-1)?.content.action?.url;
  if (!url) throw new Error(`no signing link was mailed to ${email}`);
  const token = url.split('/sign/')[1];
  if (!token) throw new Error(`not a signing link: ${url}`);
  return token;
}

/** The ids of the signer's fields, as the signing page reads them. */
export async function fieldsOfToken(app: FastifyInstance, token: string) {
  const res = await app.inject({ method: 'GET', url: `/api/sign/${token}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { fields: { _id: string; kind: string }[] }).fields;
}

/** Signs every field of the link with a typed value (date fields left to the server). */
export async function signAll(app: FastifyInstance, token: string, headers: Record<string, string> = {}) {
  const fields = await fieldsOfToken(app, token);
  return app.inject({
    method: 'POST',
    url: `/api/sign/${token}`,
    headers,
    payload: {
      consent: true,
      values: fields.filter((f) => f.kind !== 'date').map((f) => ({ fieldId: f._id, value: 'Jordan Buyer' })),
    },
  });
}

/**
 * A test file's app, agent and two-page PDF, and the requests it sends: each on a fresh
 * transaction of the agent, to addresses no other request uses (`prefix` keeps files apart).
 */
export function signingTestbed(database: { db: Db }, clock: TestClock, prefix: string) {
  const state = {} as { app: FastifyInstance; deps: AppDeps; agent: Actor; pdf: Buffer };
  beforeAll(async () => {
    state.deps = testDeps(database.db, { clock });
    state.app = buildTestApp(state.deps);
    state.agent = await createUser(database.db, { firstName: 'Alex', lastName: 'Agent' });
    state.pdf = await pdfOfPages(2);
  });
  afterAll(() => state.app.close());
  const rest = restCalls(() => state.app, clock);
  let mailboxes = 0;

  /** A request of a fresh transaction of the agent, sent to fresh addresses; their tokens. */
  async function sentRequest(options: { ordered?: boolean; fields?: object[]; signers?: number } = {}) {
    const deal = await createTransaction(database.db, { userId: state.agent.id });
    const formId = deal.forms[0]?.id as string;
    await attachPdf(state.app, clock, state.agent, deal, formId, state.pdf);
    const n = ++mailboxes;
    const signers = [
      { name: 'Jordan Buyer', email: `${prefix}-jordan${n}@example.com` },
      { name: 'Sam Seller', email: `${prefix}-sam${n}@example.com` },
    ].slice(0, options.signers ?? 2);
    const body = requestBody(formId, signers, {
      ordered: options.ordered ?? false,
      ...(options.fields ? { fields: options.fields } : {}),
    });
    const url = `/api/transactions/${deal.id}/signature-requests`;
    const request = await rest.ok<SignatureRequest>(201, 'POST', url, state.agent, body);
    const tokenOf = (index: number) => latestToken(database.db, signers[index]?.email as string);
    return { deal, formId, request, signers, tokenOf };
  }

  return {
    state,
    ...rest,
    sentRequest,
    get: (token: string, headers: Record<string, string> = {}) =>
      state.app.inject({ method: 'GET', url: `/api/sign/${token}`, headers }),
    post: (token: string, payload: object, path = '') =>
      state.app.inject({ method: 'POST', url: `/api/sign/${token}${path}`, payload }),
    signerRow: (email: string) => database.db.signatureSigner.findFirstOrThrow({ where: { email } }),
  };
}
