import { z } from 'zod';
import { apiMessages, intakeMessages } from '../../shared/messages';
import { transactionIdInput, uploadAnswer } from '../../shared/schemas/transactions';
import { type IncomingPhoto, uploadTransactionPhotos } from '../services/intake/photos';
import * as uploads from '../services/uploads';
import { ownerProcedure, protectedProcedure, router } from '../trpc/init';

/**
 * Uploads. The multipart routes (server/plugins/uploads.ts) call these procedures as every
 * transport calls one, with the fields they parsed and a handle on the body's file: the base
 * procedure says who is calling, the service who may upload where, before a byte of the file is
 * read. A JSON call (tRPC over HTTP or a WebSocket) cannot carry a handle, so it is refused as
 * invalid input once the caller is known.
 */

const isObject = (value: unknown): value is Record<string | symbol, unknown> =>
  typeof value === 'object' && value !== null;

/** The file of a multipart body, handed over unread. */
const incomingUpload = z.custom<uploads.IncomingUpload>(
  (value) => isObject(value) && typeof value.receive === 'function',
  apiMessages.fileRequired,
);

/** The photos of a multipart body, read one at a time as the service asks for them. */
const incomingPhotos = z.custom<AsyncIterable<IncomingPhoto>>(
  (value) => isObject(value) && typeof value[Symbol.asyncIterator] === 'function',
  intakeMessages.imagesRequired,
);

export const uploadsRouter = router({
  transactionDocument: protectedProcedure
    .input(transactionIdInput.extend({ file: incomingUpload }))
    .output(uploadAnswer)
    .mutation(({ ctx, input }) => uploads.uploadTransactionDocument(ctx, input)),

  transactionPhotos: protectedProcedure
    .input(transactionIdInput.extend({ name: z.string().optional(), photos: incomingPhotos }))
    .output(uploadAnswer)
    .mutation(({ ctx, input }) => uploadTransactionPhotos(ctx, input)),

  libraryForm: ownerProcedure
    .input(z.object({ file: incomingUpload }))
    .output(uploadAnswer)
    .mutation(({ ctx, input }) => uploads.uploadLibraryForm(ctx, input)),
});
