import { performance } from 'node:perf_hooks';
import { migratedBenchDatabase, withClient } from './dataset';
import { thousands } from './report';

/**
 * The audit benchmarks' events (audit-verify, audit-log): a million events in a database of their
 * own on the benchmark's PostgreSQL, written through the chain trigger 1,000 per statement, as the
 * application's inserts are (so the seeding time is the trigger's cost too). The 1M dataset is
 * left untouched, and an append-only table could not give rows back. Reused by the next run while
 * its migrations are today's.
 *
 * Shaped so each filter of the audit log has realistic selectivity: 200 people act (one event in
 * ten is the system's), ten actions of which one is rare (one event in a thousand), the entity
 * each action is about, a form's five events and a transaction's ten sharing their ids, and one
 * event every 15 seconds from 2026-01-01 (a million cover about 174 days).
 */

export const AUDIT_DATABASE = 'portal_audit_bench';
export const AUDIT_SEED_BATCH = 1_000;
export const AUDIT_ACTORS = 200;
/** One event in RARE_EVERY is the rare action. */
export const RARE_EVERY = 1_000;
export const RARE_ACTION = 'office.update';
/** The common actions, each with the entity it is about. */
export const COMMON_ACTIONS: readonly (readonly [action: string, entity: string])[] = [
  ['transaction.update', 'Transaction'],
  ['form.upload', 'TransactionForm'],
  ['form.review', 'TransactionForm'],
  ['transaction.create', 'Transaction'],
  ['user.update', 'User'],
  ['comment.create', 'Comment'],
  ['waiver.request', 'TransactionForm'],
  ['transaction.key-dates', 'Transaction'],
  ['cda.issued', 'Cda'],
];
export const FIRST_EVENT_AT = '2026-01-01T00:00:00.000Z';
export const EVENT_SPACING_S = 15;

export const actorEmail = (n: number) => `audit-actor${n}@bench.test`;

/** The database, migrated as today's code migrates it; recreated when its migrations differ. */
export function prepareAuditDatabase(adminUrl: string, log: (message: string) => void): Promise<string> {
  return migratedBenchDatabase(adminUrl, AUDIT_DATABASE, log);
}

/** The people who act in the events, made once; their ids in order. */
async function actorIds(client: import('pg').Client): Promise<string[]> {
  await client.query(
    `INSERT INTO users (email, first_name, last_name, company, phone_number, password_hash, role, is_admin_approved)
     SELECT 'audit-actor' || n || '@bench.test', 'Actor', 'Number ' || n, 'Bench Realty', '+1 555 010 0000', 'x',
            CASE WHEN n % 10 = 0 THEN 'admin'::role ELSE 'user'::role END, true
       FROM generate_series(1, $1::int) AS n
     ON CONFLICT (email) DO NOTHING`,
    [AUDIT_ACTORS],
  );
  const { rows } = await client.query<{ id: string }>(
    `SELECT id FROM users WHERE email LIKE 'audit-actor%@bench.test'
      ORDER BY substring(email::text FROM 'audit-actor(\\d+)')::int`,
  );
  return rows.map((row) => row.id);
}

/** A version-4-shaped UUID made from a text, so events of one form or transaction share it. */
const uuidOf = (text: string) =>
  `(overlay(overlay(md5(${text}) placing '4' from 13) placing '8' from 17))::uuid`;

/** Writes events until there are `target`, through the chain trigger; returns the seconds it took. */
export async function seedAuditEvents(
  url: string,
  target: number,
  log: (message: string) => void,
): Promise<number> {
  return withClient(url, async (client) => {
    const actors = await actorIds(client);
    const { rows } = await client.query<{ count: number }>('SELECT count(*)::int AS count FROM audit_events');
    let count = rows[0]?.count ?? 0;
    if (count >= target) return 0;
    const began = performance.now();
    const actions = COMMON_ACTIONS.map(([action]) => action);
    const entities = COMMON_ACTIONS.map(([, entity]) => entity);
    while (count < target) {
      const batch = Math.min(AUDIT_SEED_BATCH, target - count);
      // Shaped like a review's event: a form's status, label and version before and after.
      await client.query(
        `INSERT INTO audit_events (actor_id, action, entity, entity_id, transaction_id, before, after, created_at)
         SELECT CASE WHEN n % 10 = 0 THEN NULL ELSE ($2::uuid[])[1 + (n::bigint * 7919) % array_length($2::uuid[], 1)] END,
                CASE WHEN n % $6 = 0 THEN $7 ELSE ($3::text[])[1 + (n % array_length($3::text[], 1))] END,
                CASE WHEN n % $6 = 0 THEN 'Office' ELSE ($4::text[])[1 + (n % array_length($4::text[], 1))] END,
                ${uuidOf("'entity' || (n / 5)")},
                ${uuidOf("'transaction' || (n / 10)")},
                jsonb_build_object('status', 'pending', 'label', 'Purchase agreement', 'version', n % 4),
                jsonb_build_object('status', 'accepted', 'label', 'Purchase agreement', 'version', n % 4,
                                   'comment', 'Signed on every page'),
                $5::timestamptz + (n * interval '${EVENT_SPACING_S} seconds')
           FROM generate_series($8::int + 1, $8::int + $1::int) AS n`,
        [batch, actors, actions, entities, FIRST_EVENT_AT, RARE_EVERY, RARE_ACTION, count],
      );
      count += batch;
      if (count % 100_000 === 0) log(`${thousands(count)} events written`);
    }
    return (performance.now() - began) / 1000;
  });
}
