import { describe, expect, test } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrate } from './migrate';

const database = setupTestDatabase({ empty: true });
const jitOfNewSession = async () =>
  (await runSql<{ jit: string }>(database.url, `SELECT current_setting('jit') AS jit`))[0]?.jit;

describe('JIT compilation', () => {
  test('is off for the sessions the migrated database starts, on whatever the server defaults to', async () => {
    // The server's own default (on since PostgreSQL 12) is what a database has before migrating.
    expect(await jitOfNewSession()).toBe(
      (
        await runSql<{ boot: string }>(
          database.url,
          `SELECT boot_val AS boot FROM pg_settings WHERE name = 'jit'`,
        )
      )[0]?.boot,
    );
    await migrate(database.url);
    expect(await jitOfNewSession()).toBe('off');
  });
});
