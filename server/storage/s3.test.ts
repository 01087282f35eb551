import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../shared/messages';
import { systemClock } from '../clock';
import { freePort } from '../db/embedded';
import { AppError, classifyError } from '../errors';
import { PROJECT_ROOT } from '../paths';
import { type S3TestServer, startS3TestServer } from '../test/s3-server';
import { keyFromLink } from './keys';
import { checkS3Bucket } from './s3';
import { bytesUnder, describeStorageContract } from './storage-contract';

/**
 * The storage contract for the S3 driver against s3rver (a real S3 server from npm, started here),
 * and what only S3 has: the start-up bucket check, 503s when S3 fails, the public endpoint of
 * presigned links.
 */

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(() => s3?.close());

describeStorageContract('S3 driver (s3rver)', { verifiesSignatures: false }, async () => {
  const bucket = await s3.createBucket();
  return {
    driver: (clock) => s3.storage(clock, { bucket }),
    async fetchLink(url, headers) {
      const res = await fetch(url, { headers });
      return {
        status: res.status,
        body: Buffer.from(await res.arrayBuffer()),
        contentType: res.headers.get('content-type') ?? undefined,
        contentDisposition: res.headers.get('content-disposition') ?? undefined,
        contentRange: res.headers.get('content-range') ?? undefined,
        acceptRanges: res.headers.get('accept-ranges') ?? undefined,
      };
    },
    unfinishedWrites: () => s3.pendingUploads(bucket),
    bytesHeld: () => bytesUnder(s3.bucketFolder(bucket)),
    close: async () => {},
  };
});

const SECRET = 'wrong-secret-that-must-never-be-printed';
const key = (name: string) => `transactions/${randomUUID()}/${randomUUID()}-${name}`;

