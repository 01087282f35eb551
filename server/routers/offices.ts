import { messageAnswer } from '../../shared/schemas/common';
import {
  createOfficeInput,
  office,
  officeIdInput,
  officesAnswer,
  updateOfficeInput,
} from '../../shared/schemas/offices';
import * as offices from '../services/offices';
import { adminProcedure, router } from '../trpc/init';
import examples from './offices.examples.json';

/** The brokerage's offices: brokerage-wide admins keep them, an office admin reads its own. */
export const officesRouter = router({
  list: adminProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/admin/offices',
        summary: "The offices, by name, with each one's active agents counted (an office admin: its own)",
        tag: 'offices',
        scope: 'users:read',
        examples: examples.list,
      },
    })
    .output(officesAnswer)
    .query(({ ctx }) => offices.listOffices(ctx)),

  create: adminProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/admin/offices',
        summary: 'Add an office (brokerage-wide admins; 409 if the name exists in any case)',
        tag: 'offices',
        scope: 'users:write',
        errors: [409],
        successStatus: 201,
        examples: examples.create,
      },
    })
    .input(createOfficeInput)
    .output(office)
    .mutation(({ ctx, input }) => offices.createOffice(ctx, input)),

  update: adminProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/admin/offices/:id',
        summary: 'Rename an office or change its review target or retention (brokerage-wide admins)',
        tag: 'offices',
        scope: 'users:write',
        errors: [409],
        examples: examples.update,
      },
    })
    .input(updateOfficeInput)
    .output(office)
    .mutation(({ ctx, input }) => offices.updateOffice(ctx, input)),

  delete: adminProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/admin/offices/:id',
        summary: 'Remove an office nobody belongs to (409 while it has users)',
        tag: 'offices',
        scope: 'users:write',
        errors: [409],
        examples: examples.delete,
      },
    })
    .input(officeIdInput)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => offices.deleteOffice(ctx, input)),
});
