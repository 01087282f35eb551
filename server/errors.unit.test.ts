import { HeadBucketCommand, NoSuchBucket, S3Client } from '@aws-sdk/client-s3';
import { TRPCError } from '@trpc/server';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { apiMessages, integrationMessages } from '../shared/messages';
import { API_ERROR_CODES, API_ERROR_IDS, type ApiErrorCode } from '../shared/schemas/common';
import { freePort } from './db/embedded';
import { AppError, CODE_OF_ERROR_ID, classifyError, DEFAULT_ERROR_ID, describeErrorForLog } from './errors';

const prismaError = (code: string) =>
  Object.assign(new Error('x'), { name: 'PrismaClientKnownRequestError', code });

describe('classifyError', () => {
  test('AppError keeps its code, message and issues, also when tRPC wrapped it', () => {
    const error = new AppError('FORBIDDEN', 'Only the owner may do this');
    expect(classifyError(error)).toEqual({
      status: 403,
      body: { message: 'Only the owner may do this', code: 'FORBIDDEN', error: 'forbidden' },
      internal: false,
    });
    expect(classifyError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: error })).status).toBe(403);
  });

  test("an AppError's details go in the body beside its message, also when tRPC wrapped it", () => {
    const missing = [{ formId: '00000000-0000-4000-8000-000000000001', label: 'Disclosure' }];
    const error = new AppError('CONFLICT', 'Not compliant', undefined, { missing });
    const expected = {
      status: 409,
      body: { message: 'Not compliant', code: 'CONFLICT', error: 'conflict', missing },
      internal: false,
    };
    expect(classifyError(error)).toEqual(expected);
    expect(classifyError(new TRPCError({ code: 'CONFLICT', cause: error }))).toEqual(expected);
  });

  test('an AppError 503 is a failure to log only when it carries the failure as its cause', () => {
    const decided = new AppError('SERVICE_UNAVAILABLE', apiMessages.searchTooSlow);
    const failed = Object.assign(new AppError('SERVICE_UNAVAILABLE', apiMessages.storageUnavailable), {
      cause: new Error('ECONNREFUSED'),
    });
    expect(classifyError(decided)).toMatchObject({ status: 503, internal: false });
    expect(classifyError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: decided }))).toMatchObject({
      status: 503,
      internal: false,
    });
    expect(classifyError(failed)).toMatchObject({ status: 503, internal: true });
    expect(classifyError(new AppError('INTERNAL', apiMessages.internal))).toMatchObject({
      status: 500,
      internal: true,
    });
  });

  test('zod issues become 400 with dotted paths', () => {
    const result = z
      .object({ user: z.object({ email: z.email({ error: 'Invalid email address' }) }) })
      .safeParse({
        user: { email: 'nope' },
      });
    expect(classifyError(result.error)).toEqual({
      status: 400,
      body: {
        message: 'Invalid email address',
        code: 'BAD_REQUEST',
        error: 'validation',
        issues: [{ path: 'user.email', message: 'Invalid email address' }],
      },
      internal: false,
    });
  });

  test('Prisma request errors: P2002 409, P2025 404, P2003 409', () => {
    expect(classifyError(prismaError('P2002')).status).toBe(409);
    expect(classifyError(prismaError('P2025')).status).toBe(404);
    expect(classifyError(prismaError('P2003')).status).toBe(409);
  });

  test('a lost or refused database connection is 503, however deeply wrapped', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(classifyError(refused).status).toBe(503);
    expect(
      classifyError(
        new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: new Error('wrap', { cause: refused }) }),
      ).status,
    ).toBe(503);
    expect(
      classifyError(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ).status,
    ).toBe(503);
    expect(classifyError(new Error('Connection terminated unexpectedly')).status).toBe(503);
    expect(
      classifyError(
        new TRPCError({
          code: 'INTERNAL_SERVER_ERROR',
          cause: new Error('Client has encountered a connection error and is not queryable'),
        }),
      ).status,
    ).toBe(503);
    expect(
      classifyError(
        Object.assign(new Error('x'), { name: 'PrismaClientInitializationError', errorCode: 'P1001' }),
      ).status,
    ).toBe(503);
  });

  test('an S3 failure that escapes the driver is 503 "file storage is unavailable", not the database message', async () => {
    // A real SDK error: S3 at a port where nothing listens (ECONNREFUSED, like a database outage).
    const port = await freePort();
    const client = new S3Client({
      endpoint: `http://127.0.0.1:${port}`,
      region: 'us-east-1',
      forcePathStyle: true,
      maxAttempts: 1,
      credentials: { accessKeyId: 'key-id', secretAccessKey: 'secret-key' },
    });
    const refused = await client.send(new HeadBucketCommand({ Bucket: 'portal-files' })).catch((e) => e);
    client.destroy();
    const unavailable = {
      status: 503,
      body: {
        message: apiMessages.storageUnavailable,
        code: 'SERVICE_UNAVAILABLE',
        error: 'service-unavailable',
      },
      internal: true,
    };
    expect(classifyError(refused)).toEqual(unavailable);
    expect(classifyError(new NoSuchBucket({ message: 'gone', $metadata: {} }))).toEqual(unavailable);
    expect(classifyError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: refused }))).toEqual(
      unavailable,
    );
  });

  test("Fastify's client errors keep their meaning", () => {
    expect(
      classifyError(
        Object.assign(new Error('too big'), { statusCode: 413, code: 'FST_ERR_CTP_BODY_TOO_LARGE' }),
      ).status,
    ).toBe(413);
    expect(
      classifyError(
        Object.assign(new Error('bad type'), { statusCode: 415, code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE' }),
      ).status,
    ).toBe(415);
    expect(classifyError(Object.assign(new Error('slow down'), { statusCode: 429 })).body.code).toBe(
      'TOO_MANY_REQUESTS',
    );
  });

  test('anything else is an opaque 500, flagged for the log', () => {
    const result = classifyError(new TypeError("Cannot read properties of undefined (reading 'id')"));
    expect(result).toEqual({
      status: 500,
      body: { message: 'Internal server error', code: 'INTERNAL', error: 'internal' },
      internal: true,
    });
    expect(classifyError('a thrown string').status).toBe(500);
    expect(classifyError(undefined).status).toBe(500);
  });
});

