import { z } from 'zod';
import { messageAnswer } from '../../shared/schemas/common';
import {
  template,
  templateIdInput,
  templateInput,
  templatesListAnswer,
  templatesListInput,
  templatesSearchAnswer,
  templatesSearchInput,
  templateUpdateInput,
} from '../../shared/schemas/templates';
import * as templates from '../services/templates';
import { adminProcedure, ownerProcedure, protectedProcedure, router } from '../trpc/init';

/** Checklist templates (spec section 2, /admin/forms/transactions/view). */
export const templatesRouter = router({
  /** Every template, for the Create Transaction dialog's Type and Role selects. */
  all: protectedProcedure.output(z.array(template)).query(({ ctx }) => templates.allTemplates(ctx)),

  list: adminProcedure
    .input(templatesListInput)
    .output(templatesListAnswer)
    .query(({ ctx, input }) => templates.listTemplates(ctx, input)),

  search: adminProcedure
    .input(templatesSearchInput)
    .output(templatesSearchAnswer)
    .query(({ ctx, input }) => templates.searchTemplates(ctx, input)),

  create: ownerProcedure
    .input(templateInput)
    .output(template)
    .mutation(({ ctx, input }) => templates.createTemplate(ctx, input)),

  update: adminProcedure
    .input(templateUpdateInput)
    .output(template)
    .mutation(({ ctx, input }) => templates.updateTemplate(ctx, input)),

  delete: adminProcedure
    .input(templateIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => templates.deleteTemplate(ctx, input)),
});
