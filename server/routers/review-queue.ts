import {
  bulkReviewAnswer,
  bulkReviewInput,
  reviewQueueInput,
  reviewQueuePage,
} from '../../shared/schemas/compliance';
import * as transactions from '../services/transactions';
import { adminProcedure, router } from '../trpc/init';
import examples from './review-queue.examples.json';

/** The compliance desk's queue of documents and waivers to decide. */
export const reviewQueueRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/review-queue',
        summary:
          'Undecided uploads and requested waivers of open transactions the admin reaches, oldest first, each with its office and whether it is overdue (filters: type, agentId, officeId)',
        tag: 'compliance',
        scope: 'transactions:read',
        examples: examples.list,
      },
    })
    .input(reviewQueueInput)
    .output(reviewQueuePage)
    .query(({ ctx, input }) => transactions.reviewQueue(ctx, input)),

  bulkAccept: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/review',
        summary:
          'Accept 1-100 documents at once, all or none (409 naming the first no longer awaiting review)',
        tag: 'compliance',
        scope: 'reviews:write',
        errors: [404, 409],
        examples: examples.bulkAccept,
      },
    })
    .input(bulkReviewInput)
    .output(bulkReviewAnswer)
    .mutation(({ ctx, input }) => transactions.bulkAccept(ctx, input)),
});
