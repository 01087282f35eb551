import type { Readable } from 'node:stream';

/**
 * Where uploaded files live. The database stores keys, never URLs; answers
 * carry a signed, expiring URL made by the driver. The client never chooses a key.
 */
export type Storage = {
  /** Stores the stream under the key; resolves with the bytes written. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<{ size: number }>;
  /**
   * The file's bytes, or null when there is no such key; with `range`, only those bytes (a
   * download's Range request), which must lie within the file: resolve it against `size` first.
   * `size` is always the whole file's.
   */
  open(key: string, options?: { range?: ByteRange }): Promise<{ body: Readable; size: number } | null>;
  /** The file's size in bytes, or null when there is no such key. */
  size(key: string): Promise<number | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * A link that works without a header for a limited time (1 hour). With
   * `sameOrigin`, a driver whose files this server serves itself (local) answers a site-relative
   * path (/files/...), which a browser on the portal's pages resolves against the address it
   * actually uses; drivers whose files live elsewhere (S3) answer their absolute URL either way.
   */
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
};

/** Bytes `start` to `end` of a file, both included, as HTTP counts them (RFC 9110 14.1.2). */
export type ByteRange = { start: number; end: number };

export type SignedUrlOptions = { sameOrigin?: boolean };

export const SIGNED_URL_TTL_SECONDS = 60 * 60;
