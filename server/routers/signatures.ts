import {
  createSignatureRequestInput,
  declineInput,
  signatureRequest,
  signatureRequestIdInput,
  signatureRequestsAnswer,
  signInput,
  signingAnswer,
  signingTokenInput,
  signingView,
  voidSignatureRequestInput,
} from '../../shared/schemas/esign';
import { transactionIdInput } from '../../shared/schemas/transactions';
import * as requests from '../services/esign/requests';
import * as signing from '../services/esign/signing';
import { protectedProcedure, publicProcedure, router } from '../trpc/init';
import examples from './signatures.examples.json';

/**
 * Electronic signatures: a transaction's requests (its people), and the public signing page's
 * calls (a signer holding a link, no account).
 */
export const signaturesRouter = router({
  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions/:id/signature-requests',
        summary:
          "Send a checklist item's current PDF for signature: signers are mailed their links (409 when the transaction is closed)",
        tag: 'signatures',
        scope: 'transactions:write',
        errors: [409],
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createSignatureRequestInput)
    .output(signatureRequest)
    .mutation(({ ctx, input }) => requests.createSignatureRequest(ctx, input)),

  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/:id/signature-requests',
        summary: "The transaction's signature requests, newest first",
        tag: 'signatures',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .input(transactionIdInput)
    .output(signatureRequestsAnswer)
    .query(({ ctx, input }) => requests.listSignatureRequests(ctx, input)),

  remind: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions/:id/signature-requests/:reqId/remind',
        summary:
          'Mail every signer whose turn it is and who has not signed a fresh link now (409 when the request is closed)',
        tag: 'signatures',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.remind,
      },
    })
    .input(signatureRequestIdInput)
    .output(signatureRequest)
    .mutation(({ ctx, input }) => requests.remindSignatureRequest(ctx, input)),

  void: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions/:id/signature-requests/:reqId/void',
        summary: 'Void a signature request, with the reason: its links stop working (409 when closed)',
        tag: 'signatures',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.void,
      },
    })
    .input(voidSignatureRequestInput)
    .output(signatureRequest)
    .mutation(({ ctx, input }) => requests.voidSignatureRequest(ctx, input)),

  view: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/sign/:token',
        summary:
          "A signer's request, by the token of the link mailed to them (no account): marks it viewed (409 when closed)",
        tag: 'signatures',
        scope: 'personal',
        errors: [409],
        examples: examples.view,
      },
    })
    .input(signingTokenInput)
    .output(signingView)
    .query(({ ctx, input }) => signing.viewSigning(ctx, input)),

  sign: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/sign/:token',
        summary:
          "Sign: consent and a value for each of the signer's fields; the last signature completes the request (409 when closed)",
        tag: 'signatures',
        scope: 'personal',
        errors: [409],
        examples: examples.sign,
      },
    })
    .input(signInput)
    .output(signingAnswer)
    .mutation(({ ctx, input }) => signing.sign(ctx, input)),

  decline: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/sign/:token/decline',
        summary: 'Decline to sign, with the reason: the request is declined for everyone (409 when closed)',
        tag: 'signatures',
        scope: 'personal',
        errors: [409],
        examples: examples.decline,
      },
    })
    .input(declineInput)
    .output(signingAnswer)
    .mutation(({ ctx, input }) => signing.decline(ctx, input)),
});
