import { formatPageList } from '../../../shared/intake/pages';
import type { PageRange } from '../../../shared/intake/suggestions';
import type { SplitInput } from '../../../shared/schemas/intake';

/**
 * The packet splitter's ranges: consecutive runs of pages covering the whole
 * PDF, each given to a checklist item or left out (`formId` null). pdf.js's proposal is the
 * start; the agent then cuts, merges and reassigns.
 */
export type SplitRange = { first: number; last: number; formId: string | null };

export type SplitAction =
  /** A new document begins at `page` (a no-op on a range's first page). */
  | { type: 'start'; page: number }
  /** The range at `index` joins the one before it, taking that one's item. */
  | { type: 'merge'; index: number }
  | { type: 'assign'; index: number; formId: string | null };

export function rangesFromProposal(proposal: readonly PageRange[]): SplitRange[] {
  return proposal.map(({ first, last, formId }) => ({ first, last, formId }));
}

export function splitReducer(ranges: SplitRange[], action: SplitAction): SplitRange[] {
  switch (action.type) {
    case 'start':
      return ranges.flatMap((range) =>
        action.page > range.first && action.page <= range.last
          ? [
              { ...range, last: action.page - 1 },
              // Nothing is assumed about the new document: the agent names it.
              { first: action.page, last: range.last, formId: null },
            ]
          : [range],
      );
    case 'merge': {
      const previous = ranges[action.index - 1];
      const merged = ranges[action.index];
      if (!previous || !merged) return ranges;
      return ranges.flatMap((range, index) => {
        if (index === action.index - 1) return [{ ...previous, last: merged.last }];
        return index === action.index ? [] : [range];
      });
    }
    case 'assign':
      return ranges.map((range, index) =>
        index === action.index ? { ...range, formId: action.formId } : range,
      );
  }
}

export function pagesOf(range: SplitRange): number[] {
  return Array.from({ length: range.last - range.first + 1 }, (_, offset) => range.first + offset);
}

/**
 * What `transactions.split` is sent: one part per item, in the order of its first page. Ranges
 * given to one item are one document (a signature page filed after an addendum, say): the server
 * refuses two parts for one item.
 */
export function splitParts(ranges: readonly SplitRange[]): SplitInput['parts'] {
  const pagesByItem = new Map<string, number[]>();
  for (const range of ranges) {
    if (range.formId === null) continue;
    pagesByItem.set(range.formId, [...(pagesByItem.get(range.formId) ?? []), ...pagesOf(range)]);
  }
  return [...pagesByItem].map(([formId, pages]) => ({ formId, pages: formatPageList(pages) }));
}
