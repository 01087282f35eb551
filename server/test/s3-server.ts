import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  CreateBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import S3rver, { type S3rverMiddleware } from 's3rver';
import type { Clock } from '../clock';
import { type S3Settings, s3Storage } from '../storage/s3';
import type { Storage } from '../storage/storage';

/**
 * A real S3-compatible server for tests: s3rver (npm) on a free loopback port, its objects in a
 * temporary folder. Every test file starts its own; buckets are made per test with CreateBucket,
 * as an operator would make them (the portal never creates buckets).
 *
 * s3rver 3.7 lacks two calls of the S3 API the driver's promises rest on: AbortMultipartUpload
 * (it answers 405) and ListMultipartUploads (501). `multipartGaps` adds both over s3rver's own
 * upload folders, so the driver's abort really removes the parts and a test can list what is
 * pending through the ordinary SDK call, exactly as it would against AWS or MinIO.
 * s3rver also does not verify SigV4 signatures (authentication.js: "Signature version 4
 * calculation is unimplemented"); it does check a presigned link's expiry.
 */

export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;

/** s3rver keeps the parts of an unfinished multipart upload in <bucket>/._S3rver_uploads/<id>/. */
const uploadsFolder = (directory: string, bucket: string) => path.join(directory, bucket, '._S3rver_uploads');

const xmlText = (value: string) =>
  value.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

function multipartGaps(directory: string): S3rverMiddleware {
  return async (ctx, next) => {
    // Path-style requests only (the tests' clients force it): /<bucket>[/<key>].
    const [bucket = '', ...keyParts] = ctx.path.split('/').filter(Boolean).map(decodeURIComponent);
    const uploadId = ctx.query.uploadId;
    if (ctx.method === 'DELETE' && typeof uploadId === 'string' && keyParts.length > 0) {
      const folder = path.join(uploadsFolder(directory, bucket), uploadId);
      const key = /^[0-9a-f]+$/.test(uploadId)
        ? await readFile(path.join(folder, 'key'), 'utf8').catch(() => undefined)
        : undefined;
      if (key !== keyParts.join('/')) {
        ctx.status = 404;
        ctx.type = 'application/xml';
        ctx.body = '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code></Error>';
        return;
      }
      await rm(folder, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === 'GET' && ctx.query.uploads !== undefined && bucket && keyParts.length === 0) {
      const folder = uploadsFolder(directory, bucket);
      const ids = await readdir(folder).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const key = await readFile(path.join(folder, id, 'key'), 'utf8');
          const initiated = (await stat(path.join(folder, id))).birthtime.toISOString();
          return `<Upload><Key>${xmlText(key)}</Key><UploadId>${id}</UploadId><Initiated>${initiated}</Initiated></Upload>`;
        }),
      );
      ctx.status = 200;
      ctx.type = 'application/xml';
      ctx.body =
        '<?xml version="1.0" encoding="UTF-8"?>\n' +
        '<ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">' +
        `<Bucket>${xmlText(bucket)}</Bucket><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>` +
        `${uploads.join('')}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
}

export type S3TestServer = {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  /** A bucket made at start, for tests (and app processes) that need just one. */
  bucket: string;
  /** What an app process needs to keep its files in `bucket` (STORAGE_DRIVER=s3 and the S3_* settings). */
  environment: {
    STORAGE_DRIVER: 's3';
    S3_ENDPOINT: string;
    S3_BUCKET: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: 'true';
  };
  /** An SDK client with s3rver's credentials, for what the test itself asks the server. */
  client: S3Client;
  /** Another new, empty bucket with a name of its own. */
  createBucket(): Promise<string>;
  /** The driver's settings: `bucket` unless the overrides name another. */
  settings(overrides?: Partial<S3Settings>): S3Settings;
  /** The S3 driver, signing links with `clock`. */
  storage(clock: Clock, overrides?: Partial<S3Settings>): Storage;
  /** Keys of the objects in a bucket (ListObjectsV2, every page). */
  objectKeys(options?: { bucket?: string; prefix?: string }): Promise<string[]>;
  /** Keys of the multipart uploads begun and neither completed nor aborted (ListMultipartUploads). */
  pendingUploads(bucket?: string): Promise<string[]>;
  /** The folder where s3rver keeps a bucket's objects and unfinished parts. */
  bucketFolder(bucket?: string): string;
  close(): Promise<void>;
};

export async function startS3TestServer(): Promise<S3TestServer> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'portal-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory });
  // Before s3rver's router (the last middleware), which would refuse both calls.
  server.middleware.splice(server.middleware.length - 1, 0, multipartGaps(directory));
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: S3RVER_CREDENTIALS,
  });
  async function createBucket(): Promise<string> {
    const bucket = `test-${randomUUID()}`;
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    return bucket;
  }
  const defaultBucket = await createBucket();
  const settings = (overrides: Partial<S3Settings> = {}): S3Settings => ({
    endpoint,
    publicEndpoint: endpoint,
    bucket: defaultBucket,
    region: 'us-east-1',
    ...S3RVER_CREDENTIALS,
    forcePathStyle: true,
    ...overrides,
  });

  return {
    endpoint,
    bucket: defaultBucket,
    environment: {
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: defaultBucket,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    },
    client,
    createBucket,
    settings,
    storage: (clock, overrides) => s3Storage({ ...settings(overrides), clock }),
    async objectKeys({ bucket = defaultBucket, prefix }: { bucket?: string; prefix?: string } = {}) {
      const keys: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }),
        );
        keys.push(...(page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])));
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return keys;
    },
    async pendingUploads(bucket = defaultBucket) {
      const listed = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket }));
      return (listed.Uploads ?? []).flatMap((upload) => (upload.Key ? [upload.Key] : []));
    },
    bucketFolder: (bucket = defaultBucket) => path.join(directory, bucket),
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
