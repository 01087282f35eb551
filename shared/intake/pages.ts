/**
 * Page lists of the packet split: "1-3,5" means pages 1, 2, 3 and 5. Shared, so
 * the splitter shows the same ranges the server will cut.
 */

/** The pages of `text` in the order written, or a message saying what is wrong with them. */
export function parsePageList(text: string, pageCount: number): { pages: number[] } | { error: string } {
  const pages: number[] = [];
  for (const piece of text.split(',')) {
    const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(piece);
    if (!match) return { error: `"${piece.trim()}" is not a page or a range like 1-3` };
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    if (first < 1 || last < first) return { error: `${piece.trim()} is not a range of pages` };
    if (last > pageCount)
      return {
        error: `Page ${last} is out of range: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`,
      };
    for (let page = first; page <= last; page += 1) pages.push(page);
  }
  return { pages };
}

/** [1, 2, 3, 5] -> "1-3,5": the shortest text for pages in ascending order. */
export function formatPageList(pages: readonly number[]): string {
  const ranges: string[] = [];
  let start = pages[0];
  let previous = start;
  for (const page of [...pages.slice(1), Number.NaN]) {
    if (start === undefined || previous === undefined) break;
    if (page === previous + 1) {
      previous = page;
      continue;
    }
    ranges.push(start === previous ? `${start}` : `${start}-${previous}`);
    start = page;
    previous = page;
  }
  return ranges.join(',');
}

/** "Pages 3, 7 look blank" / "Page 3 looks blank" (docs/API.md quotes the plural). */
export function blankPagesMessage(pages: readonly number[]): string {
  return pages.length === 1 ? `Page ${pages[0]} looks blank` : `Pages ${pages.join(', ')} look blank`;
}

/** "2 signature fields are not signed" / "1 signature field is not signed". */
export function unsignedFieldsMessage(count: number): string {
  return count === 1 ? '1 signature field is not signed' : `${count} signature fields are not signed`;
}
