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
import examples from './transactions.examples.json';

/** An agent's own transactions (/home and /home/transactions/{id}). */
export const transactionsRouter = router({
  list: protectedListProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/:userId',
        summary: "A user's transactions, newest first",
        tag: 'transactions',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .input(userListInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.listForUser(ctx, input)),

  search: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/search/:userId/:term',
        summary: "Search a user's transactions by street address, city, state or zip",
        tag: 'transactions',
        scope: 'transactions:read',
        examples: examples.search,
      },
    })
    .input(userSearchInput)
    .output(transactionsPage)
    .query(({ ctx, input }) => transactions.searchForUser(ctx, input)),

  create: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions',
        summary:
          'Open a transaction; its forms come from the template of (type, role). A coordinator names the agent it is for in agentId (403 for any other agent)',
        tag: 'transactions',
        scope: 'transactions:write',
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createTransactionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.createTransaction(ctx, input)),

  get: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/individual/:id/:userId',
        summary: 'One transaction with its forms and comments',
        tag: 'transactions',
        scope: 'transactions:read',
        examples: examples.get,
      },
    })
    .input(userTransactionInput)
    .output(transaction)
    .query(({ ctx, input }) => transactions.getForUser(ctx, input)),

  update: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/transactions/:id/:userId',
        summary: 'Change the address of a transaction',
        tag: 'transactions',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.update,
      },
    })
    .input(updateTransactionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => transactions.updateForUser(ctx, input)),

  setFormFile: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/transactions/:id/forms/:formId',
        summary: 'Attach an uploaded file to a form (the url or key from the upload); status back to pending',
        tag: 'transactions',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.setFormFile,
      },
    })
    .input(setFormFileInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.setFormFile(ctx, input)),

  addComment: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions/:id/forms/:formId/comments',
        summary: "Comment on a form; the comment's role is the caller's",
        tag: 'transactions',
        scope: 'transactions:write',
        successStatus: 201,
        examples: examples.addComment,
      },
    })
    .input(addCommentInput)
    .output(comment)
    .mutation(({ ctx, input }) => transactions.addComment(ctx, input)),

  requestWaiver: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions/:id/forms/:formId/waiver',
        summary:
          'Ask for a required item to be waived, with a reason (400 "Reason is required"; 409 when closed, optional, accepted or already asked)',
        tag: 'transactions',
        scope: 'transactions:write',
        errors: [409],
        successStatus: 201,
        examples: examples.requestWaiver,
      },
    })
    .input(waiverRequestInput)
    .output(transactionForm)
    .mutation(({ ctx, input }) => transactions.requestWaiver(ctx, input)),

  versions: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/:id/forms/:formId/versions',
        summary: 'Every file attached to an item, newest first, each with the decision made on it',
        tag: 'transactions',
        scope: 'transactions:read',
        examples: examples.versions,
      },
    })
    .input(formIdInput)
    .output(formVersionsAnswer)
    .query(({ ctx, input }) => transactions.listVersions(ctx, input)),

  /** A packet cut into its documents: the agent who owns it, or an admin. */
  split: protectedProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/transactions/:id/split',
        summary:
          'Cut an uploaded PDF of the transaction (key) into one file per part (pages like 1-3,5) and attach each to its item as a new version; 400 for pages out of range or in two parts; 409 when closed',
        tag: 'transactions',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.split,
      },
    })
    .input(splitInput)
    .output(transaction)
    .mutation(({ ctx, input }) => intake.splitPacket(ctx, input)),
});
