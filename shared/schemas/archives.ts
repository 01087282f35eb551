import { z } from 'zod';
import { idSchema } from './common';

/** A closed transaction's archive: GET /api/transactions/{id}/archive serves it once ready. */
export const archiveStatus = z.enum(['preparing', 'ready', 'failed']);
export type ArchiveStatus = z.infer<typeof archiveStatus>;

export const archiveInput = z.object({ id: idSchema });

/** The archive of the file's current close; null while the file is open. */
export const archiveAnswer = z
  .object({
    status: archiveStatus,
    closedAt: z.string(),
    sealedAt: z.string().nullable(),
    /** Hex SHA-256 of the zip's bytes, once sealed. */
    sha256: z.string().nullable(),
    bytes: z.number().int().nullable(),
  })
  .nullable();
export type ArchiveAnswer = z.infer<typeof archiveAnswer>;

export const archivePublicKeyAnswer = z.object({
  algorithm: z.literal('Ed25519'),
  /** PEM, SubjectPublicKeyInfo. */
  publicKey: z.string(),
});
export type ArchivePublicKeyAnswer = z.infer<typeof archivePublicKeyAnswer>;

/** POST /api/archive/verify: each problem names the entry or signature that does not match. */
export const archiveVerdict = z.object({ valid: z.boolean(), problems: z.array(z.string()) });
export type ArchiveVerdictAnswer = z.infer<typeof archiveVerdict>;
