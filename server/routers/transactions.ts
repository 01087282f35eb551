import { splitInput } from '../../shared/schemas/intake';
import {
  addCommentInput,
  comment,
  createTransactionInput,
  formIdInput,
  formVersionsAnswer,
  setFormFileInput,
  transaction,
  transactionForm,
  transactionsPage,
  updateTransactionInput,
  userListInput,
  userSearchInput,
  userTransactionInput,
  waiverRequestInput,
} from '../../shared/schemas/transactions';
import * as intake from '../services/intake/split';
import * as transactions from '../services/transactions';
import { protectedListProcedure, protectedProcedure, router } from '../trpc/init';

/** An agent's own transactions (spec section 2, /home and /home/transactions/{id}). */
export const transactionsRouter = router({
  list: protectedListProcedure
    .input(userListInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.listForUser(ctx, input)),

  search: protectedProcedure
    .input(userSearchInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.searchForUser(ctx, input)),

  create: protectedProcedure
    .input(createTransactionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.createTransaction(ctx, input)),

  get: protectedProcedure
    .input(userTransactionInput)
    .output(transaction)
    .query(({ ctx, input }) => transactions.getForUser(ctx, input)),

  update: protectedProcedure
    .input(updateTransactionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.updateForUser(ctx, input)),

  setFormFile: protectedProcedure
    .input(setFormFileInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.setFormFile(ctx, input)),

  addComment: protectedProcedure
    .input(addCommentInput)
    .output(comment)
    .mutation(({ ctx, input }) => transactions.addComment(ctx, input)),

  requestWaiver: protectedProcedure
    .input(waiverRequestInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.requestWaiver(ctx, input)),

  versions: protectedProcedure
    .input(formIdInput)
    .output(formVersionsAnswer)
    .query(({ ctx, input }) => transactions.listVersions(ctx, input)),

  /** A packet cut into its documents: the agent who owns it, or an admin. */
  split: protectedProcedure
    .input(splitInput)
    .output(transaction)
    .mutation(({ ctx, input }) => intake.splitPacket(ctx, input)),
});
