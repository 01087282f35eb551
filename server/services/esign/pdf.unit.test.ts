import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { esignPdfMessages } from '../../../shared/esign-messages';
import { apiMessages } from '../../../shared/messages';
import { AppError } from '../../errors';
import { encryptedPdf } from '../../test/intake-files';
import { pageText, poppler } from '../../test/poppler';
import { loadSigningIdentity, type SigningIdentity } from './identity';
import { type CertificateFacts, type PlacedValue, pageCountOf, signedDocument } from './pdf';

let dataDir: string;
let identity: SigningIdentity;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'esign-pdf-'));
  identity = await loadSigningIdentity({ dataDir, brokerageName: 'Harbor Realty' });
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function documentOf(pages: number, options: { rotate?: number } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let number = 1; number <= pages; number += 1) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Purchase agreement page ${number}`, { x: 54, y: 720, size: 12 });
    if (options.rotate) page.setRotation(degrees(options.rotate));
  }
  return doc.save();
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function factsOf(pdf: Uint8Array): CertificateFacts {
  return {
    subject: '1200 Harbor Lane: purchase agreement',
    documentSha256: sha256(pdf),
    completedAt: new Date('2026-12-03T15:04:05Z'),
    signers: [
      {
        name: 'Dana Buyer',
        email: 'dana.buyer@example.com',
        ip: '203.0.113.9',
        userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) Safari/604.1',
        viewedAt: new Date('2026-12-03T14:58:00Z'),
        signedAt: new Date('2026-12-03T15:01:30Z'),
      },
      {
        name: 'Sam Seller',
        email: 'sam.seller@example.org',
        ip: '2001:db8::42',
        userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0',
        viewedAt: null,
        signedAt: new Date('2026-12-03T15:04:05Z'),
      },
    ],
  };
}

const typed = (page: number, value: string, box: Partial<PlacedValue> = {}): PlacedValue => ({
  page,
  kind: 'signature',
  x: 100,
  y: 300,
  width: 220,
  height: 36,
  value,
  ...box,
});

async function pngDataUrl(width: number, height: number): Promise<string> {
  const png = await sharp({
    create: { width, height, channels: 4, background: { r: 0, g: 0, b: 80, alpha: 1 } },
  })
    .png()
    .toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('signedDocument', () => {
  test('pdfsig finds a valid signature over the whole file; one byte changed, it is no longer valid', async () => {
    const original = await documentOf(2);
    const signed = await signedDocument({
      pdf: original,
      values: [typed(1, 'Dana Buyer')],
      certificate: factsOf(original),
      identity,
    });
    const report = await poppler('pdfsig', signed);
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Total document signed');
    expect(report).toContain('adbe.pkcs7.detached');
    expect(report).toContain('Harbor Realty e-signature');

    // A byte of the header's comment line: the file still parses, so only the digest can tell.
    const tampered = Uint8Array.from(signed);
    const at = Buffer.from(tampered).indexOf('%', 1);
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(Number(/Signed Ranges: \[0 - (\d+)\]/.exec(report)?.[1]));
    tampered[at + 1] = (tampered[at + 1] ?? 0) ^ 0x01;
    const tamperedReport = await poppler('pdfsig', tampered);
    expect(tamperedReport).toContain('Signature #1');
    expect(tamperedReport).not.toContain('Signature is Valid');
  });

  test('a certificate page is appended with the subject, the sha256 and every signer', async () => {
    const original = await documentOf(3);
    const facts = factsOf(original);
    const signed = await signedDocument({ pdf: original, values: [], certificate: facts, identity });
    expect(await pageCountOf(signed)).toBe(4);
    const text = (await pageText(signed, 4)).replace(/[ \t]+/g, ' ');
    expect(text).toContain('Certificate of completion');
    expect(text).toContain(facts.subject);
    expect(text).toContain(facts.documentSha256);
    for (const signer of facts.signers) {
      for (const fact of [signer.name, signer.email, signer.ip]) expect(text).toContain(fact);
    }
    expect(text).toContain('2026-12-03 14:58:00 UTC');
    expect(text).toContain('2026-12-03 15:04:05 UTC');
    expect(text).toContain('Not recorded');
    expect(text).toContain('Firefox/133.0');
  });

  test('with a time zone, each time is also shown in it, beside UTC', async () => {
    const original = await documentOf(1);
    const certificate = { ...factsOf(original), timeZone: 'America/Chicago' };
    const signed = await signedDocument({ pdf: original, values: [], certificate, identity });
    const text = (await pageText(signed, 2)).replace(/\s+/g, ' ');
    expect(text).toContain('2026-12-03 15:01:30 UTC (Dec 3, 2026, 9:01:30 AM CST)');
  });

  test('a typed name lands on its page only; a drawn signature is an image on its page', async () => {
    const original = await documentOf(3);
    const signed = await signedDocument({
      pdf: original,
      values: [
        typed(2, 'Dana Q. Buyer'),
        { ...typed(3, await pngDataUrl(300, 100)), kind: 'initials' },
        { ...typed(1, 'December 3, 2026'), kind: 'date' },
      ],
      certificate: factsOf(original),
      identity,
    });
    expect(await pageText(signed, 2)).toContain('Dana Q. Buyer');
    expect(await pageText(signed, 1)).not.toContain('Dana Q. Buyer');
    expect(await pageText(signed, 3)).not.toContain('Dana Q. Buyer');
    expect(await pageText(signed, 1)).toContain('December 3, 2026');
    const images = await poppler('pdfimages', signed, ['-list']);
    const rows = images
      .split('\n')
      .slice(2)
      .filter((row) => row.trim() !== '');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.trim().split(/\s+/).slice(0, 5)).toEqual(['3', '0', 'image', '300', '100']);
  });

  test('a box is placed where the signer saw it, also on a rotated page', async () => {
    for (const rotate of [0, 90, 180, 270]) {
      const original = await documentOf(1, { rotate });
      const signed = await signedDocument({
        pdf: original,
        values: [{ ...typed(1, 'Placed'), kind: 'text', x: 120, y: 200, width: 200, height: 30 }],
        certificate: factsOf(original),
        identity,
      });
      const html = await poppler('pdftotext', signed, ['-f', '1', '-l', '1', '-bbox']);
      const word =
        /<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">Placed<\/word>/.exec(html);
      expect(word, `rotation ${rotate}`).not.toBeNull();
      const [xMin, yMin, , yMax] = (word ?? []).slice(1).map(Number) as [number, number, number, number];
      // The text starts at the box's left edge and sits inside its height, as displayed.
      expect(xMin, `rotation ${rotate}`).toBeCloseTo(120, -1);
      expect(yMin, `rotation ${rotate}`).toBeGreaterThanOrEqual(199);
      expect(yMax, `rotation ${rotate}`).toBeLessThanOrEqual(231);
    }
  });

  test('a form with fields of its own, one named as signpdf names its field, signs under another name', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([612, 792]);
    for (const name of ['Signature1', 'Completion signature'])
      doc.getForm().createTextField(name).addToPage(page, { x: 54, y: 54, width: 120, height: 20 });
    const original = await doc.save();
    const signed = await signedDocument({
      pdf: original,
      values: [],
      certificate: factsOf(original),
      identity,
    });
    const report = await poppler('pdfsig', signed);
    expect(report).toContain('Signature Field Name: Completion signature 2');
    expect(report).toContain('Signature is Valid');
    expect(report).toContain('Total document signed');
  });

  test('a field off the document, a box of no size, or an image that is no PNG, is a 400', async () => {
    const original = await documentOf(2);
    const certificate = factsOf(original);
    await expect(
      signedDocument({ pdf: original, values: [typed(3, 'Dana')], certificate, identity }),
    ).rejects.toEqual(new AppError('BAD_REQUEST', esignPdfMessages.fieldOffPage(3, 2)));
    await expect(
      signedDocument({
        pdf: original,
        values: [typed(1, 'data:image/png;base64,AAAA')],
        certificate,
        identity,
      }),
    ).rejects.toEqual(new AppError('BAD_REQUEST', esignPdfMessages.unreadableImage));
    for (const box of [{ width: 0 }, { height: -5 }, { x: Number.NaN }, { y: Number.POSITIVE_INFINITY }]) {
      await expect(
        signedDocument({ pdf: original, values: [typed(1, 'Dana', box)], certificate, identity }),
      ).rejects.toEqual(new AppError('BAD_REQUEST', apiMessages.invalidInput));
    }
  });
});

describe('pageCountOf', () => {
  test('counts the pages of a PDF', async () => {
    expect(await pageCountOf(await documentOf(3))).toBe(3);
  });

  test('an encrypted, a damaged or a non-PDF input is a 400 with its message', async () => {
    const expectBadRequest = async (bytes: Uint8Array, message: string) => {
      const error = await pageCountOf(bytes).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'BAD_REQUEST', message });
    };
    await expectBadRequest(await encryptedPdf(), esignPdfMessages.encryptedPdf);
    await expectBadRequest(Buffer.from('GIF89a this is no PDF at all'), esignPdfMessages.unreadablePdf);
    const whole = await documentOf(2);
    await expectBadRequest(whole.subarray(0, 40), esignPdfMessages.unreadablePdf);
    await expectBadRequest(new Uint8Array(0), esignPdfMessages.unreadablePdf);
  });
});
