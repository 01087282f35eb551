import { z } from 'zod';

/**
 * The layout of a closed file's archive (docs/API.md, "Archives"): manifest.json lists every
 * other entry with its sha256 and size, manifest.sig signs manifest.json's exact bytes.
 */

export const MANIFEST_PATH = 'manifest.json';
export const SIGNATURE_PATH = 'manifest.sig';
export const AUDIT_JSON_PATH = 'audit.json';
export const AUDIT_CSV_PATH = 'audit.csv';
export const FILE_PDF_PATH = 'file.pdf';
export const DOCUMENTS_FOLDER = 'documents/';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestFile = z.object({
  path: z.string().min(1),
  sha256: sha256Hex,
  bytes: z.number().int().nonnegative(),
});
export type ManifestFile = z.infer<typeof manifestFile>;

export const archiveManifest = z.object({
  transactionId: z.string(),
  closedAt: z.string(),
  sealedAt: z.string(),
  files: z.array(manifestFile),
  /** The hash of the last event of audit.json: where the archive joins the installation's chain. */
  auditHash: z.string().nullable(),
});
export type ArchiveManifest = z.infer<typeof archiveManifest>;

/** manifest.json's bytes as written: two-space indented JSON and a final line break. */
export function manifestBytes(manifest: ArchiveManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`, 'utf8');
}
