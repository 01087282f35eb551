import { PDFDocument, type PDFFont, rgb, StandardFonts } from 'pdf-lib';
import { formatCents } from '../../../shared/money';
import type { CdaLine } from '../../../shared/schemas/commission';

/**
 * The one-page Commission Disbursement Authorization a CDA is printed as. Everything on it comes
 * from the CDA as issued (the names and amounts copied then), and its dates from the clock, so
 * the same CDA prints the same words. Amounts are formatted from integer cents (formatCents).
 */

export type CdaPrint = {
  brokerageName: string;
  officeName: string | null;
  agentName: string;
  propertyAddress: string;
  /** The transaction's parties as it holds them: its type and side, and the agent on it. */
  parties: string;
  lines: readonly CdaLine[];
  grossCents: number;
  version: number;
  /** The version this one replaces, when it does. */
  supersedes: number | null;
  issuedAt: Date;
  issuedByName: string;
  overrideReason: string | null;
};

const LINE_LABELS: Record<CdaLine['kind'], string> = {
  referral: 'Referral',
  brokerage: 'Brokerage share',
  agent: 'Agent',
  fee: 'Transaction fee',
};

const PAGE = { width: 612, height: 792, margin: 54 } as const;
const SIZE = { title: 18, text: 10.5, small: 9 } as const;

/**
 * Helvetica (a standard font: nothing to embed) writes WinAnsi characters only; any other
 * character of a name or reason is shown as '?' rather than failing the CDA.
 */
export function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  return [...text.replace(/\s+/g, ' ')].map((c) => (known.has(c.codePointAt(0) ?? 0) ? c : '?')).join('');
}

/** The words of `text` in lines no wider than `width`; a word longer than a line is cut. */
export function wrap(font: PDFFont, size: number, text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    let rest = word;
    while (font.widthOfTextAtSize(rest, size) > width && rest.length > 1) {
      let cut = rest.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(rest.slice(0, cut), size) > width) cut -= 1;
      lines.push(rest.slice(0, cut));
      rest = rest.slice(cut);
    }
    line = rest;
  }
  if (line) lines.push(line);
  return lines;
}

const utc = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;

export async function cdaPdf(print: CdaPrint): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const title = `Commission Disbursement Authorization, version ${print.version}`;
  doc.setTitle(title);
  doc.setAuthor(printable(regular, print.brokerageName));
  doc.setCreator('Brokerage Portal');
  doc.setProducer('Brokerage Portal');
  doc.setCreationDate(print.issuedAt);
  doc.setModificationDate(print.issuedAt);

  const page = doc.addPage([PAGE.width, PAGE.height]);
  const right = PAGE.width - PAGE.margin;
  let y = PAGE.height - PAGE.margin;
  const write = (text: string, options: { font?: PDFFont; size?: number; x?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? SIZE.text;
    const x = options.x ?? PAGE.margin;
    for (const line of wrap(font, size, printable(font, text), right - x)) {
      page.drawText(line, { x, y, size, font });
      y -= size * 1.45;
    }
  };
  const field = (label: string, value: string) => {
    page.drawText(label, { x: PAGE.margin, y, size: SIZE.text, font: bold });
    write(value, { x: PAGE.margin + 130 });
  };
  const amountAt = (text: string, font: PDFFont) =>
    page.drawText(text, { x: right - font.widthOfTextAtSize(text, SIZE.text), y, size: SIZE.text, font });

  write(print.brokerageName, { font: bold, size: SIZE.text + 2 });
  write('Commission Disbursement Authorization', { font: bold, size: SIZE.title });
  y -= 4;
  field(
    'Version',
    print.supersedes === null
      ? `${print.version}`
      : `${print.version} (Supersedes version ${print.supersedes})`,
  );
  field('Issued', `${utc(print.issuedAt)} by ${print.issuedByName}`);
  field('Office', print.officeName ?? 'None');
  field('Agent', print.agentName);
  field('Property', print.propertyAddress);
  field('Parties', print.parties);
  y -= 10;

  page.drawText('Payee', { x: PAGE.margin, y, size: SIZE.text, font: bold });
  page.drawText('For', { x: PAGE.margin + 260, y, size: SIZE.text, font: bold });
  amountAt('Amount', bold);
  y -= 6;
  page.drawLine({ start: { x: PAGE.margin, y }, end: { x: right, y }, thickness: 0.6, color: rgb(0, 0, 0) });
  y -= SIZE.text * 1.4;
  for (const line of print.lines) {
    const payee = wrap(regular, SIZE.text, printable(regular, line.payee), 250)[0] ?? '';
    page.drawText(payee, { x: PAGE.margin, y, size: SIZE.text, font: regular });
    page.drawText(LINE_LABELS[line.kind], { x: PAGE.margin + 260, y, size: SIZE.text, font: regular });
    amountAt(formatCents(line.amountCents), regular);
    y -= SIZE.text * 1.6;
  }
  page.drawLine({ start: { x: PAGE.margin, y: y + 6 }, end: { x: right, y: y + 6 }, thickness: 0.6 });
  y -= 4;
  page.drawText('Gross commission', { x: PAGE.margin, y, size: SIZE.text, font: bold });
  amountAt(formatCents(print.grossCents), bold);
  y -= SIZE.text * 2.4;

  if (print.overrideReason !== null) {
    write('Issued by override of compliance', { font: bold });
    write(`Reason: ${print.overrideReason}`);
    y -= 8;
  }
  write(
    `${print.brokerageName} authorizes the disbursement of the commission above to the payees named, in the amounts shown.`,
    { size: SIZE.small },
  );
  return doc.save({ useObjectStreams: false });
}