describe('error ids', () => {
  test("each code's default id", () => {
    const defaults: Record<ApiErrorCode, string> = {
      BAD_REQUEST: 'validation',
      UNAUTHORIZED: 'unauthenticated',
      FORBIDDEN: 'forbidden',
      NOT_FOUND: 'not-found',
      CONFLICT: 'conflict',
      PAYLOAD_TOO_LARGE: 'payload-too-large',
      HEADERS_TOO_LARGE: 'headers-too-large',
      REQUEST_TIMEOUT: 'request-timeout',
      UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
      TOO_MANY_REQUESTS: 'rate-limited',
      UNPROCESSABLE: 'idempotency-mismatch',
      SERVICE_UNAVAILABLE: 'service-unavailable',
      INTERNAL: 'internal',
    };
    for (const code of API_ERROR_CODES) {
      expect(classifyError(new AppError(code, 'x')).body, code).toMatchObject({
        code,
        error: defaults[code],
      });
    }
  });

  test('every published id belongs to one code, and every default id to its own', () => {
    expect(Object.keys(CODE_OF_ERROR_ID).sort()).toEqual([...API_ERROR_IDS].sort());
    for (const code of API_ERROR_CODES) expect(CODE_OF_ERROR_ID[DEFAULT_ERROR_ID[code]]).toBe(code);
  });

  test('a precise id rides on its AppError, also when tRPC wrapped it, beside the details', () => {
    const lacksScope = new AppError('FORBIDDEN', integrationMessages.lacksScope('users:read'), undefined, {
      error: 'missing-scope',
    });
    const expected = {
      status: 403,
      body: {
        message: integrationMessages.lacksScope('users:read'),
        code: 'FORBIDDEN',
        error: 'missing-scope',
      },
      internal: false,
    };
    expect(classifyError(lacksScope)).toEqual(expected);
    expect(classifyError(new TRPCError({ code: 'INTERNAL_SERVER_ERROR', cause: lacksScope }))).toEqual(
      expected,
    );

    const missing = [{ formId: '00000000-0000-4000-8000-000000000001', label: 'Disclosure' }];
    const notCompliant = new AppError('CONFLICT', 'Not compliant', undefined, {
      error: 'not-compliant',
      missing,
    });
    expect(notCompliant.details).toEqual({ missing });
    // @ts-expect-error: an id is only ever answered with its own code.
    new AppError('CONFLICT', 'x', undefined, { error: 'missing-scope' });
    expect(classifyError(notCompliant).body).toEqual({
      message: 'Not compliant',
      code: 'CONFLICT',
      error: 'not-compliant',
      missing,
    });
  });

  test('zod, tRPC and Fastify failures carry the id of their code', () => {
    const invalid = z.object({ n: z.number() }).safeParse({ n: 'x' }).error;
    expect(classifyError(invalid).body.error).toBe('validation');
    expect(classifyError(new TRPCError({ code: 'UNAUTHORIZED' })).body.error).toBe('unauthenticated');
    expect(classifyError(new TRPCError({ code: 'METHOD_NOT_SUPPORTED' })).body.error).toBe('validation');
    const fastify = (statusCode: number, code = '') => Object.assign(new Error('x'), { statusCode, code });
    expect(classifyError(fastify(413, 'FST_ERR_CTP_BODY_TOO_LARGE')).body.error).toBe('payload-too-large');
    expect(classifyError(fastify(415, 'FST_ERR_CTP_INVALID_MEDIA_TYPE')).body.error).toBe(
      'unsupported-media-type',
    );
    expect(classifyError(fastify(429)).body.error).toBe('rate-limited');
    expect(classifyError(prismaError('P2002')).body.error).toBe('conflict');
    expect(classifyError(prismaError('P2025')).body.error).toBe('not-found');
    expect(classifyError(Object.assign(new Error('x'), { code: 'ECONNREFUSED' })).body.error).toBe(
      'service-unavailable',
    );
  });
});

describe('describeErrorForLog', () => {
  test('gives type, code and first line; withholds SQL and connection passwords; never a stack', () => {
    const error = Object.assign(
      new Error('duplicate key value violates unique constraint\nDETAIL: Key (email)=(a@b.c)'),
      {
        code: '23505',
      },
    );
    expect(describeErrorForLog(error)).toEqual({
      type: 'Error',
      code: '23505',
      message: 'duplicate key value violates unique constraint',
    });
    expect(describeErrorForLog(new Error('SELECT * FROM users WHERE id = 1 failed')).message).toBe(
      '[withheld: the message quotes SQL]',
    );
    expect(
      describeErrorForLog(new Error('cannot reach postgresql://app:hunter2@db:5432/portal')).message,
    ).toBe('cannot reach postgresql://***@db:5432/portal');
    expect(JSON.stringify(describeErrorForLog(new Error('x')))).not.toContain('at ');
  });
});
