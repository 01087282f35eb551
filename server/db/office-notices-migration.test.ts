import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * Migration 20261203120000_office_notices on a database that already has offices, admins of both
 * kinds and notices to the admins: the notices made before it have no office, so brokerage-wide
 * admins keep them and office admins, who read only their office's, do not.
 */

const MIGRATION = '20261203120000_office_notices';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the office notices migration on existing data', () => {
  it('leaves earlier notices to brokerage-wide admins and the owner', async () => {
    await migrateUpToBefore(database.url, MIGRATION);
    const [office, wideAdmin, officeAdmin, owner] = [1, 2, 3, 4].map(uuid);
    await query(`
      INSERT INTO offices (id, name) VALUES ('${office}', 'North');
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_admin_approved, email_verified_at, office_id, is_owner)
      VALUES ('${wideAdmin}', 'wide@example.com', 'W', 'W', 'C', '1', 'x', 'admin', true, now(), NULL, false),
             ('${officeAdmin}', 'north@example.com', 'N', 'N', 'C', '1', 'x', 'admin', true, now(), '${office}', false),
             ('${owner}', 'owner@example.com', 'O', 'O', 'C', '1', 'x', 'admin', true, now(), '${office}', true);
      INSERT INTO admin_notices (message, link) VALUES ('before offices held notices', '/adminTransactions');
    `);

    await migrate(database.url);

    const notices = await query<{ office_id: string | null }>('SELECT office_id FROM admin_notices');
    expect(notices).toEqual([{ office_id: null }]);
    const feed = await query<{ user_id: string }>(
      `SELECT user_id FROM notification_feed WHERE message = 'before offices held notices' ORDER BY user_id`,
    );
    expect(feed).toEqual([{ user_id: wideAdmin }, { user_id: owner }]);
  });
});
