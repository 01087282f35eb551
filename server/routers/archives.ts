import { z } from 'zod';
import { apiMessages } from '../../shared/messages';
import {
  archiveAnswer,
  archiveInput,
  archivePublicKeyAnswer,
  archiveVerdict,
} from '../../shared/schemas/archives';
import { archiveOf, archivePublicKey } from '../services/archives/answers';
import { verifyUploadedArchive } from '../services/archives/verify-upload';
import type { IncomingUpload } from '../services/uploads';
import { protectedProcedure, publicProcedure, router } from '../trpc/init';
import examples from './archives.examples.json';

/**
 * Closed files' archives. The zip itself (GET /api/transactions/{id}/archive) and the verifier's
 * upload (POST /api/archive/verify) are routes of their own (server/plugins/archives.ts) that call
 * `status` and `verify` first, as every transport calls a procedure.
 */

/** The file of a multipart body, handed over unread (a JSON call cannot carry one: 400). */
const incomingUpload = z.custom<IncomingUpload>(
  (value) =>
    typeof value === 'object' && value !== null && typeof (value as IncomingUpload).receive === 'function',
  apiMessages.fileRequired,
);

export const archivesRouter = router({
  /** The current close's archive, for the transaction pages' card; null while the file is open. */
  status: protectedProcedure
    .input(archiveInput)
    .output(archiveAnswer)
    .query(({ ctx, input }) => archiveOf(ctx, input)),

  publicKey: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/archive/public-key',
        summary: "The public key archives' manifests are signed with (Ed25519, PEM SPKI; no sign-in)",
        tag: 'archives',
        scope: 'any',
        examples: examples.publicKey,
      },
    })
    .output(archivePublicKeyAnswer)
    .query(({ ctx }) => archivePublicKey(ctx)),

  verify: protectedProcedure
    .input(z.object({ file: incomingUpload }))
    .output(archiveVerdict)
    .mutation(({ ctx, input }) => verifyUploadedArchive(ctx, input)),
});
