import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * Migration 20261204090000_transaction_facts on existing data: templates and transactions gain no
 * rules and no facts, so no checklist changes; each open transaction learns the template it was
 * opened from (by type and role), closed and deleted ones none; the database refuses facts
 * outside their range, whatever statement writes them.
 */

const MIGRATION = '20261204090000_transaction_facts';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const agent = uuid(1);
const [listing, lease] = [21, 22].map(uuid);
const [open, closed, deleted, orphan] = [11, 12, 13, 14].map(uuid);

describe('the transaction facts migration on existing data', () => {
  it('adds no rule and no fact, and links open transactions to their template', async () => {
    await migrateUpToBefore(database.url, MIGRATION);
    await query(`
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_owner, is_admin_approved, email_verified_at)
      VALUES ('${agent}', 'agent@example.com', 'A', 'A', 'C', '1', 'x', 'user', false, true, now());
      INSERT INTO transaction_templates (id, type, role, documents) VALUES
        ('${listing}', 'Listing', 'Seller', ARRAY['Listing Agreement']),
        ('${lease}', 'Lease', 'Landlord', ARRAY['Lease']);
      INSERT INTO transactions (id, user_id, street_address, city, state, zip, type, role, closed_at, deleted_at)
      VALUES
        ('${open}', '${agent}', '1 A St', 'X', 'ME', '1', 'Listing', 'Seller', NULL, NULL),
        ('${closed}', '${agent}', '2 A St', 'X', 'ME', '1', 'Listing', 'Seller', now(), NULL),
        ('${deleted}', '${agent}', '3 A St', 'X', 'ME', '1', 'Listing', 'Seller', NULL, now()),
        ('${orphan}', '${agent}', '4 A St', 'X', 'ME', '1', 'Referral', '-', NULL, NULL);
      INSERT INTO transaction_forms (transaction_id, label, position) VALUES ('${open}', 'Listing Agreement', 0);
    `);

    await migrate(database.url);

    expect(
      await query('SELECT id, template_id, checklist_rules, year_built, hoa FROM transactions ORDER BY id'),
    ).toEqual([
      { id: open, template_id: listing, checklist_rules: [], year_built: null, hoa: null },
      { id: closed, template_id: null, checklist_rules: [], year_built: null, hoa: null },
      { id: deleted, template_id: null, checklist_rules: [], year_built: null, hoa: null },
      { id: orphan, template_id: null, checklist_rules: [], year_built: null, hoa: null },
    ]);
    expect(await query('SELECT conditional_documents FROM transaction_templates')).toEqual([
      { conditional_documents: [] },
      { conditional_documents: [] },
    ]);
    expect(
      await query('SELECT label, required, conditional, required_because FROM transaction_forms'),
    ).toEqual([{ label: 'Listing Agreement', required: true, conditional: false, required_because: null }]);

    for (const bad of [
      'year_built = 1200',
      'sale_price_cents = -5',
      "financing = 'crypto'",
      "property_type = 'castle'",
    ])
      await expect(query(`UPDATE transactions SET ${bad} WHERE id = '${open}'`)).rejects.toThrow(
        /check constraint/,
      );

    // A deleted template leaves its transactions, and their rules, in place.
    await query(`DELETE FROM transaction_templates WHERE id = '${listing}'`);
    expect(await query(`SELECT template_id FROM transactions WHERE id = '${open}'`)).toEqual([
      { template_id: null },
    ]);
  });
});
