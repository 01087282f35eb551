import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apiMessages } from '../../shared/messages';
import { type ArchiveAnswer, archiveVerdict } from '../../shared/schemas/archives';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { BEARER } from '../rest/openapi';
import { assertKeyMayCall, scopeOfRoute } from '../rest/scopes';
import examples from '../routers/archives.examples.json';
import { openArchive } from '../services/archives/answers';
import type { IncomingUpload } from '../services/uploads';
import { contextOfRequest } from '../trpc/context';
import { callProcedure } from '../trpc/internals';
import { appRouter } from '../trpc/router';

/**
 * The archive routes that are not JSON in and out:
 * - GET /api/transactions/{id}/archive: the sealed zip of the file's current close, streamed
 *   from storage as an attachment, after archives.status has said the caller may see the file;
 * - POST /api/archive/verify: a zip as the multipart part `file`, checked by archives.verify.
 * Registered inside the REST plugin, so the OpenAPI document lists them.
 */

async function callerOf(deps: AppDeps, req: FastifyRequest) {
  const ctx = await contextOfRequest(deps, req, { acceptsApiKeys: true });
  assertKeyMayCall(ctx, scopeOfRoute(req));
  return ctx;
}

/** The one file of the body, as the uploads read it (same limits and refusals). */
function incomingZip(deps: AppDeps, req: FastifyRequest): IncomingUpload {
  return {
    async receive() {
      let file: Awaited<ReturnType<FastifyRequest['file']>>;
      try {
        file = await req.file({
          limits: { fileSize: deps.config.maxUploadBytes, files: 1, fields: 0, parts: 1 },
        });
      } catch {
        throw new AppError('BAD_REQUEST', apiMessages.fileRequired);
      }
      if (file?.fieldname !== 'file') {
        file?.file.resume();
        throw new AppError('BAD_REQUEST', apiMessages.fileRequired);
      }
      return {
        filename: file.filename,
        bytes: file.file,
        finish: async () => ({ truncated: file.file.truncated }),
      };
    },
  };
}

export const archiveRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  await app.register(multipart, { throwFileSizeLimit: false });

  app.get(
    '/api/transactions/:id/archive',
    {
      schema: {
        summary:
          "A closed transaction's sealed archive (zip: documents, file.pdf, audit trail, signed manifest)",
        description:
          'The archive of the current close, as an attachment. 409 `Close the transaction first` while the ' +
          'file is open, `The archive is being prepared` until it is sealed. Access: admins whose offices ' +
          "reach the file, its agent and the agent's coordinators; 404 for anyone else.",
        tags: ['archives'],
        params: z.object({ id: z.string() }),
        operationId: 'archivesDownload',
        security: BEARER,
        'x-errors': [400, 401, 403, 404, 409, 429],
        'x-api-key-scope': 'transactions:read',
        response: {
          200: { description: 'The zip', content: { 'application/zip': { schema: z.string() } } },
        },
      },
    },
    async (req, reply) => {
      const { id } = req.params as { id: string };
      const ctx = await callerOf(deps, req);
      // Who may, and the id's shape: the procedure decides, as for every other transport.
      const answer = (await callProcedure({
        router: appRouter,
        path: 'archives.status',
        type: 'query',
        ctx,
        input: { id },
      })) as ArchiveAnswer;
      const file = await openArchive(ctx, id, answer);
      reply
        .header('content-type', 'application/zip')
        .header('content-length', String(file.size))
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff');
      if (file.sha256) reply.header('x-archive-sha256', file.sha256);
      // HEAD discards the body: the stream is not read.
      if (req.method === 'HEAD') {
        file.body.destroy();
        return reply.send('');
      }
      return reply.send(file.body);
    },
  );

  app.post(
    '/api/archive/verify',
    {
      schema: {
        summary: "Check an archive's signature, files and audit trail (multipart field `file`)",
        description:
          'Any signed-in user. The zip, up to MAX_UPLOAD_MB, as the one part named `file`. `problems` names ' +
          'each entry or signature that does not match (e.g. `documents/... does not match its sha256`, ' +
          '`manifest.sig does not match`); 400 when the file is not a zip.',
        tags: ['archives'],
        consumes: ['multipart/form-data'],
        operationId: 'archivesVerify',
        security: BEARER,
        'x-errors': [400, 401, 413, 415, 429],
        'x-multipart-file': 'file',
        'x-api-key-scope': 'any',
        'x-examples': examples.verify,
        response: { 200: archiveVerdict },
      },
    },
    async (req, reply) => {
      const ctx = await callerOf(deps, req);
      const input = { file: incomingZip(deps, req) };
      const answer = await callProcedure({
        router: appRouter,
        path: 'archives.verify',
        type: 'mutation',
        ctx,
        input,
      });
      return reply.send(answer);
    },
  );
};
