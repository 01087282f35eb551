import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiError } from '../../shared/schemas/common';
import type { AppDeps } from '../deps';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';

/**
 * The /files route's byte ranges (large PDFs render progressively): one range is a 206
 * of exactly its bytes, a range past the end a 416, anything else the whole file; never
 * compressed, whatever Accept-Encoding says. Real requests through the app, on the local driver.
 */

const database = setupTestDatabase();
let deps: AppDeps;
let app: FastifyInstance;
let pdf: Buffer;
let pdfUrl: string;

/** Bytes that differ from position to position, so a slice from the wrong place shows. */
function patterned(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;
  return bytes;
}

async function stored(name: string, bytes: Buffer): Promise<string> {
  const key = `transactions/${randomUUID()}/${randomUUID()}-${name}`;
  await deps.storage.put(key, Readable.from([bytes]), { contentType: 'application/pdf' });
  const link = new URL(await deps.storage.signedUrl(key), 'http://portal.test');
  return `${link.pathname}${link.search}`;
}

const get = (url: string, headers: Record<string, string> = {}) =>
  app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  deps = testDeps(database.db);
  app = buildTestApp(deps);
  pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), patterned(300 * 1024)]);
  pdfUrl = await stored('Scan.pdf', pdf);
});
afterAll(() => app?.close());

