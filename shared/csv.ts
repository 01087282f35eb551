/**
 * CSV built in the browser from rows already on screen (the dashboard's tables), written as the
 * server's exports write theirs (server/services/exports.ts): RFC 4180 records ending in CRLF, a
 * header row first, and the same CSV-injection rule, so a file from either opens alike in a
 * spreadsheet. Here, not in client/, so a test can hold it to the server's rule cell for cell.
 */

export type CsvCell = string | number | boolean | null | undefined;

/** A cell a spreadsheet would read as a formula: it starts with = + - @, a tab or a CR. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One cell: an empty one for null; a formula-like one prefixed with `'` (OWASP's CSV injection
 * advice, whatever its column, as the server does); quoted when it holds a comma, a quote or a
 * line break, quotes doubled.
 */
export function csvCell(value: CsvCell): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The whole file: the header row, then one record per row, each with its CRLF. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  return [header, ...rows].map((cells) => `${cells.map(csvCell).join(',')}\r\n`).join('');
}
