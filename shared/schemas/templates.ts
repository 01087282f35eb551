import { z } from 'zod';
import { complianceMessages, validation } from '../messages';
import { idSchema, pagingInput } from './common';
import { conditionalFormAnswer, conditionalForms } from './facts';
import { KEY_DATE_KINDS } from './key-dates';

/** The key dates a template may start its transactions with: every kind but `custom`. */
export const TEMPLATE_KEY_DATE_KINDS = KEY_DATE_KINDS.filter((kind) => kind !== 'custom');
const templateKeyDateKind = z.enum(TEMPLATE_KEY_DATE_KINDS as [string, ...string[]], {
  error:
    'Key date kinds are contract-acceptance, inspection, appraisal, financing, closing, listing-expiration, possession',
});

/**
 * Checklist templates: the documents a
 * transaction of a (type, role) must collect. Role '-' means the type has no role.
 */

const MAX_TEXT = 200;
const MAX_DOCUMENTS = 100;

const required = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(MAX_TEXT, { error: `Cannot exceed ${MAX_TEXT} characters` });

const templateFields = z.object({
  type: required(validation.typeRequired),
  role: required(validation.roleRequired),
  /** The required documents. */
  forms: z
    .array(required(validation.documentNameRequired), { error: validation.documentNameRequired })
    .min(1, { error: validation.documentNameRequired })
    .max(MAX_DOCUMENTS, { error: `At most ${MAX_DOCUMENTS} documents` }),
  /** Documents worth collecting that never hold a file back; none by default. */
  optionalForms: z
    .array(required(validation.documentNameRequired), { error: validation.documentNameRequired })
    .max(MAX_DOCUMENTS, { error: `At most ${MAX_DOCUMENTS} documents` })
    .default([]),
  /**
   * The key dates a transaction of this template starts with: shown on its page
   * to be filled in, in this order; none by default.
   */
  keyDateKinds: z
    .array(templateKeyDateKind)
    .max(TEMPLATE_KEY_DATE_KINDS.length)
    .refine((kinds) => new Set(kinds).size === kinds.length, { error: 'Each key date kind may appear once' })
    .default([]),
  /**
   * Documents the checklist asks for only while the transaction's facts meet every condition of
   * their `when`; none by default.
   */
  conditionalForms: conditionalForms.default([]),
});

type DocumentLists = {
  forms: string[];
  optionalForms: string[];
  conditionalForms: Array<{ label: string }>;
};

/**
 * A document is on one list only, once: required, optional or conditional (its item would be made
 * twice, or a rule would govern a plain item).
 */
function eachDocumentOnce(input: DocumentLists, ctx: z.RefinementCtx) {
  const seen = new Set(input.forms.map((name) => name.toLowerCase()));
  input.optionalForms.forEach((name, index) => {
    if (seen.has(name.toLowerCase()))
      ctx.addIssue({
        code: 'custom',
        message: complianceMessages.documentInBothLists(name),
        path: ['optionalForms', index],
      });
  });
  for (const name of input.optionalForms) seen.add(name.toLowerCase());
  input.conditionalForms.forEach(({ label }, index) => {
    if (seen.has(label.toLowerCase()))
      ctx.addIssue({
        code: 'custom',
        message: complianceMessages.conditionalDocumentTwice(label),
        path: ['conditionalForms', index, 'label'],
      });
    seen.add(label.toLowerCase());
  });
}

export const templateInput = templateFields.superRefine(eachDocumentOnce);
export type TemplateInput = z.infer<typeof templateInput>;

/**
 * An update that leaves `optionalForms` out keeps the template's optional documents: a client
 * written before they existed must not erase them by changing the required ones.
 */
export const templateUpdateInput = templateFields
  .extend({
    id: idSchema,
    optionalForms: templateFields.shape.optionalForms.unwrap().optional(),
    keyDateKinds: templateFields.shape.keyDateKinds.unwrap().optional(),
    conditionalForms: templateFields.shape.conditionalForms.unwrap().optional(),
  })
  .superRefine((input, ctx) =>
    eachDocumentOnce(
      {
        ...input,
        optionalForms: input.optionalForms ?? [],
        conditionalForms: input.conditionalForms ?? [],
      },
      ctx,
    ),
  );
export type TemplateUpdateInput = z.infer<typeof templateUpdateInput>;
export const templateIdInput = z.object({ id: idSchema });

export const template = z.object({
  _id: idSchema,
  type: z.string(),
  role: z.string(),
  forms: z.array(z.string()),
  optionalForms: z.array(z.string()),
  keyDateKinds: z.array(z.string()),
  conditionalForms: z.array(conditionalFormAnswer),
});
export type Template = z.infer<typeof template>;

export const templatesListInput = pagingInput;
export const templatesListAnswer = z.object({
  data: z.array(template),
  totalPages: z.number().int(),
  totalItems: z.number().int(),
});

export const templatesSearchInput = pagingInput.extend({
  query: z.string().trim().max(MAX_TEXT).default(''),
});
export const templatesSearchAnswer = z.object({
  forms: z.array(template),
  pages: z.number().int(),
  total: z.number().int(),
});

/**
 * A transaction type as it is stored: spaces trimmed and runs of them made one ("Short  Sale " is
 * "Short Sale"). The server stores it so; the template form compares what is typed the same way.
 */
export function normalizeTypeName(type: string): string {
  return type.trim().replace(/\s+/g, ' ');
}
