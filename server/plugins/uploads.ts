import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apiMessages } from '../../shared/messages';
import { apiError } from '../../shared/schemas/common';
import { type UploadAnswer, uploadAnswer } from '../../shared/schemas/transactions';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import type { UploadTarget } from '../routers/uploads';
import { SNIFF_BYTES, sniffAcceptedType } from '../storage/file-types';
import { downloadName, libraryFileKey, transactionFileKey } from '../storage/keys';
import { createContext } from '../trpc/context';
import { createCaller } from '../trpc/router';

/**
 * The two multipart routes of DESIGN.md section 5: POST /api/uploads/transactions/{id} and
 * POST /api/uploads/forms. The file streams from the socket to storage (never whole in memory);
 * its type is decided by its first bytes (415 otherwise) and its size by what arrived (413, and
 * nothing is kept). Who may upload is decided first, by a tRPC procedure, before a byte is read.
 */

const UPLOAD_STREAM_BUFFER_BYTES = 128 * 1024;

/** The first `bytes` of the stream (or all of it when shorter); the stream stays readable. */
function readHead(stream: Readable, bytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // The parser may have failed the part before it was handed over (a body that ends inside a
    // later part): such a stream never emits again, and waiting on it would hold the request forever.
    if (stream.destroyed) {
      reject(new AppError('BAD_REQUEST', apiMessages.uploadMalformed));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = () => reject(new AppError('BAD_REQUEST', apiMessages.uploadMalformed));
    const finish = () => {
      stream.off('data', onData);
      stream.off('end', finish);
      stream.off('error', fail);
      stream.pause();
      resolve(Buffer.concat(chunks));
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= bytes) finish();
    };
    stream.on('data', onData);
    stream.once('end', finish);
    stream.once('error', fail);
  });
}

async function* headThenRest(head: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  if (head.length) yield head;
  try {
    for await (const chunk of rest) yield chunk as Buffer;
  } catch {
    // The request's body failed (not the storage): storage.put removes what it wrote.
    throw new AppError('BAD_REQUEST', apiMessages.uploadMalformed);
  }
}

async function receive(
  deps: AppDeps,
  req: FastifyRequest,
  target: UploadTarget,
  keyFor: (fileName: string, extension: string) => string,
): Promise<UploadAnswer> {
  let part: Awaited<ReturnType<FastifyRequest['file']>>;
  try {
    part = await req.file({
      // busboy never finishes a body when a part it skips (one whose filename holds a bare line
      // break, say) gets more than this in one write that also ends the part: the request would
      // hang forever (17 KiB did it with the 16 KiB default). A socket hands over at most 64 KiB
      // at a time, so twice that is never reached.
      fileHwm: UPLOAD_STREAM_BUFFER_BYTES,
      limits: { fileSize: deps.config.maxUploadBytes, files: 1, fields: 0 },
    });
  } catch (error) {
    // Not multipart, or a multipart header the parser cannot use (no boundary, one too long: plain
    // Errors from busboy). Both are the request's fault; limit errors keep their own status.
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || statusCode === undefined) {
      throw new AppError('BAD_REQUEST', apiMessages.fileRequired);
    }
    throw error;
  }
  if (part?.fieldname !== 'file') throw new AppError('BAD_REQUEST', apiMessages.fileRequired);

  const head = await readHead(part.file, SNIFF_BYTES);
  const type = await sniffAcceptedType(head);
  if (!type) {
    part.file.resume(); // let the rest of the request body drain
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', apiMessages.fileTypeRefused);
  }
  const key = keyFor(part.filename, type.ext);
  const { size } = await deps.storage.put(key, Readable.from(headThenRest(head, part.file)), {
    contentType: type.mime,
  });
  // @fastify/multipart ends the stream early and flags it instead of failing (DESIGN.md trap).
  if (part.file.truncated) {
    await deps.storage.delete(key);
    throw new AppError('PAYLOAD_TOO_LARGE', apiMessages.fileTooLarge);
  }
  await recordStoredFile(deps, { key, size, contentType: type.mime, ...target });
  return {
    key,
    url: await deps.storage.signedUrl(key),
    name: downloadName(key),
    size,
    contentType: type.mime,
  };
}

/**
 * The file's row in stored_files. Should the database refuse it (down, say), the file is removed
 * again and the error answers (503): a file never outlives a failed upload without its row.
 */
async function recordStoredFile(
  deps: AppDeps,
  file: UploadTarget & { key: string; size: number; contentType: string },
): Promise<void> {
  try {
    await deps.db.storedFile.create({ data: file });
  } catch (error) {
    await deps.storage.delete(file.key);
    throw error;
  }
}

const responses = {
  201: uploadAnswer,
  '4XX': apiError.describe('401, 403, 404, 400 no file, 413 too large, 415 type not accepted'),
};

export const uploadRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/uploads/transactions/:id',
    {
      schema: {
        summary: 'Upload a document of a transaction (multipart field `file`)',
        description:
          'PDF, PNG, JPEG, GIF, WebP, DOCX or XLSX, up to MAX_UPLOAD_MB. Access: the agent of the transaction, or an admin.',
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        params: z.object({ id: z.string() }),
        security: [{ bearerAuth: [] }],
        response: responses,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const caller = createCaller(await createContext(deps, req));
      const target = await caller.uploads.transactionTarget({ id });
      const answer = await receive(deps, req, target, (name, ext) => transactionFileKey(id, name, ext));
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/api/uploads/forms',
    {
      schema: {
        summary: 'Upload a file for the forms library (multipart field `file`)',
        description:
          'PDF, PNG, JPEG, GIF, WebP, DOCX or XLSX, up to MAX_UPLOAD_MB. Access: the owner account only.',
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        security: [{ bearerAuth: [] }],
        response: responses,
      },
    },
    async (req, reply) => {
      const caller = createCaller(await createContext(deps, req));
      const target = await caller.uploads.libraryTarget();
      const answer = await receive(deps, req, target, libraryFileKey);
      return reply.code(201).send(answer);
    },
  );
};
