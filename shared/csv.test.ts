import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell as serverCsvCell } from '../server/services/exports';
import { csvCell, csvText } from './csv';

describe('csvCell', () => {
  it('leaves plain text and numbers as they are', () => {
    expect(csvCell('Purchase Agreement')).toBe('Purchase Agreement');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(0.25)).toBe('0.25');
    expect(csvCell(true)).toBe('true');
  });

  it('writes null and undefined as an empty cell', () => {
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes a comma, a quote or a line break, doubling quotes (RFC 4180)', () => {
    expect(csvCell('Austin, TX')).toBe('"Austin, TX"');
    expect(csvCell('the "final" copy')).toBe('"the ""final"" copy"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('defuses a cell a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x")')).toBe('"\'=HYPERLINK(""http://x"")"');
    expect(csvCell('+1 555')).toBe("'+1 555");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe('"\'\rx"');
    // Only the first character counts.
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('writes every cell exactly as the server exports do', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.integer(), fc.double(), fc.boolean(), fc.constant(null)),
        (value) => {
          expect(csvCell(value)).toBe(serverCsvCell(value));
        },
      ),
    );
    for (const text of ['=1+1', '+', '-', '@', '\t', '\r', '"', ',', '\n', '', ' =x'])
      expect(csvCell(text)).toBe(serverCsvCell(text));
  });
});

describe('csvText', () => {
  it('writes a header row, then the rows, each record ending in CRLF', () => {
    expect(
      csvText(
        ['Reviewer', 'Reviewed', 'Median'],
        [
          ['Rita Reviewer', 12, '2 d 4 h'],
          ['=cmd', 0, null],
        ],
      ),
    ).toBe("Reviewer,Reviewed,Median\r\nRita Reviewer,12,2 d 4 h\r\n'=cmd,0,\r\n");
  });

  it('writes only the header when there are no rows', () => {
    expect(csvText(['A', 'B'], [])).toBe('A,B\r\n');
  });
});