describe('GET /files/<key> with a Range', () => {
  it('without one: the whole file, saying ranges are accepted', async () => {
    const res = await get(pdfUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-length']).toBe(String(pdf.length));
    expect(res.headers['content-range']).toBeUndefined();
    expect(res.rawPayload.equals(pdf)).toBe(true);
  });

  it('first-last: 206, those bytes, their Content-Range and length, the file headers', async () => {
    const res = await get(pdfUrl, { range: 'bytes=65536-131071' });
    expect(res.statusCode).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 65536-131071/${pdf.length}`);
    expect(res.headers['content-length']).toBe('65536');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-disposition']).toBe(`inline; filename="Scan.pdf"; filename*=UTF-8''Scan.pdf`);
    expect(res.rawPayload.equals(pdf.subarray(65536, 131072))).toBe(true);
  });

  it('first- and -suffix: to the end, and the last bytes; a last position past the end stops there', async () => {
    const from = await get(pdfUrl, { range: 'bytes=300000-' });
    expect(from.statusCode).toBe(206);
    expect(from.headers['content-range']).toBe(`bytes 300000-${pdf.length - 1}/${pdf.length}`);
    expect(from.rawPayload.equals(pdf.subarray(300000))).toBe(true);

    const suffix = await get(pdfUrl, { range: 'bytes=-1024' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.headers['content-range']).toBe(
      `bytes ${pdf.length - 1024}-${pdf.length - 1}/${pdf.length}`,
    );
    expect(suffix.rawPayload.equals(pdf.subarray(pdf.length - 1024))).toBe(true);

    const past = await get(pdfUrl, { range: `bytes=0-${pdf.length * 2}` });
    expect(past.statusCode).toBe(206);
    expect(past.headers['content-range']).toBe(`bytes 0-${pdf.length - 1}/${pdf.length}`);
    expect(past.rawPayload.equals(pdf)).toBe(true);
  });

  it('the unit in any case, spaces around the positions: the same range', async () => {
    for (const range of ['Bytes=7-7', 'BYTES= 7-7', ' bytes =7-7 ']) {
      const res = await get(pdfUrl, { range });
      expect(res.statusCode, range).toBe(206);
      expect(res.headers['content-range'], range).toBe(`bytes 7-7/${pdf.length}`);
      expect(res.rawPayload.equals(pdf.subarray(7, 8)), range).toBe(true);
    }
  });

  it('a suffix longer than the file is all of it; positions longer than any file do not fail', async () => {
    const whole = `bytes 0-${pdf.length - 1}/${pdf.length}`;
    const longer = await get(pdfUrl, { range: `bytes=-${pdf.length + 1}` });
    expect(longer.statusCode).toBe(206);
    expect(longer.headers['content-range']).toBe(whole);
    expect(longer.rawPayload.equals(pdf)).toBe(true);

    const huge = '9'.repeat(400);
    expect((await get(pdfUrl, { range: `bytes=${huge}-` })).statusCode).toBe(416);
    const toHuge = await get(pdfUrl, { range: `bytes=2-${huge}` });
    expect(toHuge.statusCode).toBe(206);
    expect(toHuge.headers['content-range']).toBe(`bytes 2-${pdf.length - 1}/${pdf.length}`);
    expect(toHuge.rawPayload.equals(pdf.subarray(2))).toBe(true);
    for (const suffix of [`1${'0'.repeat(20)}`, huge]) {
      const res = await get(pdfUrl, { range: `bytes=-${suffix}` });
      expect(res.statusCode, suffix).toBeLessThan(300);
      expect(res.rawPayload.equals(pdf), suffix).toBe(true);
    }
  });

  it('a range naming no byte of the file: 416 with the size, and the usual error body', async () => {
    for (const range of [
      `bytes=${pdf.length}-`,
      `bytes=${pdf.length + 5}-${pdf.length + 9}`,
      'bytes=-0',
      'bytes=-000',
    ]) {
      const res = await get(pdfUrl, { range });
      expect(res.statusCode, range).toBe(416);
      expect(res.headers['content-range'], range).toBe(`bytes */${pdf.length}`);
      expect(res.json(), range).toEqual({
        message: 'The requested range is not satisfiable',
        code: 'BAD_REQUEST',
        error: 'range-not-satisfiable',
      });
    }
    const empty = await stored('empty.pdf', Buffer.alloc(0));
    const res = await get(empty, { range: 'bytes=0-' });
    expect(res.statusCode).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */0');
  });

  it('several ranges, another unit, bad syntax or an If-Range: ignored, the whole file', async () => {
    for (const headers of [
      { range: 'bytes=0-9,20-29' } as Record<string, string>,
      { range: 'bytes=-1,0-' },
      { range: `bytes=0-9,${pdf.length + 5}-` },
      { range: 'bytes=0-9, bytes=20-29' },
      { range: 'items=0-9' },
      { range: '=0-9' },
      { range: 'bytes 0-9' },
      { range: '' },
      { range: 'bytes' },
      { range: 'bytes=' },
      { range: 'bytes=-' },
      { range: 'bytes=9-0' },
      { range: 'bytes=abc' },
      { range: 'bytes=1-2-3' },
      { range: 'bytes=0x10-20' },
      { range: 'bytes=1.5-2' },
      { range: 'bytes=+1-2' },
      { range: 'bytes=-+1' },
      { range: 'bytes=0-9', 'if-range': '"an-etag"' },
    ]) {
      const res = await get(pdfUrl, headers);
      const label = JSON.stringify(headers);
      expect(res.statusCode, label).toBe(200);
      expect(res.headers['content-range'], label).toBeUndefined();
      expect(res.rawPayload.equals(pdf), label).toBe(true);
    }
  });

  it("HEAD ignores the Range: the whole file's headers, no body", async () => {
    const res = await app.inject({ method: 'HEAD', url: pdfUrl, headers: { range: 'bytes=0-9' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-length']).toBe(String(pdf.length));
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.rawPayload.length).toBe(0);
  });

  it('a Range opens nothing without a valid signature, nor a file that is not there', async () => {
    const forged = pdfUrl.replace(/sig=./, (match) => (match.endsWith('A') ? 'sig=B' : 'sig=A'));
    expect((await get(forged, { range: 'bytes=0-9' })).statusCode).toBe(403);
    const gone = await stored('gone.pdf', patterned(100));
    const key = decodeURIComponent(new URL(gone, 'http://portal.test').pathname.replace(/^\/files\//, ''));
    await deps.storage.delete(key);
    const res = await get(gone, { range: 'bytes=0-9' });
    expect(res.statusCode).toBe(404);
    expect(apiError.safeParse(res.json()).success).toBe(true);
  });

  it('neither a 206 nor the whole file is compressed, whatever Accept-Encoding says', async () => {
    const part = await get(pdfUrl, { range: 'bytes=0-65535', 'accept-encoding': 'br, gzip' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.headers['content-length']).toBe('65536');
    expect(part.rawPayload.equals(pdf.subarray(0, 65536))).toBe(true);
    const whole = await get(pdfUrl, { 'accept-encoding': 'br, gzip' });
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.rawPayload.equals(pdf)).toBe(true);
  });

  it('whatever the Range says: never a 5xx, and the bytes always match what the headers claim', async () => {
    const size = pdf.length;
    const position = fc.oneof(
      fc.nat({ max: size + 10 }),
      fc.constantFrom(0, size - 1, size, Number.MAX_SAFE_INTEGER),
      fc.bigInt({ min: 0n, max: 10n ** 30n }),
    );
    const spec = fc.oneof(
      fc.tuple(position, position).map(([a, b]) => `${a}-${b}`),
      position.map((a) => `${a}-`),
      position.map((n) => `-${n}`),
      fc.string({ maxLength: 12 }),
    );
    const header = fc.oneof(
      spec.map((s) => `bytes=${s}`),
      fc.array(spec, { minLength: 2, maxLength: 3 }).map((specs) => `bytes=${specs.join(',')}`),
      fc.tuple(fc.constantFrom('Bytes', 'BYTES', ' bytes ', 'bits', ''), spec).map(([u, s]) => `${u}=${s}`),
      fc.string({ maxLength: 24 }),
    );
    await fc.assert(
      fc.asyncProperty(header, async (range) => {
        // Header values a client cannot send (control characters) are refused by the HTTP layer.
        if (/[^\t\x20-\x7e]/.test(range)) return;
        const res = await get(pdfUrl, { range });
        expect(res.statusCode).toBeLessThan(500);
        if (res.statusCode === 200) expect(res.rawPayload.equals(pdf)).toBe(true);
        else if (res.statusCode === 416) expect(res.headers['content-range']).toBe(`bytes */${size}`);
        else {
          expect(res.statusCode).toBe(206);
          const [, start, end] =
            /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(res.headers['content-range'])) ?? [];
          expect(res.rawPayload.equals(pdf.subarray(Number(start), Number(end) + 1))).toBe(true);
          expect(res.headers['content-length']).toBe(String(Number(end) - Number(start) + 1));
        }
      }),
      { numRuns: 300 },
    );
  });
});
