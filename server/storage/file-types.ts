import { fileTypeFromBuffer } from 'file-type';
import { ACCEPTED_FILE_TYPES } from '../../shared/file-types';
import { downloadName } from './keys';

/**
 * The file types of shared/file-types.ts, recognised by their bytes, never
 * by the name or the Content-Type a client claims: file-type's extension -> the type we serve.
 */
const ACCEPTED: Record<string, string> = Object.fromEntries(
  ACCEPTED_FILE_TYPES.map(({ ext, mime }) => [ext, mime]),
);

/** Enough of the start of a file for every accepted type (DOCX and XLSX need their zip entries). */
export const SNIFF_BYTES = 64 * 1024;

export type AcceptedType = { ext: string; mime: string };

export async function sniffAcceptedType(head: Uint8Array): Promise<AcceptedType | null> {
  const detected = await fileTypeFromBuffer(head);
  const mime = detected ? ACCEPTED[detected.ext] : undefined;
  return detected && mime ? { ext: detected.ext, mime } : null;
}

/** The extension the bytes say, accepted or not (tests and diagnostics). */
export async function fileTypeOfBytes(bytes: Uint8Array): Promise<string | undefined> {
  return (await fileTypeFromBuffer(bytes))?.ext;
}

/** Stored files carry their sniffed extension, so the key alone says how to serve them. */
export function contentTypeOfKey(key: string): string {
  return ACCEPTED[key.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream';
}

/** PDFs and images open in the browser's tab; office files download. */
export function opensInline(contentType: string): boolean {
  return contentType === 'application/pdf' || contentType.startsWith('image/');
}

/**
 * How a stored file is served: its type (from the key's sniffed extension) and a disposition that
 * opens PDFs and images in the tab and downloads the rest under their people-readable name. One
 * rule for both drivers: the /files route sends these headers, S3's presigned links ask for them.
 */
export function downloadHeadersOfKey(key: string): { contentType: string; contentDisposition: string } {
  const contentType = contentTypeOfKey(key);
  const name = downloadName(key);
  const disposition = opensInline(contentType) ? 'inline' : 'attachment';
  return {
    contentType,
    contentDisposition: `${disposition}; filename="${name}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  };
}
