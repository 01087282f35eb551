import { PDFDocument } from 'pdf-lib';
import type SharpModule from 'sharp';
import { MAX_IMAGE_SIDE_PX } from '../../shared/schemas/intake';

/**
 * Photographed pages: each image upright (EXIF orientation applied), its longest
 * side at most MAX_IMAGE_SIDE_PX, re-encoded as a JPEG, and all of them one PDF, a page each.
 */

type SharpFactory = typeof SharpModule;
let loadingSharp: Promise<SharpFactory> | undefined;

/**
 * sharp (libvips, a native library) is loaded by the first photo or scan, not at start: a server
 * that never sees one does not pay its start-up time and memory. Its operation cache keeps
 * decoded images for reuse a server never makes: off, so memory goes back once a conversion ends.
 */
function loadSharp(): Promise<SharpFactory> {
  loadingSharp ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return loadingSharp;
}

/**
 * JPEG quality of a page. At 2,000 px on the long side a Letter page is about 180 dpi; at 80,
 * 8-point type keeps clean edges (mozjpeg's quantization) and a photographed page weighs 200 to
 * 500 kB. Lower qualities blur the serifs of small print first.
 */
const PAGE_JPEG_QUALITY = 80;
/** A decoded image may hold at most this many pixels (a 100 MP phone photo passes; a bomb does not). */
const MAX_INPUT_PIXELS = 120_000_000;
/** Letter, in PDF points: each photo is fitted onto it, turned to landscape when it is wider. */
const LETTER = { width: 612, height: 792 };

export class UnreadableImage extends Error {}

export type PageImage = { jpeg: Buffer; width: number; height: number };

/** One photo as a page image; UnreadableImage when sharp cannot decode it whole (truncated, say). */
export async function pageImageOf(bytes: Buffer): Promise<PageImage> {
  const sharp = await loadSharp();
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' })
      .rotate()
      .resize(MAX_IMAGE_SIDE_PX, MAX_IMAGE_SIDE_PX, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: PAGE_JPEG_QUALITY, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { jpeg: data, width: info.width, height: info.height };
  } catch {
    throw new UnreadableImage();
  }
}

/** The page images, in order, as one PDF: each on a Letter page, as large as fits, centred. */
export async function pdfOfPageImages(images: readonly PageImage[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const image of images) {
    const embedded = await doc.embedJpg(image.jpeg);
    const landscape = image.width > image.height;
    const page = doc.addPage(landscape ? [LETTER.height, LETTER.width] : [LETTER.width, LETTER.height]);
    const scale = Math.min(page.getWidth() / image.width, page.getHeight() / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    page.drawImage(embedded, {
      x: (page.getWidth() - width) / 2,
      y: (page.getHeight() - height) / 2,
      width,
      height,
    });
  }
  return doc.save();
}

/** Ink is a pixel this much darker than the sheet's mean brightness. */
const INK_CONTRAST = 60;
/** A sheet with less ink than this share of its pixels is empty (a signature alone is ~0.1%). */
const BLANK_INK_SHARE = 0.0002;
/** Darker than this on average, an image is a photo or a dark scan, not an empty sheet. */
const SHEET_BRIGHTNESS = 190;

/**
 * An image of an empty sheet: light on average, and (at 600 px, grey) almost no pixel much darker
 * than that average. Shadows and paper texture stay under INK_CONTRAST; a line of print does not.
 */
export async function looksBlank(encoded: Buffer): Promise<boolean> {
  const sharp = await loadSharp();
  const { data } = await sharp(encoded, { limitInputPixels: MAX_INPUT_PIXELS })
    .greyscale()
    .resize(600, 600, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (data.length === 0) return false;
  let sum = 0;
  for (const value of data) sum += value;
  const mean = sum / data.length;
  if (mean < SHEET_BRIGHTNESS) return false;
  let ink = 0;
  for (const value of data) if (value < mean - INK_CONTRAST) ink += 1;
  return ink / data.length < BLANK_INK_SHARE;
}
