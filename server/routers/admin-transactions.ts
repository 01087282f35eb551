import { z } from 'zod';
import { messageAnswer } from '../../shared/schemas/common';
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

/** Compliance staff: every user's transactions and the review of their documents. */
export const adminTransactionsRouter = router({
  list: adminProcedure
    .input(adminListInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.listAll(ctx, input)),

  search: adminProcedure
    .input(adminSearchInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.searchAll(ctx, input)),

  get: adminProcedure
    .input(transactionIdInput)
    .output(transaction)
    .query(({ ctx, input }) => transactions.getAny(ctx, input)),

  update: adminProcedure
    .input(adminUpdateTransactionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.updateAny(ctx, input)),

  delete: adminProcedure
    .input(transactionIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => transactions.softDelete(ctx, input)),

  review: adminProcedure
    .input(reviewInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.review(ctx, input)),

  decideWaiver: adminProcedure
    .input(waiverDecisionInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.decideWaiver(ctx, input)),

  close: adminProcedure
    .input(transactionIdInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.close(ctx, input)),

  reopen: adminProcedure
    .input(transactionIdInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.reopen(ctx, input)),

  history: adminProcedure
    .input(transactionIdInput)
    .output(z.array(historyEntry))
    .query(({ ctx, input }) => transactions.history(ctx, input)),
});
