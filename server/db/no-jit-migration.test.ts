import { describe, expect, test } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrate } from './migrate';

const database = setupTestDatabase({ empty: true });
/** JIT as a new session of the portal's role sees it, and where that value comes from. */
const jitOfNewSession = async () =>
  (
    await runSql<{ setting: string; source: string }>(
      database.url,
      `SELECT setting, source FROM pg_settings WHERE name = 'jit'`,
    )
  )[0];

describe('JIT compilation', () => {
  test("is off for the portal's role in its migrated database, set there and not by the server", async () => {
    expect((await jitOfNewSession())?.source).not.toBe('database user');
    await migrate(database.url);
    expect(await jitOfNewSession()).toEqual({ setting: 'off', source: 'database user' });
  });
});
