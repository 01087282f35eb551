import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { intakeMessages } from '../../../shared/messages';
import { MAX_IMAGES_PER_UPLOAD, MAX_PHOTOS_NAME } from '../../../shared/schemas/intake';
import type { PageImage } from '../../documents/images';
import { AppError } from '../../errors';
import type { CallerContext, ServiceContext } from '../context';
import { type IncomingFile, storeUpload, transactionUploadTarget, type UploadTarget } from '../uploads';

/** One photo as the transport hands it over: its bytes, and whether the size limit cut them. */
export type IncomingPhoto = { bytes: Buffer; truncated: boolean };

/** The image types a photographed page may come in (HEIC only when sharp can decode it). */
const PHOTO_TYPES = new Set([
  'image/jpeg',
  'image/png',
  'image/webp',
  'image/heic',
  'image/heif',
  'image/avif',
]);

/**
 * Photos of one document, uploaded to a transaction: who may is decided first, as for any
 * document of it (uploads.ts, uploadTransactionDocument), so a refused caller's photos are never
 * read; then the name, then the photos.
 */
export async function uploadTransactionPhotos(
  ctx: CallerContext,
  { id, photos, name }: { id: string; photos: AsyncIterable<IncomingPhoto>; name?: string | undefined },
) {
  const target = await transactionUploadTarget(ctx, id);
  if (name !== undefined && name.length > MAX_PHOTOS_NAME)
    throw new AppError('BAD_REQUEST', intakeMessages.photosNameTooLong(MAX_PHOTOS_NAME));
  return storePhotos(ctx, { target, photos, name });
}

/**
 * Photos of one document (POST /api/uploads/transactions/{id}/images): each checked and turned
 * into a page as it arrives (only the small page images are held), then one PDF, stored and
 * pre-checked like any upload, named as the caller asks. A photo that is not an image, too large or undecodable refuses the
 * whole upload, naming it by its place.
 */
async function storePhotos(
  ctx: ServiceContext,
  {
    target,
    photos,
    name,
  }: { target: UploadTarget; photos: AsyncIterable<IncomingPhoto>; name?: string | undefined },
) {
  // sharp and pdf-lib load with the first photo, not at start.
  const { pageImageOf, pdfOfPageImages, UnreadableImage } = await import('../../documents/images');
  const pages: PageImage[] = [];
  for await (const photo of photos) {
    const index = pages.length + 1;
    if (index > MAX_IMAGES_PER_UPLOAD)
      throw new AppError('BAD_REQUEST', intakeMessages.tooManyImages(MAX_IMAGES_PER_UPLOAD));
    if (photo.truncated) throw new AppError('PAYLOAD_TOO_LARGE', intakeMessages.imageTooLarge(index));
    const type = await fileTypeFromBuffer(photo.bytes.subarray(0, 4100));
    if (!type || !PHOTO_TYPES.has(type.mime))
      throw new AppError('UNSUPPORTED_MEDIA_TYPE', intakeMessages.imageTypeRefused(index));
    try {
      pages.push(await pageImageOf(photo.bytes));
    } catch (error) {
      if (error instanceof UnreadableImage)
        throw new AppError('BAD_REQUEST', intakeMessages.imageUnreadable(index));
      throw error;
    }
  }
  if (pages.length === 0) throw new AppError('BAD_REQUEST', intakeMessages.imagesRequired);
  const pdf = Buffer.from(await pdfOfPageImages(pages));
  const file: IncomingFile = {
    // The key's safe name (storage/keys.ts) is what the answer and the download call the file.
    // A label may hold a slash ('Seller/Buyer Disclosure'): a name, not a path.
    filename: `${name?.replaceAll(/[\\/]/g, ' ').trim() || 'photos'}.pdf`,
    bytes: Readable.from([pdf]),
    finish: async () => ({ truncated: false }),
  };
  return storeUpload(ctx, { target, file });
}
