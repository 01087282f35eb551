import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * What the dashboard migration makes of rows written before it: each transaction's
 * closing date from its key dates, when it became compliant from the decisions already recorded,
 * and each version's agent and label.
 */

const MIGRATION = '20261129090000_broker_dashboard';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the dashboard migrations on existing data', () => {
  it('fills closing_date, compliant_at and each version agent and label', async () => {
    await migrateUpToBefore(database.url, MIGRATION);
    const [agent, admin] = [uuid(1), uuid(2)];
    const [done, open, bare] = [uuid(10), uuid(11), uuid(12)];
    await query(`
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_admin_approved, email_verified_at)
      VALUES ('${agent}', 'agent@example.com', 'Ann', 'Agent', 'C', '1', 'x', 'user', true, now()),
             ('${admin}', 'admin@example.com', 'Carl', 'Desk', 'C', '1', 'x', 'admin', true, now());
      INSERT INTO transactions (id, user_id, street_address, city, state, zip, type, role, created_at) VALUES
        ('${done}', '${agent}', '1 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller', '2026-01-01T00:00:00Z'),
        ('${open}', '${agent}', '2 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller', '2026-01-01T00:00:00Z'),
        ('${bare}', '${agent}', '3 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller', '2026-01-02T00:00:00Z');
      INSERT INTO transaction_forms (id, transaction_id, label, position, file_key, status, version, submitted_at,
                                     required, waiver_status, waiver_decided_at) VALUES
        ('${uuid(100)}', '${done}', 'Listing Agreement', 0, 'k/a', 'accepted', 1, '2026-02-01T00:00:00Z', true, NULL, NULL),
        ('${uuid(101)}', '${done}', 'Disclosure', 1, NULL, 'pending', 0, NULL, true, 'approved', '2026-02-05T00:00:00Z'),
        ('${uuid(102)}', '${done}', 'HOA', 2, NULL, 'pending', 0, NULL, false, NULL, NULL),
        ('${uuid(103)}', '${open}', 'Listing Agreement', 0, 'k/b', 'rejected', 1, '2026-02-01T00:00:00Z', true, NULL, NULL);
      INSERT INTO form_versions (form_id, number, file_key, size, content_type, uploaded_at, decision_status,
                                 decided_at, decided_by) VALUES
        ('${uuid(100)}', 1, 'k/a', 1, 'application/pdf', '2026-02-01T00:00:00Z', 'accepted', '2026-02-03T00:00:00Z', '${admin}'),
        ('${uuid(103)}', 1, 'k/b', 1, 'application/pdf', '2026-02-01T00:00:00Z', 'rejected', '2026-02-02T00:00:00Z', '${admin}');
      INSERT INTO key_dates (transaction_id, kind, label, date, position) VALUES
        ('${done}', 'closing', 'Closing', '2026-03-10', 0),
        ('${done}', 'closing', 'Closing (moved)', '2026-03-05', 1),
        ('${done}', 'inspection', 'Inspection deadline', '2026-02-01', 2),
        ('${open}', 'inspection', 'Inspection deadline', '2026-02-01', 0);
    `);
    await migrate(database.url);
    const rows = await query<{ id: string; closing: string | null; compliant_at: Date | null }>(
      `SELECT id::text, to_char(closing_date, 'YYYY-MM-DD') AS closing, compliant_at FROM transactions ORDER BY id`,
    );
    expect(rows).toEqual([
      // The waiver approval came after the acceptance: it is the moment the file became compliant.
      { id: done, closing: '2026-03-05', compliant_at: new Date('2026-02-05T00:00:00Z') },
      { id: open, closing: null, compliant_at: null },
      // Nothing required: compliant since it was created.
      { id: bare, closing: null, compliant_at: new Date('2026-01-02T00:00:00Z') },
    ]);
    const versions = await query<{ agent_id: string; label: string }>(
      'SELECT agent_id::text, label FROM form_versions ORDER BY label',
    );
    expect(versions).toEqual([
      { agent_id: agent, label: 'Listing Agreement' },
      { agent_id: agent, label: 'Listing Agreement' },
    ]);
  });

  it('counts the decisions already recorded into the dashboard daily counts (migration 20261130090000)', async () => {
    // The rows of the test above were written before the dashboard's first migration; the second
    // one counts them (both versions were decided by the admin on 2026-02-02 and 02-03).
    const kept = await query<{
      day: string;
      reviewer: string;
      bucket: number;
      decisions: number;
      rejections: number;
    }>(
      'SELECT day::text, reviewer::text, bucket, decisions, rejections FROM review_turnarounds ORDER BY day',
    );
    // 2 days (2,880 min): floor(4 × log2(2,881)) = 45; 1 day (1,440 min): floor(4 × log2(1,441)) = 41.
    expect(kept).toEqual([
      { day: '2026-02-02', reviewer: uuid(2), bucket: 41, decisions: 1, rejections: 1 },
      { day: '2026-02-03', reviewer: uuid(2), bucket: 45, decisions: 1, rejections: 0 },
    ]);
    expect(
      await query('SELECT day::text, label, decisions, rejections FROM review_label_days ORDER BY day'),
    ).toEqual([
      { day: '2026-02-02', label: 'Listing Agreement', decisions: 1, rejections: 1 },
      { day: '2026-02-03', label: 'Listing Agreement', decisions: 1, rejections: 0 },
    ]);
    expect(
      await query(
        'SELECT day::text, agent_id::text, decisions, rejections FROM review_agent_days ORDER BY day',
      ),
    ).toEqual([
      { day: '2026-02-02', agent_id: uuid(1), decisions: 1, rejections: 1 },
      { day: '2026-02-03', agent_id: uuid(1), decisions: 1, rejections: 0 },
    ]);
  });

  it('sums the daily counts into monthly ones (migration 20261207090000)', async () => {
    expect(
      await query(
        'SELECT month::text, reviewer::text, bucket, decisions, rejections FROM review_turnaround_months ORDER BY bucket',
      ),
    ).toEqual([
      { month: '2026-02-01', reviewer: uuid(2), bucket: 41, decisions: 1, rejections: 1 },
      { month: '2026-02-01', reviewer: uuid(2), bucket: 45, decisions: 1, rejections: 0 },
    ]);
    expect(
      await query(
        'SELECT agent_id::text, month::text, bucket, decisions, rejections FROM review_agent_turnaround_months ORDER BY bucket',
      ),
    ).toEqual([
      { agent_id: uuid(1), month: '2026-02-01', bucket: 41, decisions: 1, rejections: 1 },
      { agent_id: uuid(1), month: '2026-02-01', bucket: 45, decisions: 1, rejections: 0 },
    ]);
    expect(
      await query('SELECT month::text, agent_id::text, decisions, rejections FROM review_agent_months'),
    ).toEqual([{ month: '2026-02-01', agent_id: uuid(1), decisions: 2, rejections: 1 }]);
  });
});
