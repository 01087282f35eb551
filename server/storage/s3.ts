import { STATUS_CODES } from 'node:http';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { apiMessages } from '../../shared/messages';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { downloadHeadersOfKey } from './file-types';
import { isValidKey } from './keys';
import { type ByteRange, SIGNED_URL_TTL_SECONDS, type Storage } from './storage';

/**
 * Files in an S3 bucket (AWS or a compatible service such as MinIO), for several instances that
 * share their files. Uploads stream through lib-storage's multipart upload; downloads
 * are presigned GET links the browser opens directly at S3, so file bytes never pass through the
 * portal after the upload.
 */

export type S3Settings = {
  /** Absent: AWS's own endpoint for the region. */
  endpoint: string | undefined;
  /** The endpoint written into presigned links (what browsers reach); defaults to `endpoint`. */
  publicEndpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
};

/**
 * S3's smallest part. With two parts in flight an upload holds about three parts (15 MiB) in
 * memory whatever the file's size: the body is read only as fast as S3 takes the parts.
 */
export const PART_SIZE = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 2;

function s3Client(settings: S3Settings, endpoint: string | undefined): S3Client {
  return new S3Client({
    region: settings.region,
    ...(endpoint ? { endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // The SDK's default CRC32 checksums on every request are refused by some S3-compatible
    // services; sending them only where S3 requires them works with all of them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    // Without these an unreachable endpoint holds a request (and its client) for minutes.
    requestHandler: { connectionTimeout: 5_000, socketTimeout: 60_000 },
  });
}

/** "S3 is down, refuses our credentials or failed": a 503 for the client, the cause for the log. */
function storageUnavailable(cause: unknown): AppError {
  const error = new AppError('SERVICE_UNAVAILABLE', apiMessages.storageUnavailable);
  // describeErrorForLog follows the cause to the SDK's error (its type, code and first line:
  // S3's messages carry neither credentials nor signatures).
  error.cause = cause;
  return error;
}

function statusOf(error: unknown): number | undefined {
  const metadata = (error as { $metadata?: { httpStatusCode?: unknown } } | null)?.$metadata;
  return typeof metadata?.httpStatusCode === 'number' ? metadata.httpStatusCode : undefined;
}

function isNotFound(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'NoSuchKey' || name === 'NotFound' || statusOf(error) === 404;
}

/**
 * The whole size in a Content-Range (`bytes 0-99/1234`: 1234) that names exactly `range`, else
 * undefined: a store that answered other bytes than asked (s3rver reads `0-0` as the whole file)
 * would make the route's Content-Length a lie.
 */
function sizeInContentRange(contentRange: string | undefined, range: ByteRange): number | undefined {
  const [, start, end, size] = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(contentRange ?? '') ?? [];
  return Number(start) === range.start && Number(end) === range.end ? Number(size) : undefined;
}

function checkedKey(key: string): string {
  if (!isValidKey(key)) throw new Error('Invalid storage key');
  return key;
}

export function s3Storage(options: S3Settings & { clock: Clock }): Storage {
  const client = s3Client(options, options.endpoint);
  // Presigning is local arithmetic over the URL, so a second client costs nothing; it exists only
  // when browsers reach S3 under another name than the server does (docker compose's minio:9000
  // against localhost:9000).
  const publicEndpoint = options.publicEndpoint ?? options.endpoint;
  const presigner = publicEndpoint === options.endpoint ? client : s3Client(options, publicEndpoint);
  const Bucket = options.bucket;

  return {
    async put(key, body, { contentType }) {
      const Key = checkedKey(key);
      let size = 0;
      let bodyFailure: { error: unknown } | undefined;
      async function* counted(): AsyncGenerator<Buffer> {
        try {
          for await (const chunk of body) {
            size += (chunk as Buffer).length;
            yield chunk as Buffer;
          }
        } catch (error) {
          bodyFailure = { error };
          throw error;
        }
      }
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: Readable.from(counted()), ContentType: contentType },
        partSize: PART_SIZE,
        queueSize: PARTS_IN_FLIGHT,
        // On any failure the multipart upload is aborted: no object under the key, no parts
        // left to pay for.
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        body.destroy();
        // The upload's own stream failed (the client hung up): the caller's error, not S3's.
        if (bodyFailure) throw bodyFailure.error;
        throw storageUnavailable(error);
      }
      return { size };
    },

    async open(key, openOptions) {
      if (!isValidKey(key)) return null;
      const range = openOptions?.range;
      try {
        const object = await client.send(
          new GetObjectCommand({
            Bucket,
            Key: key,
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        if (!(object.Body instanceof Readable)) throw new Error('S3 answered without a body stream');
        // A part's ContentLength is the part's: the whole size is the one its Content-Range names.
        const size = range ? sizeInContentRange(object.ContentRange, range) : (object.ContentLength ?? 0);
        if (size === undefined) {
          object.Body.destroy();
          throw new Error(
            `S3 answered ${object.ContentRange ?? 'no range'} for ${range?.start}-${range?.end}`,
          );
        }
        return { body: object.Body, size };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw storageUnavailable(error);
      }
    },

    async size(key) {
      if (!isValidKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return head.ContentLength ?? 0;
      } catch (error) {
        if (isNotFound(error)) return null;
        throw storageUnavailable(error);
      }
    },

    async exists(key) {
      if (!isValidKey(key)) return false;
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (error) {
        if (isNotFound(error)) return false;
        throw storageUnavailable(error);
      }
    },

    async delete(key) {
      if (!isValidKey(key)) return;
      try {
        // S3 answers 204 for a key that is not there: deleting twice is fine.
        await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
      } catch (error) {
        throw storageUnavailable(error);
      }
    },

    async signedUrl(key) {
      const { contentType, contentDisposition } = downloadHeadersOfKey(checkedKey(key));
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ResponseContentType: contentType,
        ResponseContentDisposition: contentDisposition,
      });
      // Signed at the injected clock's time, so tests can make a link that has already expired.
      return getSignedUrl(presigner, command, {
        expiresIn: SIGNED_URL_TTL_SECONDS,
        signingDate: options.clock.now(),
      });
    },
  };
}

export class StorageUnreachableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StorageUnreachableError';
  }
}

