import { type PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';
import { printable, wrap } from '../commission/cda-pdf';
import type { CertificateFacts } from './types';

/**
 * The certificate of completion appended to a signed document: what was signed (its SHA-256
 * before anything was drawn on it), by whom, from where and when. Times are UTC, with the local
 * time beside them when a time zone is given. More signers than a page holds continue on a next.
 */

const PAGE = { width: 612, height: 792, margin: 54 } as const;
const SIZE = { title: 18, heading: 12, text: 10 } as const;

const utc = (date: Date) => `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;

function timeOf(date: Date | null, timeZone: string | undefined): string {
  if (!date) return 'Not recorded';
  if (!timeZone) return utc(date);
  try {
    const local = new Intl.DateTimeFormat('en-US', {
      timeZone,
      dateStyle: 'medium',
      timeStyle: 'long',
    }).format(date);
    return `${utc(date)} (${local})`;
  } catch {
    // An unknown zone name: UTC alone is still the whole fact.
    return utc(date);
  }
}

export async function appendCertificatePage(doc: PDFDocument, facts: CertificateFacts): Promise<PDFPage> {
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const right = PAGE.width - PAGE.margin;
  let page = doc.addPage([PAGE.width, PAGE.height]);
  const first = page;
  let y = PAGE.height - PAGE.margin;
  const room = (needed: number) => {
    if (y - needed >= PAGE.margin) return;
    page = doc.addPage([PAGE.width, PAGE.height]);
    y = PAGE.height - PAGE.margin;
  };
  const write = (text: string, options: { font?: PDFFont; size?: number; x?: number } = {}) => {
    const font = options.font ?? regular;
    const size = options.size ?? SIZE.text;
    const x = options.x ?? PAGE.margin;
    for (const line of wrap(font, size, printable(font, text), right - x)) {
      room(size * 1.45);
      page.drawText(line, { x, y, size, font });
      y -= size * 1.45;
    }
  };
  const field = (label: string, value: string) => {
    room(SIZE.text * 1.45);
    page.drawText(label, { x: PAGE.margin, y, size: SIZE.text, font: bold });
    write(value, { x: PAGE.margin + 110 });
  };

  write('Certificate of completion', { font: bold, size: SIZE.title });
  y -= 6;
  field('Document', facts.subject);
  field('SHA-256', facts.documentSha256);
  field('Completed', timeOf(facts.completedAt, facts.timeZone));
  write(
    'The SHA-256 is that of the document as sent for signature, before the signers\u2019 entries were added to it.',
    { size: SIZE.text - 1 },
  );
  for (const [index, signer] of facts.signers.entries()) {
    // A signer's block is kept on one page where it fits (about ten lines).
    room(SIZE.text * 1.45 * 10);
    y -= 8;
    page.drawLine({
      start: { x: PAGE.margin, y: y + 8 },
      end: { x: right, y: y + 8 },
      thickness: 0.5,
      color: rgb(0.6, 0.6, 0.6),
    });
    write(`Signer ${index + 1}: ${signer.name}`, { font: bold, size: SIZE.heading });
    field('E-mail', signer.email);
    field('IP address', signer.ip);
    field('User agent', signer.userAgent);
    field('Viewed', timeOf(signer.viewedAt, facts.timeZone));
    field('Signed', timeOf(signer.signedAt, facts.timeZone));
  }
  return first;
}
