import { messageAnswer } from '../../shared/schemas/common';
import {
  formsPage,
  libraryFormInput,
  libraryFormUpdateInput,
  libraryItem,
  libraryItemId,
  libraryListInput,
  librarySearchInput,
  tutorialInput,
  tutorialsPage,
  tutorialUpdateInput,
} from '../../shared/schemas/libraries';
import * as libraries from '../services/libraries';
import { ownerProcedure, protectedProcedure, router } from '../trpc/init';

/** The forms and tutorials libraries (spec section 2, /forms and /tutorials). */

const formsRouter = router({
  list: protectedProcedure
    .input(libraryListInput)
    .output(formsPage)
    .query(async ({ ctx, input }) => {
      const { items, pages, total } = await libraries.listItems(ctx.deps, 'form', input);
      return { forms: items, pages, total };
    }),
  search: protectedProcedure
    .input(librarySearchInput)
    .output(formsPage)
    .query(async ({ ctx, input }) => {
      const { items, pages, total } = await libraries.listItems(ctx.deps, 'form', input);
      return { forms: items, pages, total };
    }),
  create: ownerProcedure
    .input(libraryFormInput)
    .output(libraryItem)
    .mutation(({ ctx, input }) => libraries.createItem(ctx.deps, 'form', input)),
  update: ownerProcedure
    .input(libraryFormUpdateInput)
    .output(libraryItem)
    .mutation(({ ctx, input }) => libraries.updateItem(ctx.deps, 'form', input)),
  delete: ownerProcedure
    .input(libraryItemId)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => libraries.deleteItem(ctx.deps, 'form', input.id)),
});

const tutorialsRouter = router({
  list: protectedProcedure
    .input(libraryListInput)
    .output(tutorialsPage)
    .query(async ({ ctx, input }) => {
      const { items, pages, total } = await libraries.listItems(ctx.deps, 'tutorial', input);
      return { tutorials: items, pages, total };
    }),
  search: protectedProcedure
    .input(librarySearchInput)
    .output(tutorialsPage)
    .query(async ({ ctx, input }) => {
      const { items, pages, total } = await libraries.listItems(ctx.deps, 'tutorial', input);
      return { tutorials: items, pages, total };
    }),
  create: ownerProcedure
    .input(tutorialInput)
    .output(libraryItem)
    .mutation(({ ctx, input }) => libraries.createItem(ctx.deps, 'tutorial', input)),
  update: ownerProcedure
    .input(tutorialUpdateInput)
    .output(libraryItem)
    .mutation(({ ctx, input }) => libraries.updateItem(ctx.deps, 'tutorial', input)),
  delete: ownerProcedure
    .input(libraryItemId)
    .output(messageAnswer)
    .mutation(({ ctx, input }) => libraries.deleteItem(ctx.deps, 'tutorial', input.id)),
});

export const librariesRouter = router({ forms: formsRouter, tutorials: tutorialsRouter });
