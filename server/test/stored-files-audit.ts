import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { runSql } from './databases';
import type { S3TestServer } from './s3-server';

/**
 * Files against rows: every stored file (under DATA_DIR/uploads, or in the S3 bucket) must have
 * its stored_files row, every stored_files row and every form's file_key its file (but a purged
 * transaction's), and no half-written file (a `.partial` file, a multipart upload neither
 * completed nor aborted) may be left behind. Empty lists mean storage and database agree.
 */

export type StoredFilesAudit = {
  files: number;
  rows: number;
  filesWithoutRow: string[];
  rowsWithoutFile: string[];
  formKeysWithoutFile: string[];
  formKeysWithoutRow: string[];
  /** Local: `.partial` files. S3: keys of pending multipart uploads. */
  partialFiles: string[];
};

/** An audit where storage and database agree: every list empty (`expect(audit).toMatchObject(...)`). */
export const STORAGE_AND_ROWS_AGREE = {
  filesWithoutRow: [],
  rowsWithoutFile: [],
  formKeysWithoutFile: [],
  formKeysWithoutRow: [],
  partialFiles: [],
} as const satisfies Partial<StoredFilesAudit>;

/**
 * Runs `work` while PostgreSQL refuses every new stored_files row the way a client sees it when
 * the database goes away mid-request (SQLSTATE 57P01, admin shutdown); the refusal is lifted after.
 */
export async function whileStoredFileRowsRefused<T>(databaseUrl: string, work: () => Promise<T>): Promise<T> {
  await runSql(
    databaseUrl,
    `CREATE FUNCTION refuse_stored_file() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'shutting down' USING ERRCODE = '57P01'; END $$;
     CREATE TRIGGER refuse_stored_file BEFORE INSERT ON stored_files
       FOR EACH ROW EXECUTE FUNCTION refuse_stored_file();`,
  );
  try {
    return await work();
  } finally {
    await runSql(
      databaseUrl,
      'DROP TRIGGER refuse_stored_file ON stored_files; DROP FUNCTION refuse_stored_file();',
    );
  }
}

/** Every file below `root`, as keys (paths relative to root with forward slashes). */
async function keysUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return []; // nothing was ever uploaded
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'));
}

export async function auditStoredFiles(databaseUrl: string, dataDir: string): Promise<StoredFilesAudit> {
  const onDisk = await keysUnder(path.join(dataDir, 'uploads'));
  return compareWithRows(
    databaseUrl,
    onDisk.filter((key) => !key.endsWith('.partial')),
    onDisk.filter((key) => key.endsWith('.partial')),
  );
}

/** The same audit for the S3 driver: the bucket's objects and its pending multipart uploads. */
export async function auditStoredFilesInBucket(
  databaseUrl: string,
  s3: Pick<S3TestServer, 'objectKeys' | 'pendingUploads' | 'bucket'>,
  bucket = s3.bucket,
): Promise<StoredFilesAudit> {
  const [objects, pending] = await Promise.all([s3.objectKeys({ bucket }), s3.pendingUploads(bucket)]);
  return compareWithRows(databaseUrl, objects, pending);
}

async function compareWithRows(
  databaseUrl: string,
  stored: string[],
  partialFiles: string[],
): Promise<StoredFilesAudit> {
  const files = new Set(stored);
  const rows = new Set(
    (await runSql<{ key: string }>(databaseUrl, 'SELECT key FROM stored_files')).map((row) => row.key),
  );
  const formKeys = (
    await runSql<{ file_key: string }>(
      databaseUrl,
      // A transaction purged after its retention keeps its forms' keys, without their files.
      `SELECT DISTINCT f.file_key FROM transaction_forms f JOIN transactions t ON t.id = f.transaction_id
        WHERE f.file_key IS NOT NULL AND t.purged_at IS NULL`,
    )
  ).map((row) => row.file_key);
  return {
    files: files.size,
    rows: rows.size,
    filesWithoutRow: [...files].filter((key) => !rows.has(key)),
    rowsWithoutFile: [...rows].filter((key) => !files.has(key)),
    formKeysWithoutFile: formKeys.filter((key) => !files.has(key)),
    formKeysWithoutRow: formKeys.filter((key) => !rows.has(key)),
    partialFiles,
  };
}
