import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createDb } from '../db/client';
import { verifyChain } from '../services/audit-chain';
import { runSql } from '../test/databases';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * Events written before the audit chain existed join it when it is added: in the order they
 * were written (created_at, then id for events of one millisecond), each hashed, the head left
 * on the last, and the next event chained after them.
 */

const CHAIN = '20261209090000_audit_hash_chain';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('the audit hash chain migration on existing events', () => {
  it('chains the old events in the order they were written, then the new ones after them', async () => {
    await migrateUpToBefore(database.url, CHAIN);
    await query(`
      INSERT INTO audit_events (id, action, entity, entity_id, after, created_at) VALUES
        ('${uuid(3)}', 'transaction.update', 'Transaction', '${uuid(90)}', '{"state": "closed", "n": 1.50}', '2026-03-01T00:00:00Z'),
        ('${uuid(1)}', 'transaction.create', 'Transaction', '${uuid(90)}', NULL, '2026-01-01T00:00:00Z'),
        ('${uuid(5)}', 'transaction.update', 'Transaction', '${uuid(90)}', '{"note": "tie, later id"}', '2026-02-01T00:00:00Z'),
        ('${uuid(4)}', 'transaction.update', 'Transaction', '${uuid(90)}', '{"note": "tie, earlier id"}', '2026-02-01T00:00:00Z');
    `);

    await migrate(database.url);
    await query(
      `INSERT INTO audit_events (id, action, entity, entity_id) VALUES ('${uuid(2)}', 'user.update', 'User', '${uuid(91)}')`,
    );

    const rows = await query<{ id: string; seq: string }>(
      'SELECT id, seq::text AS seq FROM audit_events ORDER BY audit_events.seq',
    );
    expect(rows).toEqual([
      { id: uuid(1), seq: '1' },
      { id: uuid(4), seq: '2' },
      { id: uuid(5), seq: '3' },
      { id: uuid(3), seq: '4' },
      { id: uuid(2), seq: '5' },
    ]);
    const db = createDb(database.url, { poolSize: 1 });
    try {
      expect(await verifyChain(serviceContext(testDeps(db)))).toEqual({
        valid: true,
        events: 5,
        firstBrokenId: null,
      });
    } finally {
      await db.$disconnect();
    }
  });
});
