import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blankPagesMessage, formatPageList, parsePageList, unsignedFieldsMessage } from './pages';

describe('page lists of the packet split', () => {
  it('reads ranges and single pages in the order written', () => {
    expect(parsePageList('1-3,5', 6)).toEqual({ pages: [1, 2, 3, 5] });
    expect(parsePageList(' 4 , 2-2 ', 6)).toEqual({ pages: [4, 2] });
  });

  it('names what is wrong: a reversed range, page 0, a page past the end, a word', () => {
    expect(parsePageList('3-1', 6)).toEqual({ error: '3-1 is not a range of pages' });
    expect(parsePageList('0', 6)).toEqual({ error: '0 is not a range of pages' });
    expect(parsePageList('2-9', 6)).toEqual({ error: 'Page 9 is out of range: the document has 6 pages' });
    expect(parsePageList('2', 1)).toEqual({ error: 'Page 2 is out of range: the document has 1 page' });
    expect(parsePageList('one', 6)).toEqual({ error: '"one" is not a page or a range like 1-3' });
  });

  it('formats any ascending set of pages so that reading it back gives the same pages', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 60 }), (set) => {
        const pages = [...set].sort((a, b) => a - b);
        const text = formatPageList(pages);
        expect(parsePageList(text, 60)).toEqual({ pages });
        // The shortest form: no range of one page written as "n-n", no two ranges that touch.
        expect(text).not.toMatch(/\b(\d+)-\1\b/);
      }),
    );
    expect(formatPageList([1, 2, 3, 5, 7, 8])).toBe('1-3,5,7-8');
  });

  it('says one finding in the singular and several in the plural', () => {
    expect(blankPagesMessage([3])).toBe('Page 3 looks blank');
    expect(blankPagesMessage([3, 7])).toBe('Pages 3, 7 look blank');
    expect(unsignedFieldsMessage(1)).toBe('1 signature field is not signed');
    expect(unsignedFieldsMessage(4)).toBe('4 signature fields are not signed');
  });
});
