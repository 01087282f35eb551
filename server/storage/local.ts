import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../clock';
import { isValidKey } from './keys';
import { signFilePath } from './signed-urls';
import { SIGNED_URL_TTL_SECONDS, type Storage } from './storage';

const WRITE_BUFFER_BYTES = 1024 * 1024;

/**
 * Files under DATA_DIR/uploads. Writes go to a temporary name and are renamed into place, so a
 * reader never sees half a file and an aborted upload leaves nothing under its key.
 */
export function localStorage(options: {
  root: string;
  publicBaseUrl: string;
  signingKey: Buffer;
  clock: Clock;
}): Storage {
  const root = path.resolve(options.root);

  function pathOf(key: string): string {
    if (!isValidKey(key)) throw new Error('Invalid storage key');
    const full = path.resolve(root, key);
    // Belt and braces: the key pattern already forbids anything that could leave the root.
    if (!full.startsWith(root + path.sep)) throw new Error('Invalid storage key');
    return full;
  }

  return {
    async put(key, body) {
      const target = pathOf(key);
      await mkdir(path.dirname(target), { recursive: true });
      const temporary = `${target}.${randomUUID()}.partial`;
      // A buffer of 1 MiB instead of 16 KiB lets the stream gather the socket's 64 KiB chunks
      // into one writev per round trip to the thread pool instead of one write per chunk
      // (bench/upload.bench.ts); it also counts the bytes, so no extra stream is needed.
      const file = createWriteStream(temporary, { mode: 0o600, highWaterMark: WRITE_BUFFER_BYTES });
      try {
        await pipeline(body, file);
        await rename(temporary, target);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
      return { size: file.bytesWritten };
    },

    async open(key, openOptions) {
      if (!isValidKey(key)) return null;
      const file = pathOf(key);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) return null;
      // Both ends included, as in HTTP: the stream reads only the range, whatever the file's size.
      return { body: createReadStream(file, openOptions?.range), size: info.size };
    },

    async size(key) {
      if (!isValidKey(key)) return null;
      const info = await stat(pathOf(key)).catch(() => null);
      return info?.isFile() ? info.size : null;
    },

    async exists(key) {
      if (!isValidKey(key)) return false;
      return (await stat(pathOf(key)).catch(() => null))?.isFile() ?? false;
    },

    async delete(key) {
      if (!isValidKey(key)) return;
      await rm(pathOf(key), { force: true });
    },

    async signedUrl(key, linkOptions) {
      // Links are made only for keys this driver could have stored.
      if (!isValidKey(key)) throw new Error('Invalid storage key');
      const expires = Math.floor(options.clock.now().getTime() / 1000) + SIGNED_URL_TTL_SECONDS;
      const path = signFilePath(options.signingKey, key, expires);
      // This server serves the file itself: a page of the portal takes the path, so a wrong or
      // outdated APP_URL (a proxy, a second host name) cannot send its "View" elsewhere.
      return linkOptions?.sameOrigin ? path : `${options.publicBaseUrl}${path}`;
    },
  };
}