/** Where S3 is, for messages: the endpoint without any user info, or AWS's regional endpoint. */
function describeEndpoint(settings: S3Settings): string {
  if (!settings.endpoint) return `https://s3.${settings.region}.amazonaws.com`;
  const url = new URL(settings.endpoint);
  return `${url.origin}${url.pathname.replace(/\/$/, '')}`;
}

const HINTS: Record<number, string> = {
  301: 'check S3_REGION',
  403: 'check S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY',
  404: 'the bucket does not exist; create it first',
};

/**
 * Start-up check: the bucket answers HeadBucket with these credentials. Fails with a message
 * naming the bucket and endpoint (never the secret), so a wrong setting stops the start instead
 * of the first upload. The portal never creates the bucket: that is the operator's decision.
 */
export async function checkS3Bucket(settings: S3Settings): Promise<void> {
  const client = s3Client(settings, settings.endpoint);
  try {
    await client.send(new HeadBucketCommand({ Bucket: settings.bucket }));
  } catch (error) {
    const status = statusOf(error);
    const { code, name } = error as { code?: unknown; name?: unknown };
    const reason = status
      ? `${status} ${STATUS_CODES[status] ?? ''}`.trim() + (HINTS[status] ? `: ${HINTS[status]}` : '')
      : String(typeof code === 'string' ? code : typeof name === 'string' ? name : 'no answer');
    throw new StorageUnreachableError(
      `S3 bucket ${settings.bucket} at ${describeEndpoint(settings)}: not reachable (${reason})`,
    );
  } finally {
    client.destroy();
  }
}
