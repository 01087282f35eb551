import { z } from 'zod';
import { messageAnswer } from '../../shared/schemas/common';
import { legalHoldInput } from '../../shared/schemas/retention';
import {
  adminListInput,
  adminSearchInput,
  adminUpdateTransactionInput,
  historyEntry,
  reviewInput,
  transaction,
  transactionForm,
  transactionIdInput,
  transactionsPage,
  waiverDecisionInput,
} from '../../shared/schemas/transactions';
import * as transactions from '../services/transactions';
import { adminProcedure, router } from '../trpc/init';
import examples from './admin-transactions.examples.json';

/** Compliance staff: every user's transactions and the review of their documents. */
export const adminTransactionsRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/transactions',
        summary: "Every user's transactions, newest first",
        tag: 'admin transactions',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .input(adminListInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.listAll(ctx, input)),

  search: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/transactions/search/:term',
        summary: "Search every user's transactions (address fields and the agent's name)",
        tag: 'admin transactions',
        scope: 'transactions:read',
        examples: examples.search,
      },
    })
    .input(adminSearchInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.searchAll(ctx, input)),

  get: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/transactions/individual/:id',
        summary: 'Any transaction with its forms and comments',
        tag: 'admin transactions',
        scope: 'transactions:read',
        examples: examples.get,
      },
    })
    .input(transactionIdInput)
    .output(transaction)
    .query(({ ctx, input }) => transactions.getAny(ctx, input)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/transactions/:id',
        summary: 'Change the address and the three checkboxes of any transaction',
        tag: 'admin transactions',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.update,
      },
    })
    .input(adminUpdateTransactionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.updateAny(ctx, input)),

  delete: adminProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/admin/transactions/:id',
        summary:
          'Delete a transaction (kept on file, gone from every list); 409 while under legal hold or inside its retention',
        tag: 'admin transactions',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.delete,
      },
    })
    .input(transactionIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => transactions.softDelete(ctx, input)),

  review: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/transactions/:id/forms/:formId/comments',
        summary: 'Review a form: accept or reject it, with or without a comment',
        tag: 'admin transactions',
        scope: 'reviews:write',
        errors: [409],
        successStatus: 201,
        examples: examples.review,
      },
    })
    .input(reviewInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.review(ctx, input)),

  decideWaiver: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/transactions/:id/forms/:formId/waiver',
        summary:
          'Approve or deny a requested waiver; an approved one counts as done (409 if none is requested)',
        tag: 'admin transactions',
        scope: 'reviews:write',
        errors: [409],
        examples: examples.decideWaiver,
      },
    })
    .input(waiverDecisionInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.decideWaiver(ctx, input)),

  close: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/transactions/:id/close',
        summary: 'Close a compliant transaction (409 naming how many required documents are not accepted)',
        tag: 'admin transactions',
        scope: 'reviews:write',
        errors: [409],
        examples: examples.close,
      },
    })
    .input(transactionIdInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.close(ctx, input)),

  reopen: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/transactions/:id/reopen',
        summary: 'Reopen a closed transaction: its checklist can change again',
        tag: 'admin transactions',
        scope: 'reviews:write',
        errors: [409],
        examples: examples.reopen,
      },
    })
    .input(transactionIdInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.reopen(ctx, input)),

  legalHold: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/transactions/:id/legal-hold',
        summary:
          'Place (with a reason) or release the legal hold that keeps a transaction from deletion and purge',
        tag: 'admin transactions',
        scope: 'transactions:write',
        examples: examples.legalHold,
      },
    })
    .input(legalHoldInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.setLegalHold(ctx, input)),

  history: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/transactions/:id/history',
        summary: 'The audit trail of a transaction, newest first',
        tag: 'admin transactions',
        scope: 'transactions:read',
        examples: examples.history,
      },
    })
    .input(transactionIdInput)
    .output(z.array(historyEntry))
    .query(({ ctx, input }) => transactions.history(ctx, input)),
});
