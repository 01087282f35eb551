import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { runSql } from './databases';

/**
 * Files against rows for the local storage driver: every file under DATA_DIR/uploads must have
 * its stored_files row, every stored_files row and every form's file_key its file, and no
 * half-written `.partial` file may be left behind. Empty lists mean storage and database agree.
 */

export type StoredFilesAudit = {
  files: number;
  rows: number;
  filesWithoutRow: string[];
  rowsWithoutFile: string[];
  formKeysWithoutFile: string[];
  formKeysWithoutRow: string[];
  partialFiles: string[];
};

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
  const partialFiles = onDisk.filter((key) => key.endsWith('.partial'));
  const files = new Set(onDisk.filter((key) => !key.endsWith('.partial')));
  const rows = new Set(
    (await runSql<{ key: string }>(databaseUrl, 'SELECT key FROM stored_files')).map((row) => row.key),
  );
  const formKeys = (
    await runSql<{ file_key: string }>(
      databaseUrl,
      'SELECT DISTINCT file_key FROM transaction_forms WHERE file_key IS NOT NULL',
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
