import { describe, expect, it } from 'vitest';
import { pdfOfObjects } from '../storage/sample-pdf';
import { bombPdf, encryptedPdf, pdfOf } from '../test/intake-files';
import { inspectPdf, objectsEndToEnd } from './pdf';

const handMadePdf = pdfOfObjects;

const page = (contents: string, extra = '') =>
  `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${contents} ${extra} >>`;
const stream = (text: string, dict = '') =>
  `<< /Length ${text.length} ${dict} >>\nstream\n${text}\nendstream`;

describe('inspectPdf', () => {
  it('reads the facts of a PDF made by pdf-lib', async () => {
    const facts = await inspectPdf(
      await pdfOf(
        [{ text: ['A'] }, { blank: true }, { scan: 'empty' }, { scan: 'printed' }],
        [{ page: 1, signed: false }],
      ),
    );
    expect(facts).toEqual({ kind: 'pdf', pages: 4, unsignedSignatureFields: 1, blankPages: [2, 3] });
  });

  it('tells encrypted, hostile and unreadable files apart', async () => {
    expect(await inspectPdf(await encryptedPdf())).toEqual({ kind: 'encrypted' });
    expect(await inspectPdf(bombPdf())).toEqual({ kind: 'hostile' });
    expect(await inspectPdf(Buffer.from('%PDF-1.4\n%%EOF\n'))).toEqual({ kind: 'unreadable' });
  });

  it('counts as blank only a page that paints nothing: state changes and a link do not paint', async () => {
    const facts = await inspectPdf(
      handMadePdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R 5 0 R 7 0 R] /Count 3 >>',
        page('4 0 R', '/Annots [<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] >>]'),
        stream('q 1 0 0 1 0 0 cm 0.5 g Q % a comment (Tj)'),
        page('6 0 R'),
        stream('BT /F1 12 Tf (Hello) Tj ET'),
        page('8 0 R'),
        // A filter this check does not decode: counted as not blank rather than guessed.
        stream('x', '/Filter /LZWDecode'),
      ]),
    );
    expect(facts).toMatchObject({ kind: 'pdf', pages: 3, blankPages: [1] });
  });

  it('survives a page tree that contains itself', async () => {
    const facts = await inspectPdf(
      handMadePdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R] /Count 1 >>']),
    );
    expect(['hostile', 'unreadable']).toContain(facts.kind);
  });

  it('survives a field tree that contains itself', async () => {
    const facts = await inspectPdf(
      handMadePdf([
        '<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields [4 0 R] >> >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        page('5 0 R'),
        '<< /T (Parent) /FT /Sig /Kids [4 0 R 6 0 R] >>',
        stream('BT (x) Tj ET'),
        '<< /T (Child) /Parent 4 0 R /Kids [4 0 R] >>',
      ]),
    );
    // Each field is visited once: the walk ends, and the page count stands.
    expect(facts).toMatchObject({ kind: 'pdf', pages: 1 });
  });
});

describe('objectsEndToEnd', () => {
  it('passes real PDFs and refuses bytes that are mostly no object, quickly', async () => {
    expect(objectsEndToEnd(await pdfOf([{ text: ['A'] }, { scan: 'printed' }]))).toBe(true);
    expect(objectsEndToEnd(bombPdf())).toBe(true);
    const junk = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(7 * 1024 * 1024, 0x5a)]);
    expect(objectsEndToEnd(junk)).toBe(false);
    // pdf-lib spent 167 s on these bytes (past this test's time limit); the screen reads them once.
    expect(await inspectPdf(junk)).toEqual({ kind: 'unreadable' });
    // A real PDF with a megabyte of junk wedged between two objects is no PDF to parse either.
    const real = (await pdfOf([{ text: ['A'] }])).toString('latin1');
    const cut = real.indexOf('2 0 obj');
    const wedged = Buffer.from(`${real.slice(0, cut)}${'Z'.repeat(1 << 20)}\n${real.slice(cut)}`, 'latin1');
    expect(objectsEndToEnd(wedged)).toBe(false);
  });
});
