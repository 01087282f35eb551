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
import type { CallerContext } from '../services/context';
import * as libraries from '../services/libraries';
import { ownerProcedure, protectedProcedure, router } from '../trpc/init';

/**
 * The forms and tutorials libraries (spec section 2, /forms and /tutorials). The list and the
 * search are one service call; the spec names the list after its library in the answer.
 */

type PageInput = { page: number; limit: number; query?: string };

async function formsPageOf(ctx: CallerContext, input: PageInput) {
  const { items, pages, total } = await libraries.listItems(ctx, { ...input, kind: 'form' });
  return { forms: items, pages, total };
}

async function tutorialsPageOf(ctx: CallerContext, input: PageInput) {
  const { items, pages, total } = await libraries.listItems(ctx, { ...input, kind: 'tutorial' });
  return { tutorials: items, pages, total };
}

/** Adding, changing and deleting an item: the owner's, alike in both libraries but for the schemas. */
function itemChanges(
  kind: libraries.LibraryKind,
  schemas: {
    create: typeof libraryFormInput | typeof tutorialInput;
    update: typeof libraryFormUpdateInput | typeof tutorialUpdateInput;
  },
) {
  return {
    create: ownerProcedure
      .input(schemas.create)
      .output(libraryItem)
      .mutation(({ ctx, input }) => libraries.createItem(ctx, { ...input, kind })),
    update: ownerProcedure
      .input(schemas.update)
      .output(libraryItem)
      .mutation(({ ctx, input }) => libraries.updateItem(ctx, { ...input, kind })),
    delete: ownerProcedure
      .input(libraryItemId)
      .output(messageAnswer)
      .mutation(({ ctx, input }) => libraries.deleteItem(ctx, { ...input, kind })),
  };
}

const formsRouter = router({
  list: protectedProcedure
    .input(libraryListInput)
    .output(formsPage)
    .query(({ ctx, input }) => formsPageOf(ctx, input)),
  search: protectedProcedure
    .input(librarySearchInput)
    .output(formsPage)
    .query(({ ctx, input }) => formsPageOf(ctx, input)),
  ...itemChanges('form', { create: libraryFormInput, update: libraryFormUpdateInput }),
});

const tutorialsRouter = router({
  list: protectedProcedure
    .input(libraryListInput)
    .output(tutorialsPage)
    .query(({ ctx, input }) => tutorialsPageOf(ctx, input)),
  search: protectedProcedure
    .input(librarySearchInput)
    .output(tutorialsPage)
    .query(({ ctx, input }) => tutorialsPageOf(ctx, input)),
  ...itemChanges('tutorial', { create: tutorialInput, update: tutorialUpdateInput }),
});

export const librariesRouter = router({ forms: formsRouter, tutorials: tutorialsRouter });
