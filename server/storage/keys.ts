import { randomUUID } from 'node:crypto';
import path from 'node:path';

/**
 * Storage keys: `forms/<uuid>-<safe name>` and
 * `transactions/<transactionId>/<uuid>-<safe name>`. The name part is for people (the download's
 * file name); the uuid makes every key new, so an upload never overwrites an earlier file.
 */

const MAX_NAME = 80;

/** A file name reduced to letters, digits, dot, dash and underscore, with the sniffed extension. */
export function safeFileName(original: string, extension: string): string {
  const base = path.posix
    .basename(original.replaceAll('\\', '/'))
    .normalize('NFKD')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    // A key never holds '..' (isValidKey refuses it): 'report..final.pdf' stays a file name.
    .replace(/\.{2,}/g, '.')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_NAME);
  return `${base || 'file'}.${extension}`;
}

export function transactionFileKey(transactionId: string, original: string, extension: string): string {
  return `transactions/${transactionId}/${randomUUID()}-${safeFileName(original, extension)}`;
}

/** Whether `key` is a well-formed key in this transaction's folder (transactionFileKey's keys). */
export function isKeyOfTransaction(key: string, transactionId: string): boolean {
  return isValidKey(key) && key.startsWith(`transactions/${transactionId}/`);
}

export function libraryFileKey(original: string, extension: string): string {
  return `forms/${randomUUID()}-${safeFileName(original, extension)}`;
}

const KEY_PATTERN = /^(?:forms|transactions\/[0-9a-f-]{36})\/[0-9a-f-]{36}-[A-Za-z0-9._-]+$/;

/** Only keys of the shapes above are ever read or written: no traversal, no absolute paths. */
export function isValidKey(key: string): boolean {
  return KEY_PATTERN.test(key) && !key.includes('..');
}

/** The name a download is saved under: the key without its uuid prefix. */
export function downloadName(key: string): string {
  return (key.split('/').pop() ?? 'file').replace(/^[0-9a-f-]{36}-/, '');
}

/**
 * The key a client-supplied link names: the bare key, a `/files/<key>?exp=&sig=` path, the
 * absolute signed URL an upload answered, or the presigned S3 URL an upload answered with the S3
 * driver (virtual-hosted `/<key>?X-Amz-...` or path-style `/<bucket>/<key>?X-Amz-...`). '' when
 * it names nothing readable; callers still check isValidKey and where the key lies. The host is
 * ignored: only the key is kept, and every link the server hands out is made fresh from it.
 */
export function keyFromLink(link: string): string {
  let path = link.trim();
  if (/^https?:\/\//i.test(path)) path = URL.canParse(path) ? new URL(path).pathname : '';
  path = (path.split('?', 1)[0] ?? '').replace(/^\/files\//, '');
  let decoded: string;
  try {
    decoded = path.split('/').map(decodeURIComponent).join('/');
  } catch {
    return ''; // a malformed %-escape
  }
  const rooted = decoded.replace(/^\//, '');
  if (isValidKey(rooted)) return rooted;
  // Path-style S3: the first segment is the bucket, whatever its name (even `forms`).
  const afterBucket = rooted.slice(rooted.indexOf('/') + 1);
  if (rooted.includes('/') && isValidKey(afterBucket)) return afterBucket;
  return decoded;
}
