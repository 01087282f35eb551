import {
  commissionPlan,
  commissionPlanInput,
  commissionPlansAnswer,
  updateCommissionPlanInput,
} from '../../shared/schemas/commission';
import * as plans from '../services/commission/plans';
import { adminProcedure, router } from '../trpc/init';
import examples from './commission.examples.json';

/** Commission plans, kept by admins. */
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
});
