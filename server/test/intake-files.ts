import { deflateSync } from 'node:zlib';
import { PDFDocument as EncryptingPdfDocument } from '@cantoo/pdf-lib';
import { PDFDocument, PDFName, PDFString, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { pdfOfObjects } from '../storage/sample-pdf';

/**
 * Real files for the intake tests, made here: PDFs written with pdf-lib (text pages,
 * blank pages, signature fields signed or not, an encrypted one with @cantoo/pdf-lib's real
 * encryption, a decompression bomb) and photos made with sharp (EXIF orientations, a truncated
 * JPEG).
 */

export type PageSpec =
  /** A page with these lines of text from the top (the first one is its title). */
  | { text: string[] }
  | { blank: true }
  /** A page painted by one JPEG (a scan): white paper, or paper with a line of print. */
  | { scan: 'empty' | 'printed' };

export type SignatureSpec = { page: number; signed: boolean };

export async function pdfOf(pages: PageSpec[], signatures: SignatureSpec[] = []): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const spec of pages) {
    const page = doc.addPage([612, 792]);
    if ('text' in spec) {
      spec.text.forEach((line, index) => {
        page.drawText(line, { x: 54, y: 730 - index * 18, size: index === 0 ? 16 : 10, font });
      });
    } else if ('scan' in spec) {
      const image = await doc.embedJpg(await scanJpeg(spec.scan));
      page.drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    }
  }
  if (signatures.length > 0) {
    const form = doc.getForm();
    signatures.forEach((signature, index) => {
      const page = doc.getPage(signature.page - 1);
      const field = doc.context.obj({
        FT: 'Sig',
        T: PDFString.of(`Signature${index + 1}`),
        Type: 'Annot',
        Subtype: 'Widget',
        Rect: [54, 60 + index * 40, 254, 90 + index * 40],
        P: page.ref,
        F: 4,
      });
      // A signed field's value is a signature dictionary (its bytes are not checked here).
      if (signature.signed)
        field.set(
          PDFName.of('V'),
          doc.context.register(
            doc.context.obj({ Type: 'Sig', Filter: 'Adobe.PPKLite', SubFilter: 'adbe.pkcs7.detached' }),
          ),
        );
      const ref = doc.context.register(field);
      page.node.addAnnot(ref);
      form.acroForm.addField(ref);
    });
  }
  return Buffer.from(await doc.save());
}

/** A Letter-sized grey scan at 100 dpi: empty paper with some noise, or with one line of print. */
export async function scanJpeg(kind: 'empty' | 'printed'): Promise<Buffer> {
  const width = 850;
  const height = 1100;
  const pixels = Buffer.alloc(width * height, 0);
  let seed = 7;
  for (let i = 0; i < pixels.length; i += 1) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = 236 + (seed % 12); // paper texture
  }
  if (kind === 'printed') {
    for (let y = 100; y < 114; y += 1)
      for (let x = 80; x < 700; x += 1) if ((x >> 3) % 2 === 0) pixels[y * width + x] = 30;
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/** An encrypted PDF (RC4/AES by @cantoo/pdf-lib, a user password): readable by nobody without it. */
export async function encryptedPdf(): Promise<Buffer> {
  const doc = await EncryptingPdfDocument.create();
  doc.addPage().drawText('Residential Purchase Agreement', { x: 54, y: 720 });
  await doc.encrypt({ userPassword: 'buyer', ownerPassword: 'broker', permissions: {} });
  return Buffer.from(await doc.save());
}

/**
 * A decompression bomb: a one-page PDF whose content stream is 40 kB of deflate that inflates to
 * 64 MiB of spaces (a real bomb would go on to gigabytes; past the limit it makes no difference).
 */
export function bombPdf(): Buffer {
  const inflated = Buffer.alloc(64 * 1024 * 1024, 0x20);
  const stream = deflateSync(inflated, { level: 9 });
  return pdfOfObjects([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    [`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`, stream, '\nendstream'],
  ]);
}

/**
 * A photo of a page: `width` x `height` pixels as stored, white with a dark bar along its top
 * edge as the camera held it, and an EXIF orientation telling viewers how to turn it upright.
 */
export async function photoJpeg(
  options: { width?: number; height?: number; orientation?: number; quality?: number } = {},
): Promise<Buffer> {
  const { width = 1200, height = 1600, orientation = 1, quality = 90 } = options;
  const bar = await sharp({
    create: { width, height: Math.round(height / 10), channels: 3, background: '#202020' },
  })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#fafafa' } })
    .composite([{ input: bar, top: 0, left: 0 }])
    .jpeg({ quality })
    .withMetadata({ orientation })
    .toBuffer();
}

/** The first `keep` bytes of a JPEG: a photo whose upload was cut short. */
export const truncated = (bytes: Buffer, keep = Math.floor(bytes.length / 2)) => bytes.subarray(0, keep);
