import { blankPagesMessage, unsignedFieldsMessage } from '../../../shared/intake/pages';
import { rankChecklist } from '../../../shared/intake/suggestions';
import { intakeMessages } from '../../../shared/messages';
import type { IntakeSuggestion, UploadWarning } from '../../../shared/schemas/intake';
import { firstPagesText } from '../../documents/text';
import { AppError } from '../../errors';
import type { ServiceContext } from '../context';

/**
 * Document intake: the pre-checks of every uploaded PDF, the checklist
 * suggestions of a transaction's upload, photos made into one PDF, and a packet cut into its
 * documents. The PDF and image work itself is in server/documents/ (no caller, bytes in and out);
 * the rules (who, what is refused, what is kept) are here.
 */

export const PDF_TYPE = 'application/pdf';

/** What the pre-checks found, kept with the stored file; `text` only feeds the suggestions. */
export type PreChecked = { pages: number | null; warnings: UploadWarning[]; text: string[] };

/**
 * The pre-checks of a PDF's bytes: AppError 400 for an encrypted or hostile one. `withText`
 * reads the first pages' text for the suggestions (a packet's parts need none).
 */
export async function preCheckPdf(bytes: Buffer, { withText = true } = {}): Promise<PreChecked> {
  // pdf-lib (and sharp, for scans) load with the first PDF, not at start: see documents/.
  const { inspectPdf } = await import('../../documents/pdf');
  const facts = await inspectPdf(bytes);
  if (facts.kind === 'encrypted') throw new AppError('BAD_REQUEST', intakeMessages.encryptedPdf);
  if (facts.kind === 'hostile') throw new AppError('BAD_REQUEST', intakeMessages.hostilePdf);
  // A file only its first bytes call PDF is kept as any other file: its reviewer will see.
  if (facts.kind === 'unreadable') return { pages: null, warnings: [], text: [] };
  return {
    pages: facts.pages,
    warnings: warningsOf(facts),
    text: withText ? await firstPagesText(bytes) : [],
  };
}

/** The warnings of a readable PDF's facts: unsigned signature fields, blank pages. */
export function warningsOf(facts: {
  unsignedSignatureFields: number;
  blankPages: number[];
}): UploadWarning[] {
  const warnings: UploadWarning[] = [];
  if (facts.unsignedSignatureFields > 0)
    warnings.push({
      code: 'empty-signature-fields',
      message: unsignedFieldsMessage(facts.unsignedSignatureFields),
    });
  if (facts.blankPages.length > 0)
    warnings.push({
      code: 'blank-pages',
      message: blankPagesMessage(facts.blankPages),
      pages: facts.blankPages,
    });
  return warnings;
}

/** The blank pages a stored file's warnings name (none for files checked before they were kept). */
export function blankPagesOf(warnings: readonly UploadWarning[]): number[] {
  return warnings.find((warning) => warning.code === 'blank-pages')?.pages ?? [];
}

/** The transaction's checklist items the text most likely is, best first. */
export async function suggestItems(
  ctx: ServiceContext,
  transactionId: string,
  pageTexts: readonly string[],
): Promise<IntakeSuggestion[]> {
  const text = pageTexts.join('\n');
  if (!text.trim()) return [];
  const items = await ctx.db.transactionForm.findMany({
    where: { transactionId },
    select: { id: true, label: true },
    orderBy: { position: 'asc' },
  });
  return rankChecklist(
    text,
    items.map((item) => ({ formId: item.id, label: item.label })),
  ).map(({ formId, label, score }) => ({ formId, label, score }));
}
