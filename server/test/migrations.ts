import { cp, mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { migrate } from '../db/migrate';
import { MIGRATIONS_DIR } from '../paths';

/**
 * Migrates a database up to just before the migration `name`, so a test can write rows in the
 * shape they had then and see what that migration (and those after it) make of them.
 */
export async function migrateUpToBefore(databaseUrl: string, name: string): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'portal-migrations-before-'));
  for (const entry of (await readdir(MIGRATIONS_DIR)).filter((entry) => entry < name && /^\d/.test(entry))) {
    await cp(path.join(MIGRATIONS_DIR, entry), path.join(dir, entry), { recursive: true });
  }
  await migrate(databaseUrl, { dir });
}
