import { createHash, randomUUID } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../clock';
import { TestClock } from '../test/harness';
import { until } from '../test/until';
import { SIGNED_URL_TTL_SECONDS, type Storage } from './storage';

/**
 * One suite every storage driver must pass ("the S3 driver passes the same storage test
 * suite as the local driver"). A driver test file describes how to reach its backing store; the
 * cases below are the same for all. Links are checked by the real verifier on the real clock
 * (the app's /files route, or the S3 server), while the driver signs with a clock the test sets.
 */

export type StorageFixture = {
  /** The driver under test, on its store, signing links at `clock`'s time. */
  driver(clock: Clock): Storage;
  /** Opens a signed link as a browser does, with the request headers given (a Range). */
  fetchLink(
    url: string,
    headers?: Record<string, string>,
  ): Promise<{
    status: number;
    body: Buffer;
    contentType: string | undefined;
    contentDisposition: string | undefined;
    contentRange: string | undefined;
    acceptRanges: string | undefined;
  }>;
  /** Writes begun and never finished: `.partial` files, multipart uploads neither completed nor aborted. */
  unfinishedWrites(): Promise<string[]>;
  /** Bytes the store holds right now, finished or not: how far a write has got. */
  bytesHeld(): Promise<number>;
  close(): Promise<void>;
};

export type StorageCapabilities = {
  /**
   * Whether the server behind the links verifies their signature. The local /files route does;
   * s3rver does not (its authentication.js: "Signature version 4 calculation is unimplemented"),
   * so the tampering case runs only where it can fail. AWS S3 and MinIO verify signatures.
   */
  verifiesSignatures: boolean;
};

/** Every byte of the files under a folder (the local root, s3rver's bucket folder). */
export async function bytesUnder(folder: string): Promise<number> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true }).catch(() => []);
  const sizes = await Promise.all(
    entries
      .filter((entry) => entry.isFile())
      .map(
        async (entry) => (await stat(path.join(entry.parentPath, entry.name)).catch(() => null))?.size ?? 0,
      ),
  );
  return sizes.reduce((sum, size) => sum + size, 0);
}

const MiB = 1024 * 1024;
const CHUNK = 64 * 1024;
const PDF_TYPE = 'application/pdf';
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Bytes that differ at every position of a chunk and from chunk to chunk: a shifted or lost chunk shows. */
function patterned(length: number, seed = 0): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 16) + seed) & 0xff;
  return bytes;
}

function inChunks(bytes: Buffer): Readable {
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += CHUNK)
    chunks.push(bytes.subarray(offset, offset + CHUNK));
  return Readable.from(chunks);
}

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const transactionKey = (name: string) => `transactions/${randomUUID()}/${randomUUID()}-${name}`;
const libraryKey = (name: string) => `forms/${randomUUID()}-${name}`;

/** A clock that signed its links `secondsAgo` before the real now. */
const signedAgo = (secondsAgo: number) => new TestClock(new Date(Date.now() - secondsAgo * 1000));

