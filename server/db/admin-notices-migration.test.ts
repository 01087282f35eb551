import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * Migration 20261202090000_admin_notices on a database that has admins and notifications: the
 * active admins of the moment begin a term (the admins of every notice to come), the others none,
 * and every notification written before stays in its user's feed.
 */

const MIGRATION = '20261202090000_admin_notices';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the admin notices migration on existing data', () => {
  it('starts a term for each active admin only, keeps the old rows in the feed, and notices reach the active admins', async () => {
    await migrateUpToBefore(database.url, MIGRATION);
    const [agent, admin, deactivatedAdmin] = [1, 2, 3].map(uuid);
    await query(`
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_admin_approved, email_verified_at)
      VALUES ('${agent}', 'agent@example.com', 'A', 'A', 'C', '1', 'x', 'user', true, now()),
             ('${admin}', 'admin@example.com', 'B', 'B', 'C', '1', 'x', 'admin', true, now()),
             ('${deactivatedAdmin}', 'gone@example.com', 'D', 'D', 'C', '1', 'x', 'admin', false, now());
      INSERT INTO notifications (user_id, message, link) VALUES
        ('${agent}', 'old, to the agent', '/home'),
        ('${admin}', 'old, to the admin', '/adminTransactions'),
        ('${deactivatedAdmin}', 'old, to the admin since deactivated', '/adminTransactions');
    `);

    await migrate(database.url);

    const terms = await query<{ user_id: string; ended_at: Date | null }>(
      'SELECT user_id, ended_at FROM admin_terms ORDER BY user_id',
    );
    expect(terms).toEqual([{ user_id: admin, ended_at: null }]);
    await query(
      `INSERT INTO admin_notices (message, link) VALUES ('new, to every admin', '/adminTransactions')`,
    );
    const feed = await query<{ user_id: string; message: string }>(
      'SELECT user_id, message FROM notification_feed ORDER BY user_id, message',
    );
    expect(feed).toEqual([
      { user_id: agent, message: 'old, to the agent' },
      { user_id: admin, message: 'new, to every admin' },
      { user_id: admin, message: 'old, to the admin' },
      { user_id: deactivatedAdmin, message: 'old, to the admin since deactivated' },
    ]);
  });
});
