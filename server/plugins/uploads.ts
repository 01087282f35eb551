import type { MultipartFile, MultipartValue } from '@fastify/multipart';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ACCEPTED_FILE_TYPES_TEXT } from '../../shared/file-types';
import { apiMessages, intakeMessages } from '../../shared/messages';
import { MAX_IMAGES_PER_UPLOAD, MAX_PHOTOS_NAME } from '../../shared/schemas/intake';
import { uploadAnswer } from '../../shared/schemas/transactions';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { BEARER, type OperationFacts } from '../rest/openapi';
import { assertKeyMayCall, type PathScope, scopeOfRoute } from '../rest/scopes';
import type { ServiceContext } from '../services/context';
import type { IncomingPhoto } from '../services/intake/photos';
import type { IncomingFile, IncomingUpload } from '../services/uploads';
import { contextOfRequest } from '../trpc/context';
import { callProcedure } from '../trpc/internals';
import { appRouter } from '../trpc/router';
import examples from './uploads.examples.json';

/**
 * The multipart routes: POST /api/uploads/transactions/{id}, POST /api/uploads/forms and POST
 * /api/uploads/transactions/{id}/images. This is the transport: it reads the caller and the
 * fields, and calls the upload procedure (server/routers/uploads.ts) the way every transport calls
 * a procedure (callProcedure), with a handle on the body's file. The service decides who may
 * upload before it takes a byte through that handle, then stores and records the file.
 */

/**
 * busboy never finishes a body when a part it skips (one whose filename holds a bare line break,
 * say) gets more than this in one write that also ends the part: the request would hang forever
 * (17 KiB did it with the 16 KiB default). A socket hands over at most 64 KiB at a time, so twice
 * that is never reached.
 */
const UPLOAD_STREAM_BUFFER_BYTES = 128 * 1024;

