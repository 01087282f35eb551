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
import examples from './libraries.examples.json';

/**
 * The forms and tutorials libraries (/forms and /tutorials). The list and the
 * search are one service call; the answer names the list after its library (docs/API.md).
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

/** Where a library is on the REST API, and what its paths say. */
type LibraryRest = {
  base: '/api/forms' | '/api/tutorials';
  tag: string;
  createSummary: string;
  examples: (typeof examples)['forms'] | (typeof examples)['tutorials'];
};

/** Adding, changing and deleting an item: the owner's, alike in both libraries but for the schemas. */
function itemChanges(
  kind: libraries.LibraryKind,
  schemas: {
    create: typeof libraryFormInput | typeof tutorialInput;
    update: typeof libraryFormUpdateInput | typeof tutorialUpdateInput;
  },
  rest: LibraryRest,
) {
  const { base, tag } = rest;
  return {
    create: ownerProcedure
      .meta({
        rest: {
          method: 'POST',
          path: base,
          summary: rest.createSummary,
          tag,
          scope: 'libraries:write',
          successStatus: 201,
          examples: rest.examples.create,
        },
      })
      .input(schemas.create)
      .output(libraryItem)
      .mutation(({ ctx, input }) => libraries.createItem(ctx, { ...input, kind })),
    update: ownerProcedure
      .meta({
        rest: {
          method: 'PUT',
          path: `${base}/:id`,
          summary: `Change an item of the ${tag} (the owner)`,
          tag,
          scope: 'libraries:write',
          examples: rest.examples.update,
        },
      })
      .input(schemas.update)
      .output(libraryItem)
      .mutation(({ ctx, input }) => libraries.updateItem(ctx, { ...input, kind })),
    delete: ownerProcedure
      .meta({
        rest: {
          method: 'DELETE',
          path: `${base}/:id`,
          summary: `Delete an item of the ${tag} (the owner)`,
          tag,
          scope: 'libraries:write',
          examples: rest.examples.delete,
        },
      })
      .input(libraryItemId)
      .output(messageAnswer)
      .mutation(({ ctx, input }) => libraries.deleteItem(ctx, { ...input, kind })),
  };
}

const FORMS_REST: LibraryRest = {
  base: '/api/forms',
  tag: 'forms library',
  createSummary: 'Add a form (the owner; link = the key from POST /api/uploads/forms)',
  examples: examples.forms,
};

const formsRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: FORMS_REST.base,
        summary: `The ${FORMS_REST.tag}, by name`,
        tag: FORMS_REST.tag,
        scope: 'any',
        examples: examples.forms.list,
      },
    })
    .input(libraryListInput)
    .output(formsPage)
    .query(({ ctx, input }) => formsPageOf(ctx, input)),
  search: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: `${FORMS_REST.base}/search`,
        summary: `Search the ${FORMS_REST.tag} by name`,
        tag: FORMS_REST.tag,
        scope: 'any',
        examples: examples.forms.search,
      },
    })
    .input(librarySearchInput)
    .output(formsPage)
    .query(({ ctx, input }) => formsPageOf(ctx, input)),
  ...itemChanges('form', { create: libraryFormInput, update: libraryFormUpdateInput }, FORMS_REST),
});

const TUTORIALS_REST: LibraryRest = {
  base: '/api/tutorials',
  tag: 'tutorials library',
  createSummary: 'Add a tutorial (the owner)',
  examples: examples.tutorials,
};

const tutorialsRouter = router({
  list: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: TUTORIALS_REST.base,
        summary: `The ${TUTORIALS_REST.tag}, by name`,
        tag: TUTORIALS_REST.tag,
        scope: 'any',
        examples: examples.tutorials.list,
      },
    })
    .input(libraryListInput)
    .output(tutorialsPage)
    .query(({ ctx, input }) => tutorialsPageOf(ctx, input)),
  search: protectedProcedure
    .meta({
      rest: {
        method: 'GET',
        path: `${TUTORIALS_REST.base}/search`,
        summary: `Search the ${TUTORIALS_REST.tag} by name`,
        tag: TUTORIALS_REST.tag,
        scope: 'any',
        examples: examples.tutorials.search,
      },
    })
    .input(librarySearchInput)
    .output(tutorialsPage)
    .query(({ ctx, input }) => tutorialsPageOf(ctx, input)),
  ...itemChanges('tutorial', { create: tutorialInput, update: tutorialUpdateInput }, TUTORIALS_REST),
});

export const librariesRouter = router({ forms: formsRouter, tutorials: tutorialsRouter });
