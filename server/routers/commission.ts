import {
  cda,
  cdasAnswer,
  commissionPlan,
  commissionPlanInput,
  commissionPlansAnswer,
  issueCdaInput,
  markCdaPaidInput,
  setCommissionInput,
  updateCommissionPlanInput,
} from '../../shared/schemas/commission';
import { transaction, transactionIdInput } from '../../shared/schemas/transactions';
import { issueCda } from '../services/commission/cda-issue';
import { listCdas, markCdaPaid } from '../services/commission/cda-paid';
import * as plans from '../services/commission/plans';
import { setCommission } from '../services/commission/transaction-commission';
import { adminProcedure, protectedProcedure, router } from '../trpc/init';
import examples from './commission.examples.json';

/** Commission plans, kept by admins, a transaction's commission and its CDAs. */
export const commissionRouter = router({
  listPlans: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/commission-plans',
        summary: 'The commission plans, by name',
        tag: 'commission',
        scope: 'users:read',
        examples: examples.listPlans,
      },
    })
    .output(commissionPlansAnswer)
    .query(({ ctx }) => plans.listPlans(ctx)),

  createPlan: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/commission-plans',
        summary: 'Add a commission plan (brokerage-wide admins; 409 if the name exists in any case)',
        tag: 'commission',
        scope: 'users:write',
        errors: [409],
        successStatus: 201,
        examples: examples.createPlan,
      },
    })
    .input(commissionPlanInput)
    .output(commissionPlan)
    .mutation(({ ctx, input }) => plans.createPlan(ctx, input)),

  updatePlan: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/commission-plans/:id',
        summary:
          'Change a commission plan, every field given (brokerage-wide admins; 409 if the name exists)',
        tag: 'commission',
        scope: 'users:write',
        errors: [409],
        examples: examples.updatePlan,
      },
    })
    .input(updateCommissionPlanInput)
    .output(commissionPlan)
    .mutation(({ ctx, input }) => plans.updatePlan(ctx, input)),

  setForTransaction: protectedProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/transactions/:id/commission',
        summary:
          "Set a transaction's commission: a gross amount or a rate of the sale price, and a referral (409 when closed)",
        tag: 'commission',
        scope: 'transactions:write',
        errors: [409],
        examples: examples.setForTransaction,
      },
    })
    .input(setCommissionInput)
    .output(transaction)
    .mutation(({ ctx, input }) => setCommission(ctx, input)),

  issueCda: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/transactions/:id/cda',
        summary:
          "Issue the transaction's CDA, a new version replacing the current one (409 without a commission, a plan, compliance or when the current one is paid)",
        tag: 'commission',
        scope: 'reviews:write',
        errors: [409],
        successStatus: 201,
        examples: examples.issueCda,
      },
    })
    .input(issueCdaInput)
    .output(cda)
    .mutation(({ ctx, input }) => issueCda(ctx, input)),

  listCdas: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/transactions/:id/cda',
        summary: "The transaction's CDAs, every version newest first",
        tag: 'commission',
        scope: 'transactions:read',
        examples: examples.listCdas,
      },
    })
    .input(transactionIdInput)
    .output(cdasAnswer)
    .query(({ ctx, input }) => listCdas(ctx, input)),

  markCdaPaid: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/transactions/:id/cda/:cdaId/paid',
        summary: 'Record that a CDA was paid (409 when superseded or paid already)',
        tag: 'commission',
        scope: 'reviews:write',
        errors: [409],
        examples: examples.markCdaPaid,
      },
    })
    .input(markCdaPaidInput)
    .output(cda)
    .mutation(({ ctx, input }) => markCdaPaid(ctx, input)),
});