/** A field's name as the error quotes it back: short, and JSON-quoted so nothing in it can mislead. */
function quoted(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 39)}…` : name);
}

/** A part besides the file: named back when it has a name (busboy hands nameless parts over too). */
function extraPart(part: Part): AppError {
  const name: unknown = part.fieldname;
  return typeof name === 'string' && name !== '' && part.type === 'field'
    ? new AppError('BAD_REQUEST', `Unexpected field ${quoted(name)}: ${apiMessages.uploadOneFileOnly}`)
    : new AppError('BAD_REQUEST', apiMessages.uploadOneFileOnly);
}

/** The parser's errors, as the client's mistakes they are (its limits would otherwise say 413). */
function partError(error: unknown): unknown {
  if (error instanceof AppError) return error;
  const { code, statusCode } = error as { code?: string; statusCode?: number };
  // The one file and at most one other part are read (the limits below): more is a part too many.
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return new AppError('BAD_REQUEST', apiMessages.uploadOneFileOnly);
  }
  // Plain Errors from busboy: a body that is not well-formed multipart data.
  if (statusCode === undefined) return new AppError('BAD_REQUEST', apiMessages.uploadMalformed);
  return error;
}

type Part = MultipartFile | MultipartValue;

/** The one file of the body, parsed when the service asks for it. */
const incomingUpload = (ctx: ServiceContext, req: FastifyRequest): IncomingUpload => ({
  receive: () => receive(ctx, req),
});

async function receive(ctx: ServiceContext, req: FastifyRequest): Promise<IncomingFile> {
  const parts = req.parts({
    fileHwm: UPLOAD_STREAM_BUFFER_BYTES,
    // One file, plus one more part at most: enough to name what should not be there.
    limits: { fileSize: ctx.deps.config.maxUploadBytes, files: 1, fields: 1, parts: 2, fieldSize: 1024 },
  }) as AsyncIterator<Part>;
  let first: IteratorResult<Part>;
  try {
    first = await parts.next();
  } catch (error) {
    // Not multipart, or a multipart header the parser cannot use (no boundary, one too long).
    const { code, statusCode } = error as { code?: string; statusCode?: number };
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE' || statusCode === undefined) {
      throw new AppError('BAD_REQUEST', apiMessages.fileRequired);
    }
    throw partError(error);
  }
  const part = first.done ? undefined : first.value;
  // A field first: named back, unless it is the `file` field sent as text, or has no name.
  if (part?.type === 'field' && part.fieldname && part.fieldname !== 'file') throw extraPart(part);
  if (part?.type !== 'file' || part.fieldname !== 'file')
    throw new AppError('BAD_REQUEST', apiMessages.fileRequired);

  const file: IncomingFile = {
    filename: part.filename,
    bytes: part.file,
    async finish() {
      let next: IteratorResult<Part>;
      try {
        next = await parts.next();
      } catch (error) {
        throw partError(error);
      }
      if (!next.done) {
        if (next.value.type === 'file') next.value.file.resume();
        throw extraPart(next.value);
      }
      // Past the size limit @fastify/multipart ends the stream early and flags it instead of failing:
      // the flag is what tells a whole file from a cut one.
      return { truncated: part.file.truncated };
    },
  };
  return file;
}

/**
 * The photos of POST /api/uploads/transactions/{id}/images: every part a file named `file`, each
 * read whole (at most MAX_UPLOAD_MB) and handed over in order; the service decides the rest.
 */
async function* photosOf(ctx: ServiceContext, req: FastifyRequest): AsyncGenerator<IncomingPhoto> {
  const parts = req.parts({
    fileHwm: UPLOAD_STREAM_BUFFER_BYTES,
    // One photo more than allowed is read, so the service can say how many are allowed.
    limits: {
      fileSize: ctx.deps.config.maxUploadBytes,
      files: MAX_IMAGES_PER_UPLOAD + 1,
      fields: 1,
      parts: MAX_IMAGES_PER_UPLOAD + 2,
      fieldSize: 1024,
    },
  }) as AsyncIterator<Part>;
  for (;;) {
    let next: IteratorResult<Part>;
    try {
      next = await parts.next();
    } catch (error) {
      const { code, statusCode } = error as { code?: string; statusCode?: number };
      if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE')
        throw new AppError('BAD_REQUEST', intakeMessages.imagesRequired);
      if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
        throw new AppError('BAD_REQUEST', intakeMessages.tooManyImages(MAX_IMAGES_PER_UPLOAD));
      if (statusCode === undefined) throw new AppError('BAD_REQUEST', apiMessages.uploadMalformed);
      throw partError(error);
    }
    if (next.done) return;
    const part = next.value;
    if (part.type !== 'file' || part.fieldname !== 'file') {
      if (part.type === 'file') part.file.resume();
      throw part.type === 'field' && part.fieldname
        ? new AppError(
            'BAD_REQUEST',
            `Unexpected field ${quoted(part.fieldname)}: each photo is a part named "file"`,
          )
        : new AppError('BAD_REQUEST', intakeMessages.imagesRequired);
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (error) {
      // toBuffer refuses a part cut at the size limit; the service names the photo.
      if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
        yield { bytes: Buffer.alloc(0), truncated: true };
        return;
      }
      throw new AppError('BAD_REQUEST', apiMessages.uploadMalformed);
    }
    yield { bytes, truncated: part.file.truncated };
  }
}

const responses = { 201: uploadAnswer };
/** 400: no file, or a part besides it; 413 larger than MAX_UPLOAD_MB; 415 a type not accepted. */
const uploadFacts = (
  operationId: keyof typeof examples,
  errors: OperationFacts['x-errors'],
  scope: PathScope,
): OperationFacts => ({
  operationId,
  security: BEARER,
  'x-errors': errors,
  'x-multipart-file': 'file',
  'x-api-key-scope': scope,
  'x-examples': examples[operationId],
});
const ACCEPTED = `${ACCEPTED_FILE_TYPES_TEXT}, up to MAX_UPLOAD_MB; the one part of the body, named \`file\`.`;

/**
 * `?links=same-origin`: the answer's `url` is a site-relative /files/ path when this server serves
 * the file (local storage), as /trpc answers give it; the portal's own pages ask for it so a wrong
 * APP_URL cannot break the link. Without it (integrators) the url is absolute, as documented.
 */
