import { expect } from 'vitest';
import { bearer } from '../api-calls';
import { latestToken, pdfOfPages } from '../esign';
import { type Deal, database, freshDeal, running, tokenOf, unique, uploadedBy } from './world';

/**
 * The signature requests' targets of the matrix: A's deals whose first item holds a real PDF, and
 * requests sent on them through the real route (a link's token read back from the mail outbox).
 * A cell that changes a request (void, sign, decline) gets its own; cells that only read share one.
 */

let pdf: Buffer | undefined;

/** A's fresh deal whose first item's current file is a one-page PDF, accepted. */
export async function freshSignableDeal(): Promise<Deal> {
  pdf ??= await pdfOfPages(1, 'Matrix');
  const deal = await freshDeal();
  const { url } = await uploadedBy('agentA', `/api/uploads/transactions/${deal.id}`, pdf);
  const res = await running.app.inject({
    method: 'PUT',
    url: `/api/transactions/${deal.id}/forms/${deal.formId}`,
    payload: { url },
    headers: bearer(await tokenOf('agentA')),
  });
  expect(res.statusCode, res.body).toBe(200);
  // Accepted already, as a file sent again for signature may be: the many cells' items stay out
  // of the review queue, whose first page the desk rows read.
  await database.db.transactionForm.update({ where: { id: deal.formId }, data: { status: 'accepted' } });
  return deal;
}

/** A valid body sending the item to `email`, one signature field on page 1. */
export const signatureRequestBody = (formId: string, email = `signer-${unique()}@example.com`) => ({
  formId,
  subject: 'Matrix agreement',
  signers: [{ name: 'Matrix Signer', email }],
  fields: [{ signer: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 180, height: 36 }],
});

export type SentRequest = { id: string; reqId: string; token: string; fieldId: string };

/** A request A sent on a fresh signable deal, with its signer's token and signature field. */
export async function freshSignatureRequest(): Promise<SentRequest> {
  const deal = await freshSignableDeal();
  const email = `signer-${unique()}@example.com`;
  const res = await running.app.inject({
    method: 'POST',
    url: `/api/transactions/${deal.id}/signature-requests`,
    payload: signatureRequestBody(deal.formId, email),
    headers: bearer(await tokenOf('agentA')),
  });
  expect(res.statusCode, res.body).toBe(201);
  const reqId = (res.json() as { _id: string })._id;
  const field = await database.db.signatureField.findFirstOrThrow({ where: { requestId: reqId } });
  return { id: deal.id, reqId, token: await latestToken(database.db, email), fieldId: field.id };
}

/** A request the reading cells share (made once; reading it changes nothing they check). */
let shared: Promise<SentRequest> | undefined;
export const sharedSignatureRequest = () => {
  shared ??= freshSignatureRequest();
  return shared;
};

/** What a signer sends to sign the request's one field. */
export const signatureOf = (request: SentRequest) => ({
  consent: true,
  values: [{ fieldId: request.fieldId, value: 'Matrix Signer' }],
});
