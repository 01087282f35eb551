import {
  bulkReviewAnswer,
  bulkReviewInput,
  reviewQueueInput,
  reviewQueuePage,
} from '../../shared/schemas/compliance';
import * as transactions from '../services/transactions';
import { adminProcedure, router } from '../trpc/init';

/** The compliance desk's queue of documents and waivers to decide. */
export const reviewQueueRouter = router({
  list: adminProcedure
    .input(reviewQueueInput)
    .output(reviewQueuePage)
    .query(({ ctx, input }) => transactions.reviewQueue(ctx, input)),

  bulkAccept: adminProcedure
    .input(bulkReviewInput)
    .output(bulkReviewAnswer)
    .mutation(({ ctx, input }) => transactions.bulkAccept(ctx, input)),
});