const linksQuery = z.object({
  links: z
    .enum(['absolute', 'same-origin'])
    .optional()
    .describe('same-origin: a /files/ path instead of an APP_URL link for local files (default absolute)'),
});

/** The photos' PDF takes the name given (the portal sends the item's label and the day). */
const photosQuery = linksQuery.extend({
  name: z
    .string()
    .max(MAX_PHOTOS_NAME, intakeMessages.photosNameTooLong(MAX_PHOTOS_NAME))
    .optional()
    .describe(
      "The PDF's file name without `.pdf`, e.g. `Inspection Report 2026-12-02` (made safe for a file name); default `photos`",
    ),
});

/** The caller of an upload; an API key needs the path's scope (its x-api-key-scope), like any /api path. */
async function uploadContext(deps: AppDeps, req: FastifyRequest) {
  const { links } = (req.query ?? {}) as { links?: unknown };
  const ctx = await contextOfRequest(deps, req, {
    acceptsApiKeys: true,
    ...(links === 'same-origin' ? { fileLinks: 'same-origin' as const } : {}),
  });
  assertKeyMayCall(ctx, scopeOfRoute(req));
  return ctx;
}

export const uploadRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  await app.register(multipart, { throwFileSizeLimit: false });

  app.post(
    '/api/uploads/transactions/:id',
    {
      schema: {
        summary: 'Upload a document of a transaction (multipart field `file`)',
        description: `${ACCEPTED} Access: the agent of the transaction, or an admin.`,
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        params: z.object({ id: z.string() }),
        querystring: linksQuery,
        ...uploadFacts(
          'uploadsTransactionDocument',
          [400, 401, 403, 404, 409, 413, 415, 429],
          'transactions:write',
        ),
        response: responses,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const ctx = await uploadContext(deps, req);
      const input = { id, file: incomingUpload(ctx, req) };
      const answer = await callProcedure({
        router: appRouter,
        path: 'uploads.transactionDocument',
        type: 'mutation',
        ctx,
        input,
      });
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/api/uploads/transactions/:id/images',
    {
      schema: {
        summary: 'Photos of one document as one PDF (multipart: 1-30 parts, each named `file`)',
        description:
          "JPEG, PNG or WebP photos (HEIC when the server can decode it), each up to MAX_UPLOAD_MB, in page order: one PDF, a page per photo, turned upright by its EXIF orientation and scaled to at most 2,000 px on its longest side. The answer is an upload's, for that PDF. Access: the agent of the transaction, or an admin.",
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        params: z.object({ id: z.string() }),
        querystring: photosQuery,
        ...uploadFacts(
          'uploadsTransactionPhotos',
          [400, 401, 403, 404, 409, 413, 415, 429],
          'transactions:write',
        ),
        response: responses,
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const ctx = await uploadContext(deps, req);
      // Read by hand like `links`: the route's schema documents the query, the procedure checks it.
      const { name } = req.query as { name?: unknown };
      const input = { id, name, photos: photosOf(ctx, req) };
      const answer = await callProcedure({
        router: appRouter,
        path: 'uploads.transactionPhotos',
        type: 'mutation',
        ctx,
        input,
      });
      return reply.code(201).send(answer);
    },
  );

  app.post(
    '/api/uploads/forms',
    {
      schema: {
        summary: 'Upload a file for the forms library (multipart field `file`)',
        description: `${ACCEPTED} Access: the owner account only.`,
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        querystring: linksQuery,
        ...uploadFacts('uploadsLibraryForm', [400, 401, 403, 413, 415, 429], 'libraries:write'),
        response: responses,
      },
    },
    async (req, reply) => {
      const ctx = await uploadContext(deps, req);
      const input = { file: incomingUpload(ctx, req) };
      const answer = await callProcedure({
        router: appRouter,
        path: 'uploads.libraryForm',
        type: 'mutation',
        ctx,
        input,
      });
      return reply.code(201).send(answer);
    },
  );
};
