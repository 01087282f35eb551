import { degrees, type PDFDocument, type PDFFont, type PDFImage, type PDFPage, StandardFonts } from 'pdf-lib';
import { esignPdfMessages } from '../../../shared/esign-messages';
import { apiMessages } from '../../../shared/messages';
import { AppError } from '../../errors';
import { printable, wrap } from '../commission/cda-pdf';
import type { PlacedValue } from './types';

/**
 * The signers' values drawn into the pages. A field's box is given as the signer saw the page
 * (points from its top-left corner, after the page's /Rotate and within its crop box), so each
 * box is turned into the page's own coordinates and its content drawn turned the same way.
 */

type Point = { x: number; y: number };

/** Where a box's bottom-left corner lands, and which way its right and up point, on the page. */
type Frame = { origin: Point; right: Point; up: Point; angle: number };

function frameOf(page: PDFPage, field: PlacedValue): Frame {
  const crop = page.getCropBox();
  const raw = page.getRotation().angle % 360;
  const angle = [0, 90, 180, 270].includes((raw + 360) % 360) ? (raw + 360) % 360 : 0;
  // The corner of the box the content is drawn from, as the signer saw it.
  const dx = field.x;
  const dy = field.y + field.height;
  switch (angle) {
    case 90:
      return {
        origin: { x: crop.x + dy, y: crop.y + dx },
        right: { x: 0, y: 1 },
        up: { x: -1, y: 0 },
        angle,
      };
    case 180:
      return {
        origin: { x: crop.x + crop.width - dx, y: crop.y + dy },
        right: { x: -1, y: 0 },
        up: { x: 0, y: -1 },
        angle,
      };
    case 270:
      return {
        origin: { x: crop.x + crop.width - dy, y: crop.y + crop.height - dx },
        right: { x: 0, y: -1 },
        up: { x: 1, y: 0 },
        angle,
      };
    default:
      return {
        origin: { x: crop.x + dx, y: crop.y + crop.height - dy },
        right: { x: 1, y: 0 },
        up: { x: 0, y: 1 },
        angle,
      };
  }
}

/** A point `across` along the box's bottom edge and `above` it, on the page. */
function at(
  frame: Frame,
  across: number,
  above: number,
): { x: number; y: number; rotate: ReturnType<typeof degrees> } {
  return {
    x: frame.origin.x + across * frame.right.x + above * frame.up.x,
    y: frame.origin.y + across * frame.right.y + above * frame.up.y,
    rotate: degrees(frame.angle),
  };
}

const PNG_DATA_URL = /^data:image\/png;base64,([A-Za-z0-9+/=\s]+)$/;

async function embedPng(doc: PDFDocument, dataUrl: string): Promise<PDFImage> {
  const base64 = PNG_DATA_URL.exec(dataUrl)?.[1];
  if (!base64) throw new AppError('BAD_REQUEST', esignPdfMessages.unreadableImage);
  try {
    return await doc.embedPng(Buffer.from(base64, 'base64'));
  } catch {
    throw new AppError('BAD_REQUEST', esignPdfMessages.unreadableImage);
  }
}

/** The image scaled into the box, keeping its proportions, centred. */
function drawImage(page: PDFPage, frame: Frame, field: PlacedValue, image: PDFImage): void {
  const scale = Math.min(field.width / image.width, field.height / image.height);
  const width = image.width * scale;
  const height = image.height * scale;
  page.drawImage(image, {
    ...at(frame, (field.width - width) / 2, (field.height - height) / 2),
    width,
    height,
  });
}

const LEADING = 1.15;
const MIN_SIZE = 4;
/** A typed name in a tall box is still written at a handwriting's size. */
const MAX_SIZE = 24;

/**
 * The largest text that fits the box: on one line when that is at least 7 pt, else wrapped when
 * wrapping makes it larger, and never below 4 pt (text then runs past the box rather than vanish).
 */
function fitted(
  font: PDFFont,
  text: string,
  width: number,
  height: number,
): { size: number; lines: string[] } {
  const oneLine = Math.min(MAX_SIZE, height / LEADING, (width / font.widthOfTextAtSize(text, 1)) * 0.999);
  if (oneLine >= 7 || !text.includes(' ')) return { size: Math.max(MIN_SIZE, oneLine), lines: [text] };
  for (let count = 2; count <= 12; count += 1) {
    const size = Math.min(MAX_SIZE, height / (count * LEADING));
    if (size < Math.max(MIN_SIZE, oneLine)) break;
    const lines = wrap(font, size, text, width);
    if (lines.length <= count) return { size, lines };
  }
  return { size: Math.max(MIN_SIZE, oneLine), lines: [text] };
}

function drawText(page: PDFPage, frame: Frame, field: PlacedValue, font: PDFFont, value: string): void {
  const text = printable(font, value).trim();
  if (!text) return;
  const { size, lines } = fitted(font, text, field.width, field.height);
  const lineHeight = size * LEADING;
  // The block centred vertically; each line's baseline a descender above the bottom of its line.
  const descender = Math.abs(
    font.heightAtSize(size, { descender: true }) - font.heightAtSize(size, { descender: false }),
  );
  let above = (field.height + lines.length * lineHeight) / 2 - lineHeight + descender;
  for (const line of lines) {
    page.drawText(line, { ...at(frame, 0, above), size, font });
    above -= lineHeight;
  }
}

/** Draws every value on its page; a page outside the document is the caller's 400. */
export async function drawValues(doc: PDFDocument, values: readonly PlacedValue[]): Promise<void> {
  const pages = doc.getPages();
  const fonts = new Map<StandardFonts, PDFFont>();
  const fontOf = async (name: StandardFonts) => {
    const known = fonts.get(name);
    if (known) return known;
    const font = await doc.embedFont(name);
    fonts.set(name, font);
    return font;
  };
  for (const field of values) {
    const page = pages[field.page - 1];
    if (!Number.isInteger(field.page) || !page) {
      throw new AppError('BAD_REQUEST', esignPdfMessages.fieldOffPage(field.page, pages.length));
    }
    const box = [field.x, field.y, field.width, field.height];
    // NaN or a box of no size would be written into the page as no number a reader accepts.
    if (!box.every(Number.isFinite) || field.width <= 0 || field.height <= 0) {
      throw new AppError('BAD_REQUEST', apiMessages.invalidInput);
    }
    const frame = frameOf(page, field);
    const drawn = field.kind === 'signature' || field.kind === 'initials';
    if (drawn && field.value.startsWith('data:')) {
      drawImage(page, frame, field, await embedPng(doc, field.value));
    } else {
      // A typed signature in an italic face, so it reads as a signature rather than a form entry.
      const font = await fontOf(drawn ? StandardFonts.TimesRomanItalic : StandardFonts.Helvetica);
      drawText(page, frame, field, font, field.value);
    }
  }
}
