import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * The data the two migrations notification_transactions and user_deactivated_at fill in for
 * rows written before them: a notification's transaction (read from its link) and when an
 * account was deactivated (read from the audit trail). The database is migrated up to just before them, filled, then migrated to the end.
 */

const FIRST_NEW = '20261125170000_notification_transactions';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the notification transaction and deactivation migrations on existing data', () => {
  it('link old notifications to their transaction and date old deactivations', async () => {
    await migrateUpToBefore(database.url, FIRST_NEW);
    const [agent, admin, pending, deactivated, reactivated] = [1, 2, 3, 4, 5].map(uuid);
    const deal = uuid(10);
    await query(`
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_admin_approved, email_verified_at)
      VALUES ('${agent}', 'agent@example.com', 'A', 'A', 'C', '1', 'x', 'user', true, now()),
             ('${admin}', 'admin@example.com', 'B', 'B', 'C', '1', 'x', 'admin', true, now()),
             ('${pending}', 'pending@example.com', 'C', 'C', 'C', '1', 'x', 'user', false, now()),
             ('${deactivated}', 'gone@example.com', 'D', 'D', 'C', '1', 'x', 'user', false, now()),
             ('${reactivated}', 'back@example.com', 'E', 'E', 'C', '1', 'x', 'user', true, now());
      INSERT INTO transactions (id, user_id, street_address, city, state, zip, type, role, deleted_at)
      VALUES ('${deal}', '${agent}', '1 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller', now());
      INSERT INTO notifications (user_id, message, link) VALUES
        ('${agent}', 'agent side', '/home/transactions/${deal}'),
        ('${admin}', 'admin side', '/adminTransactions/transactions/${deal}'),
        ('${agent}', 'approved', '/home'),
        ('${agent}', 'no such transaction', '/home/transactions/${uuid(99)}'),
        ('${agent}', 'not a uuid', '/home/transactions/not-a-uuid');
      INSERT INTO audit_events (actor_id, action, entity, entity_id, created_at) VALUES
        ('${admin}', 'user.activate', 'User', '${deactivated}', '2026-01-01T00:00:00Z'),
        ('${admin}', 'user.deactivate', 'User', '${deactivated}', '2026-02-01T00:00:00Z'),
        ('${admin}', 'user.deactivate', 'User', '${reactivated}', '2026-01-01T00:00:00Z'),
        ('${admin}', 'user.activate', 'User', '${reactivated}', '2026-02-01T00:00:00Z');
    `);

    await migrate(database.url);

    const notifications = await query<{ message: string; transaction_id: string | null }>(
      'SELECT message, transaction_id FROM notifications ORDER BY message',
    );
    expect(Object.fromEntries(notifications.map((row) => [row.message, row.transaction_id]))).toEqual({
      'admin side': deal,
      'agent side': deal,
      approved: null,
      'no such transaction': null,
      'not a uuid': null,
    });
    const users = await query<{ email: string; deactivated_at: Date | null }>(
      'SELECT email, deactivated_at FROM users ORDER BY email',
    );
    expect(
      Object.fromEntries(users.map((row) => [row.email, row.deactivated_at?.toISOString() ?? null])),
    ).toEqual({
      'admin@example.com': null,
      'agent@example.com': null,
      'back@example.com': null,
      'gone@example.com': '2026-02-01T00:00:00.000Z',
      'pending@example.com': null,
    });
  });
});