export function describeStorageContract(
  name: string,
  capabilities: StorageCapabilities,
  makeFixture: () => Promise<StorageFixture>,
): void {
  describe(`storage contract: ${name}`, () => {
    let fixture: StorageFixture;
    let storage: Storage;
    beforeAll(async () => {
      fixture = await makeFixture();
      storage = fixture.driver(signedAgo(0));
    });
    afterAll(() => fixture?.close());

    it('put then open: the exact bytes and their size; exists says so', async () => {
      const key = transactionKey('contract.pdf');
      const bytes = patterned(300 * 1024 + 17);
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.put(key, inChunks(bytes), { contentType: PDF_TYPE })).toEqual({
        size: bytes.length,
      });
      expect(await storage.exists(key)).toBe(true);
      const file = await storage.open(key);
      expect(file?.size).toBe(bytes.length);
      expect((await readAll(file?.body ?? Readable.from([]))).equals(bytes)).toBe(true);
    });

    it('a 12 MiB file (S3: a multipart upload of three parts) round-trips byte for byte', async () => {
      const key = transactionKey('scan.pdf');
      const bytes = patterned(12 * MiB, 7);
      expect(await storage.put(key, inChunks(bytes), { contentType: PDF_TYPE })).toEqual({
        size: bytes.length,
      });
      const file = await storage.open(key);
      expect(file?.size).toBe(bytes.length);
      expect(sha256(await readAll(file?.body ?? Readable.from([])))).toBe(sha256(bytes));
      await storage.delete(key);
    });

    it('an empty file is stored as one', async () => {
      const key = libraryKey('empty.pdf');
      expect(await storage.put(key, Readable.from([]), { contentType: PDF_TYPE })).toEqual({ size: 0 });
      expect((await storage.open(key))?.size).toBe(0);
    });

    it('delete removes the file; deleting it again, or a key never stored, is fine', async () => {
      const key = libraryKey('checklist.pdf');
      await storage.put(key, inChunks(patterned(1000)), { contentType: PDF_TYPE });
      await storage.delete(key);
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.open(key)).toBeNull();
      await expect(storage.delete(key)).resolves.toBeUndefined();
      await expect(storage.delete(libraryKey('never.pdf'))).resolves.toBeUndefined();
    });

    it('a key never stored: open and size are null, exists is false', async () => {
      expect(await storage.open(transactionKey('missing.pdf'))).toBeNull();
      expect(await storage.open(transactionKey('missing.pdf'), { range: { start: 0, end: 9 } })).toBeNull();
      expect(await storage.size(transactionKey('missing.pdf'))).toBeNull();
      expect(await storage.exists(transactionKey('missing.pdf'))).toBe(false);
    });

    it('size is the bytes stored; open with a range reads exactly those bytes, both ends included', async () => {
      const key = transactionKey('ranged.pdf');
      const bytes = patterned(3 * CHUNK + 123, 11);
      await storage.put(key, inChunks(bytes), { contentType: PDF_TYPE });
      expect(await storage.size(key)).toBe(bytes.length);
      for (const range of [
        // One byte; not the first: s3rver reads `0-0` as the whole file (AWS S3 does not).
        { start: 1, end: 1 },
        { start: 0, end: CHUNK - 1 },
        // Across the boundaries of the chunks it was written in, and of pdf.js's 64 KiB parts.
        { start: CHUNK - 5, end: 2 * CHUNK + 4 },
        { start: bytes.length - 1, end: bytes.length - 1 },
        { start: 0, end: bytes.length - 1 },
      ]) {
        const file = await storage.open(key, { range });
        const label = `${range.start}-${range.end}`;
        expect(file?.size, label).toBe(bytes.length);
        const part = await readAll(file?.body ?? Readable.from([]));
        expect(part.equals(bytes.subarray(range.start, range.end + 1)), label).toBe(true);
      }
    });

    it('a range across the parts of a 12 MiB file (S3: its multipart parts) reads those bytes', async () => {
      const key = transactionKey('large-ranged.pdf');
      const bytes = patterned(12 * MiB, 13);
      await storage.put(key, inChunks(bytes), { contentType: PDF_TYPE });
      const range = { start: 5 * MiB - CHUNK / 2, end: 5 * MiB + CHUNK / 2 - 1 };
      const file = await storage.open(key, { range });
      expect(file?.size).toBe(bytes.length);
      const part = await readAll(file?.body ?? Readable.from([]));
      expect(part.equals(bytes.subarray(range.start, range.end + 1))).toBe(true);
      await storage.delete(key);
    });

    it('keys of any other shape are refused before the store is touched', async () => {
      const before = await fixture.bytesHeld();
      const uuid = randomUUID();
      for (const key of [
        '',
        '../outside.pdf',
        '/etc/passwd',
        'transactions/../../etc/passwd',
        `forms/${uuid}-a/../../outside.pdf`,
        `forms/${uuid}-..`,
        `transactions/${uuid}/../${uuid}/${uuid}-x.pdf`,
        `transactions/not-a-uuid/${uuid}-x.pdf`,
        'forms/no-uuid.pdf',
        `other/${uuid}-x.pdf`,
        `forms/${uuid}-with space.pdf`,
        `forms/${uuid}-x.pdf\n`,
        `forms/${uuid}-x.pdf?versionId=1`,
      ]) {
        await expect(
          storage.put(key, Readable.from([Buffer.from('%PDF-')]), { contentType: PDF_TYPE }),
          key,
        ).rejects.toThrow('Invalid storage key');
        expect(await storage.open(key), key).toBeNull();
        expect(await storage.open(key, { range: { start: 0, end: 0 } }), key).toBeNull();
        expect(await storage.size(key), key).toBeNull();
        expect(await storage.exists(key), key).toBe(false);
        await expect(storage.delete(key), key).resolves.toBeUndefined();
        await expect(storage.signedUrl(key), key).rejects.toThrow('Invalid storage key');
      }
      expect(await fixture.bytesHeld()).toBe(before);
    });

    it('a body that fails half way (the client hung up) leaves nothing: no file, no unfinished write', async () => {
      const key = transactionKey('half.pdf');
      const hungUp = new Error('the client hung up');
      const chunk = patterned(CHUNK);
      async function* body(): AsyncGenerator<Buffer> {
        // Past S3's first 5 MiB part, so the multipart upload has begun and must be aborted.
        for (let sent = 0; sent < 7 * MiB; sent += CHUNK) yield chunk;
        await until(async () => (await fixture.unfinishedWrites()).length > 0, 10_000);
        throw hungUp;
      }
      await expect(storage.put(key, Readable.from(body()), { contentType: PDF_TYPE })).rejects.toBe(hungUp);
      expect(await storage.exists(key)).toBe(false);
      expect(await storage.open(key)).toBeNull();
      expect(await fixture.unfinishedWrites()).toEqual([]);
    });

    it('the body is read only as fast as the store takes it: 64 MiB never run more than 24 MiB ahead', async () => {
      const key = transactionKey('large.pdf');
      const total = 64 * MiB;
      const chunk = patterned(CHUNK);
      const before = await fixture.bytesHeld();
      let produced = 0;
      let furthestAhead = 0;
      async function* body(): AsyncGenerator<Buffer> {
        while (produced < total) {
          if (produced % MiB === 0) {
            furthestAhead = Math.max(furthestAhead, produced - ((await fixture.bytesHeld()) - before));
          }
          produced += CHUNK;
          yield chunk;
        }
      }
      expect(await storage.put(key, Readable.from(body()), { contentType: PDF_TYPE })).toEqual({
        size: total,
      });
      // The measure sees the stored file (so the samples above were not vacuous)...
      expect((await fixture.bytesHeld()) - before).toBeGreaterThanOrEqual(total);
      // ...and a driver that gathered the file before sending it would have been 64 MiB ahead.
      expect(furthestAhead).toBeLessThanOrEqual(24 * MiB);
      await storage.delete(key);
    });

    it('a signed link serves the exact bytes; PDFs open inline, office files download, by their name', async () => {
      const pdfKey = transactionKey('My-Contract.pdf');
      const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), patterned(40_000, 3)]);
      await storage.put(pdfKey, inChunks(pdf), { contentType: PDF_TYPE });
      const opened = await fixture.fetchLink(await storage.signedUrl(pdfKey));
      expect(opened.status).toBe(200);
      expect(opened.body.equals(pdf)).toBe(true);
      expect(opened.contentType).toBe(PDF_TYPE);
      expect(opened.contentDisposition).toBe(
        `inline; filename="My-Contract.pdf"; filename*=UTF-8''My-Contract.pdf`,
      );

      const xlsxKey = libraryKey('Budget_2026.xlsx');
      const xlsx = patterned(5_000, 9);
      await storage.put(xlsxKey, inChunks(xlsx), { contentType: XLSX_TYPE });
      const downloaded = await fixture.fetchLink(await storage.signedUrl(xlsxKey));
      expect(downloaded.status).toBe(200);
      expect(downloaded.body.equals(xlsx)).toBe(true);
      expect(downloaded.contentType).toBe(XLSX_TYPE);
      expect(downloaded.contentDisposition).toBe(
        `attachment; filename="Budget_2026.xlsx"; filename*=UTF-8''Budget_2026.xlsx`,
      );
    });

    it('a signed link serves a byte range as 206 with its Content-Range, and says it takes ranges', async () => {
      const key = transactionKey('Ranged-Link.pdf');
      const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), patterned(200_000, 4)]);
      await storage.put(key, inChunks(pdf), { contentType: PDF_TYPE });
      const link = await storage.signedUrl(key);
      const whole = await fixture.fetchLink(link);
      expect(whole.status).toBe(200);
      expect(whole.acceptRanges).toBe('bytes');

      const part = await fixture.fetchLink(link, { range: 'bytes=65536-131071' });
      expect(part.status).toBe(206);
      expect(part.contentRange).toBe(`bytes 65536-131071/${pdf.length}`);
      expect(part.contentType).toBe(PDF_TYPE);
      expect(part.body.equals(pdf.subarray(65536, 131072))).toBe(true);

      const tail = await fixture.fetchLink(link, { range: `bytes=${pdf.length - 10}-${pdf.length + 1000}` });
      expect(tail.status).toBe(206);
      expect(tail.contentRange).toBe(`bytes ${pdf.length - 10}-${pdf.length - 1}/${pdf.length}`);
      expect(tail.body.equals(pdf.subarray(pdf.length - 10))).toBe(true);
    });

    it('a link works for one hour after it was signed, and is refused after', async () => {
      const key = transactionKey('expiring.pdf');
      const bytes = patterned(2_000, 5);
      await storage.put(key, inChunks(bytes), { contentType: PDF_TYPE });
      const fresh = await fixture.fetchLink(
        await fixture.driver(signedAgo(SIGNED_URL_TTL_SECONDS - 60)).signedUrl(key),
      );
      expect(fresh.status).toBe(200);
      expect(fresh.body.equals(bytes)).toBe(true);
      const expired = await fixture.fetchLink(
        await fixture.driver(signedAgo(SIGNED_URL_TTL_SECONDS + 60)).signedUrl(key),
      );
      expect(expired.status).toBe(403);
      expect(expired.body.equals(bytes)).toBe(false);
    });

    if (capabilities.verifiesSignatures) {
      it('a tampered link is refused: another signature, or the signature of another file', async () => {
        const key = transactionKey('signed.pdf');
        const other = transactionKey('other.pdf');
        await storage.put(key, inChunks(patterned(1_000)), { contentType: PDF_TYPE });
        await storage.put(other, inChunks(patterned(1_000, 1)), { contentType: PDF_TYPE });
        const link = new URL(await storage.signedUrl(key));
        const parameter = link.searchParams.has('sig') ? 'sig' : 'X-Amz-Signature';
        const signature = link.searchParams.get(parameter) ?? '';
        const forged = new URL(link);
        forged.searchParams.set(parameter, `${signature[0] === 'A' ? 'B' : 'A'}${signature.slice(1)}`);
        expect((await fixture.fetchLink(forged.href)).status).toBe(403);
        const otherLink = new URL(await storage.signedUrl(other));
        const swapped = new URL(link);
        swapped.pathname = otherLink.pathname;
        expect((await fixture.fetchLink(swapped.href)).status).toBe(403);
        expect((await fixture.fetchLink(link.href)).status).toBe(200);
      });
    }
  });
}
