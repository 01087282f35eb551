/** Paging and search helpers shared by every list. */

/** 0 for an empty list; a page beyond the last answers an empty page with the true totals. */
export function pageCount(total: number, limit: number): number {
  return Math.ceil(total / limit);
}

/** A search term matches literally: %, _ and \ are not wildcards for our users. */
export function escapeLike(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}
