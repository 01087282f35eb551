import type { Readable } from 'node:stream';

/**
 * Where uploaded files live (DESIGN.md section 6). The database stores keys, never URLs; answers
 * carry a signed, expiring URL made by the driver. The client never chooses a key.
 */
export type Storage = {
  /** Stores the stream under the key; resolves with the bytes written. */
  put(key: string, body: Readable, options: { contentType: string }): Promise<{ size: number }>;
  /** The file's bytes, or null when there is no such key. */
  open(key: string): Promise<{ body: Readable; size: number } | null>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  /**
   * A link that works without a header for a limited time (DESIGN.md section 6: 1 hour). With
   * `sameOrigin`, a driver whose files this server serves itself (local) answers a site-relative
   * path (/files/...), which a browser on the portal's pages resolves against the address it
   * actually uses; drivers whose files live elsewhere (S3) answer their absolute URL either way.
   */
  signedUrl(key: string, options?: SignedUrlOptions): Promise<string>;
};

export type SignedUrlOptions = { sameOrigin?: boolean };

export const SIGNED_URL_TTL_SECONDS = 60 * 60;
