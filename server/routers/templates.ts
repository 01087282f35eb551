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
import examples from './templates.examples.json';

/** Checklist templates (/admin/forms/transactions/view). */
export const templatesRouter = router({
  /** Every template, for the Create Transaction dialog's Type and Role selects. */
  all: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/forms/transactions/view/all',
        summary: 'Every checklist template (any signed-in user)',
        tag: 'templates',
        scope: 'any',
        examples: examples.all,
      },
    })
    .output(z.array(template))
    .query(({ ctx }) => templates.allTemplates(ctx)),

  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/forms/transactions/view',
        summary: 'Checklist templates by page, ordered by type then role',
        tag: 'templates',
        scope: 'any',
        examples: examples.list,
      },
    })
    .input(templatesListInput)
    .output(templatesListAnswer)
    .query(({ ctx, input }) => templates.listTemplates(ctx, input)),

  search: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/forms/transactions/search',
        summary: 'Search templates by type, role and document names',
        tag: 'templates',
        scope: 'any',
        examples: examples.search,
      },
    })
    .input(templatesSearchInput)
    .output(templatesSearchAnswer)
    .query(({ ctx, input }) => templates.searchTemplates(ctx, input)),

  create: ownerProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/forms/transactions/insert',
        summary: 'Add a template (the owner only); 409 if (type, role) exists',
        tag: 'templates',
        scope: 'libraries:write',
        errors: [409],
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(templateInput)
    .output(template)
    .mutation(({ ctx, input }) => templates.createTemplate(ctx, input)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/forms/transactions/form/:id',
        summary: 'Change a template; open transactions take a change of its conditional items',
        tag: 'templates',
        scope: 'libraries:write',
        errors: [409],
        examples: examples.update,
      },
    })
    .input(templateUpdateInput)
    .output(template)
    .mutation(({ ctx, input }) => templates.updateTemplate(ctx, input)),

  delete: adminProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/admin/forms/transactions/form/:id',
        summary: 'Delete a template',
        tag: 'templates',
        scope: 'libraries:write',
        examples: examples.delete,
      },
    })
    .input(templateIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => templates.deleteTemplate(ctx, input)),
});
