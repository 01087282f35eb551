import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * Migration 20261203090000_offices on a database with agents, admins, the owner and their
 * transactions: nobody gains an office, so every admin stays brokerage-wide and every answer stays
 * what it was; from then on a transaction's office follows its agent's, whatever statement moves
 * one or the other.
 */

const MIGRATION = '20261203090000_offices';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const [agent, otherAgent, admin, owner] = [1, 2, 3, 4].map(uuid);
const [deal, otherDeal, agentsSecondDeal] = [11, 12, 13].map(uuid);

const officeOfDeals = () =>
  query<{ id: string; office_id: string | null }>('SELECT id, office_id FROM transactions ORDER BY id');

describe('the offices migration on existing data', () => {
  it("gives nobody an office, then keeps each transaction in its agent's office", async () => {
    await migrateUpToBefore(database.url, MIGRATION);
    await query(`
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_owner, is_admin_approved, email_verified_at)
      VALUES ('${agent}', 'agent@example.com', 'A', 'A', 'C', '1', 'x', 'user', false, true, now()),
             ('${otherAgent}', 'other@example.com', 'B', 'B', 'C', '1', 'x', 'user', false, true, now()),
             ('${admin}', 'admin@example.com', 'D', 'D', 'C', '1', 'x', 'admin', false, true, now()),
             ('${owner}', 'owner@example.com', 'O', 'O', 'C', '1', 'x', 'admin', true, true, now());
      INSERT INTO transactions (id, user_id, street_address, city, state, zip, type, role) VALUES
        ('${deal}', '${agent}', '1 Harbor Lane', 'Portland', 'ME', '04101', 'Listing', 'Seller'),
        ('${otherDeal}', '${otherAgent}', '2 Harbor Lane', 'Portland', 'ME', '04101', 'Listing', 'Seller');
    `);

    await migrate(database.url);

    // Nobody is in an office: every admin (and the owner) sees the whole brokerage, as before.
    const users = await query<{ id: string; role: string; office_id: string | null; coordinates: number }>(
      `SELECT id, role::text AS role, office_id,
              (SELECT count(*)::int FROM coordinations WHERE coordinator_id = users.id) AS coordinates
         FROM users ORDER BY id`,
    );
    expect(users).toEqual([
      { id: agent, role: 'user', office_id: null, coordinates: 0 },
      { id: otherAgent, role: 'user', office_id: null, coordinates: 0 },
      { id: admin, role: 'admin', office_id: null, coordinates: 0 },
      { id: owner, role: 'admin', office_id: null, coordinates: 0 },
    ]);
    expect(await officeOfDeals()).toEqual([
      { id: deal, office_id: null },
      { id: otherDeal, office_id: null },
    ]);

    const [north, south] = (
      await query<{ id: string }>(`INSERT INTO offices (name) VALUES ('North'), ('South') RETURNING id`)
    ).map((row) => row.id);

    // Moving an agent into an office takes its transactions along, and no one else's.
    await query(`UPDATE users SET office_id = '${north}' WHERE id = '${agent}'`);
    expect(await officeOfDeals()).toEqual([
      { id: deal, office_id: north },
      { id: otherDeal, office_id: null },
    ]);

    // A new transaction of an agent in an office starts in that office, whatever the insert says.
    await query(`
      INSERT INTO transactions (id, user_id, street_address, city, state, zip, type, role, office_id)
      VALUES ('${agentsSecondDeal}', '${agent}', '3 Harbor Lane', 'Portland', 'ME', '04101', 'Listing',
              'Seller', '${south}')`);
    expect(await officeOfDeals()).toEqual([
      { id: deal, office_id: north },
      { id: otherDeal, office_id: null },
      { id: agentsSecondDeal, office_id: north },
    ]);

    // Writing another office into the copy directly does not stick: the agent's office wins.
    await query(`UPDATE transactions SET office_id = '${south}' WHERE id IN ('${deal}', '${otherDeal}')`);
    expect(await officeOfDeals()).toEqual([
      { id: deal, office_id: north },
      { id: otherDeal, office_id: null },
      { id: agentsSecondDeal, office_id: north },
    ]);

    // Handing a transaction to another agent moves it to that agent's office.
    await query(`UPDATE transactions SET user_id = '${otherAgent}' WHERE id = '${agentsSecondDeal}'`);
    // Moving an agent to another office, then out of every office, moves its files each time.
    await query(`UPDATE users SET office_id = '${south}' WHERE id = '${agent}'`);
    expect(await officeOfDeals()).toEqual([
      { id: deal, office_id: south },
      { id: otherDeal, office_id: null },
      { id: agentsSecondDeal, office_id: null },
    ]);
    await query(`UPDATE users SET office_id = NULL WHERE id = '${agent}'`);
    expect((await officeOfDeals()).map((row) => row.office_id)).toEqual([null, null, null]);
  });
});