describe('start-up bucket check', () => {
  it('passes for a bucket that answers; otherwise names bucket, endpoint and reason, never the secret', async () => {
    const bucket = await s3.createBucket();
    await expect(checkS3Bucket(s3.settings({ bucket }))).resolves.toBeUndefined();

    await expect(checkS3Bucket(s3.settings({ bucket: 'portal-missing' }))).rejects.toThrow(
      `S3 bucket portal-missing at ${s3.endpoint}: not reachable (404 Not Found: the bucket does not exist; create it first)`,
    );

    const refused = await checkS3Bucket(
      s3.settings({ bucket, accessKeyId: 'WRONG-KEY-ID', secretAccessKey: SECRET }),
    ).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toBe(
      `S3 bucket ${bucket} at ${s3.endpoint}: not reachable (403 Forbidden: check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY)`,
    );

    const port = await freePort();
    await expect(
      checkS3Bucket(s3.settings({ bucket, endpoint: `http://user:${SECRET}@127.0.0.1:${port}` })),
    ).rejects.toThrow(`S3 bucket ${bucket} at http://127.0.0.1:${port}: not reachable (ECONNREFUSED)`);
  });

  it('server/main.ts stops at once with that message when the bucket is not there', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'portal-s3-start-'));
    try {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', path.join(PROJECT_ROOT, 'server', 'main.ts')],
        {
          cwd: PROJECT_ROOT,
          env: {
            ...process.env,
            NODE_ENV: 'test',
            DATABASE_URL: '',
            DATA_DIR: dataDir,
            PORT: '0',
            LOG_LEVEL: 'info',
            STORAGE_DRIVER: 's3',
            S3_ENDPOINT: s3.endpoint,
            S3_BUCKET: 'portal-not-created',
            S3_ACCESS_KEY_ID: 'S3RVER',
            S3_SECRET_ACCESS_KEY: SECRET,
            S3_FORCE_PATH_STYLE: 'true',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
      });
      child.stderr.on('data', (chunk) => {
        output += chunk;
      });
      const [code] = await once(child, 'exit');
      expect(code).toBe(1);
      expect(output).toContain(
        `S3 bucket portal-not-created at ${s3.endpoint}: not reachable (404 Not Found: the bucket does not exist; create it first)`,
      );
      expect(output).not.toContain(SECRET);
      expect(output).not.toContain('listening on');
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('when S3 fails', () => {
  it('down or refusing the credentials: every call is a 503 "file storage is unavailable", nothing leaks', async () => {
    const bucket = await s3.createBucket();
    const port = await freePort();
    for (const storage of [
      s3.storage(systemClock, { bucket, accessKeyId: 'WRONG-KEY-ID', secretAccessKey: SECRET }),
      s3.storage(systemClock, { bucket, endpoint: `http://127.0.0.1:${port}` }),
    ]) {
      const body = Readable.from([Buffer.from('%PDF-1.4\n')]);
      const failures = await Promise.all([
        storage.put(key('a.pdf'), body, { contentType: 'application/pdf' }).catch((e) => e),
        storage.open(key('a.pdf')).catch((e) => e),
        storage.exists(key('a.pdf')).catch((e) => e),
        storage.delete(key('a.pdf')).catch((e) => e),
      ]);
      for (const failure of failures) {
        expect(failure).toBeInstanceOf(AppError);
        expect(classifyError(failure)).toEqual({
          status: 503,
          body: {
            message: apiMessages.storageUnavailable,
            code: 'SERVICE_UNAVAILABLE',
            error: 'service-unavailable',
          },
          internal: true,
        });
        expect(JSON.stringify(classifyError(failure).body)).not.toContain(SECRET);
      }
      expect(body.destroyed).toBe(true);
    }
    expect(await s3.objectKeys({ bucket })).toEqual([]);
  });
});

describe('ranges', () => {
  it('S3 answering other bytes than the range asked is a 503, never a part with the wrong length', async () => {
    const bucket = await s3.createBucket();
    const storage = s3.storage(systemClock, { bucket });
    const stored = key('range.pdf');
    await storage.put(stored, Readable.from([Buffer.from('%PDF-1.4\n')]), { contentType: 'application/pdf' });
    // s3rver's own flaw (`end || Infinity`) makes it answer `0-0` with every byte of the object.
    const failure = await storage.open(stored, { range: { start: 0, end: 0 } }).catch((e) => e);
    expect(classifyError(failure).status).toBe(503);
    expect((await storage.open(stored, { range: { start: 1, end: 1 } }))?.size).toBe(9);
  });
});

describe('presigned links', () => {
  it('name S3_PUBLIC_ENDPOINT, the address browsers reach, while the server talks to S3_ENDPOINT', async () => {
    const bucket = await s3.createBucket();
    const storage = s3.storage(systemClock, { bucket, publicEndpoint: 'http://files.portal.invalid:9000' });
    const stored = key('public.pdf');
    // Stored and checked through S3_ENDPOINT: the public name does not even resolve.
    await storage.put(stored, Readable.from([Buffer.from('%PDF-1.4\n')]), { contentType: 'application/pdf' });
    expect(await storage.exists(stored)).toBe(true);
    const link = new URL(await storage.signedUrl(stored));
    expect(link.origin).toBe('http://files.portal.invalid:9000');
    expect(link.pathname).toBe(`/${bucket}/${stored}`);
    expect(link.searchParams.get('X-Amz-Expires')).toBe('3600');
    // A link carries a signature made with the secret, never the secret itself.
    const signedWithSecret = await s3
      .storage(systemClock, { bucket, secretAccessKey: SECRET })
      .signedUrl(stored);
    expect(new URL(signedWithSecret).searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(signedWithSecret).not.toContain(SECRET);
  });

  it('keyFromLink takes them back, path-style and virtual-hosted, with their query string', async () => {
    const bucket = await s3.createBucket();
    const stored = key('Offer.pdf');
    const pathStyle = await s3.storage(systemClock, { bucket }).signedUrl(stored);
    expect(new URL(pathStyle).pathname.startsWith(`/${bucket}/`)).toBe(true);
    expect(keyFromLink(pathStyle)).toBe(stored);
    const virtualHosted = await s3
      .storage(systemClock, {
        bucket,
        forcePathStyle: false,
        endpoint: 'https://s3.example.com',
        publicEndpoint: undefined,
      })
      .signedUrl(stored);
    expect(new URL(virtualHosted).host).toBe(`${bucket}.s3.example.com`);
    expect(keyFromLink(virtualHosted)).toBe(stored);
  });
});
