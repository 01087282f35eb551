import { randomBytes, randomUUID } from 'node:crypto';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../db/client';
import { runSql, withAdminClient } from '../test/databases';
import { createAdmin, createAuditEvent, createUser } from '../test/factories';
import { serviceContext, setupTestDatabase, testDeps } from '../test/harness';
import { recordAudit } from './audit';
import { GENESIS_HASH, verifyChain } from './audit-chain';

/**
 * The audit trail's hash chain on a real database: kept by the database on every insert, however
 * many transactions write at once; append-only for every role; and a row changed behind the
 * database's back (its guard disabled by the table's owner) named by the check.
 */

const database = setupTestDatabase();
const verify = () => verifyChain(serviceContext(testDeps(database.db)));

type ChainRow = { id: string; seq: string; prev_hash: string; hash: string };
const chainRows = () =>
  runSql<ChainRow>(
    database.url,
    'SELECT id, seq::text AS seq, prev_hash, hash FROM audit_events ORDER BY audit_events.seq',
  );

/** As the table's owner, the one role that can switch the guard off: what an intruder with it could do. */
const asOwnerWithoutGuard = (sql: string) =>
  runSql(
    database.url,
    `BEGIN;
     ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only;
     ${sql};
     ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only;
     COMMIT;`,
  );

describe('the audit hash chain', () => {
  it('links every event to the one before it, and the database and the check agree on each hash', async () => {
    const actor = await createUser(database.db);
    await createAuditEvent(database.db, { actorId: actor.id, entityId: actor.id });
    // What canonical JSON must get right: every JSON type, keys of one length in byte order,
    // quotes, backslashes, control characters, non-ASCII text and emoji, numbers as written.
    const awkward = {
      zeta: 'quote " backslash \\ tab \t newline \n bell \u0007 del \u007f',
      é: ['naïve', '日本語', '🏠', null, true, false, 0, -12, 3.5, 1234567890123],
      aa: { nested: { deeper: [] }, b: {} },
      ab: '',
      b: 'line\u2028separator',
    };
    await database.db.$transaction((tx) =>
      recordAudit(tx, {
        actorId: actor.id,
        action: 'user.update',
        entity: 'User',
        entityId: actor.id,
        before: awkward,
        after: { ...awkward, ab: 'changed' },
      }),
    );

    const rows = await chainRows();
    expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => String(index + 1)));
    expect(rows[0]?.prev_hash).toBe(GENESIS_HASH);
    expect(rows.slice(1).map((row) => row.prev_hash)).toEqual(rows.slice(0, -1).map((row) => row.hash));
    const [head] = await runSql<{ seq: string; hash: string }>(
      database.url,
      'SELECT seq::text AS seq, hash FROM audit_chain_head',
    );
    expect(head).toEqual({ seq: rows.at(-1)?.seq, hash: rows.at(-1)?.hash });

    expect(await verify()).toEqual({ valid: true, events: rows.length, firstBrokenId: null });
  });

  it('stays one unbroken line when many transactions write events at once, some rolling back', async () => {
    // A connection for each writer, and time for all of them to take their turns on a loaded
    // machine: only the chain is under test here, not the pool.
    const writers = createDb(database.url, { poolSize: 24 });
    try {
      const actor = await createUser(writers);
      const before = (await chainRows()).length;
      const rolledBack = new Error('rolled back on purpose');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 24 }, (_, writer) =>
          writers.$transaction(
            async (tx) => {
              for (let event = 0; event < 4; event++) {
                await recordAudit(tx, {
                  actorId: actor.id,
                  action: 'transaction.update',
                  entity: 'Transaction',
                  entityId: randomUUID(),
                  after: { writer, event },
                });
                // Give the others a moment to queue up behind this transaction's turn.
                await new Promise((resolve) => setTimeout(resolve, 1));
              }
              if (writer % 6 === 5) throw rolledBack;
            },
            { maxWait: 60_000, timeout: 60_000 },
          ),
        ),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'rejected').map((o) => o.reason)).toEqual(
        Array(4).fill(rolledBack),
      );

      const rows = await chainRows();
      expect(rows).toHaveLength(before + 20 * 4);
      // No gap and no fork: rolled-back inserts gave their places back.
      expect(rows.map((row) => row.seq)).toEqual(rows.map((_, index) => String(index + 1)));
      expect(new Set(rows.map((row) => row.prev_hash)).size).toBe(rows.length);
      expect(await verify()).toEqual({ valid: true, events: rows.length, firstBrokenId: null });
    } finally {
      await writers.$disconnect();
    }
  });

  it('is not valid once events are cut off its end, though every remaining link holds', async () => {
    const kept = (await chainRows()).length - 2;
    await asOwnerWithoutGuard(`DELETE FROM audit_events WHERE seq > ${kept}`);
    expect(await verify()).toEqual({ valid: false, events: kept, firstBrokenId: null });
  });

  it('names the first event whose content was changed, then the first after an event removed', async () => {
    const rows = await chainRows();
    const changed = rows[3];
    const removed = rows[7];
    if (!changed || !removed) throw new Error('the earlier tests write more events than this');

    await asOwnerWithoutGuard(`UPDATE audit_events SET action = 'user.delete' WHERE id = '${changed.id}'`);
    expect(await verify()).toEqual({ valid: false, events: rows.length, firstBrokenId: changed.id });

    await asOwnerWithoutGuard(
      `UPDATE audit_events SET action = 'transaction.update' WHERE id = '${changed.id}'`,
    );
    await asOwnerWithoutGuard(`DELETE FROM audit_events WHERE id = '${removed.id}'`);
    expect(await verify()).toEqual({ valid: false, events: rows.length - 1, firstBrokenId: rows[8]?.id });
  });
});

describe('append-only', () => {
  const role = `portal_app_${randomBytes(4).toString('hex')}`;
  const password = randomBytes(12).toString('hex');
  let app: pg.Client;

  beforeAll(async () => {
    // A role like the application's in a deployment where it owns nothing: every right on the
    // tables, none over their definitions.
    await withAdminClient(database.url, async (client) => {
      await client.query(`CREATE ROLE ${role} LOGIN PASSWORD '${password}'`);
      await client.query(`GRANT ALL ON ALL TABLES IN SCHEMA public TO ${role}`);
    });
    const url = new URL(database.url);
    url.username = role;
    url.password = password;
    app = new pg.Client({ connectionString: url.toString() });
    await app.connect();
  });
  afterAll(async () => {
    await app?.end();
    await withAdminClient(database.url, async (client) => {
      await client.query(`DROP OWNED BY ${role}`);
      await client.query(`DROP ROLE ${role}`);
    });
  });

  it("refuses UPDATE, DELETE and TRUNCATE of events to the application's role, and to the owner", async () => {
    const actor = await createUser(database.db);
    const event = await createAuditEvent(database.db, { actorId: actor.id, entityId: actor.id });
    const attempts = [
      `UPDATE audit_events SET action = 'user.delete' WHERE id = '${event.id}'`,
      `UPDATE audit_events SET hash = prev_hash`,
      `DELETE FROM audit_events WHERE id = '${event.id}'`,
      'DELETE FROM audit_events',
      'TRUNCATE audit_events',
      'UPDATE audit_chain_head SET seq = 0',
      'DELETE FROM audit_chain_head',
    ];
    for (const sql of attempts) {
      await expect(app.query(sql), sql).rejects.toThrow(/append-only|moves only with the audit chain/);
      await expect(runSql(database.url, sql), sql).rejects.toThrow(
        /append-only|moves only with the audit chain/,
      );
    }
    // The application's role still writes events, and they join the chain.
    await app.query(
      `INSERT INTO audit_events (action, entity, entity_id) VALUES ('user.update', 'User', '${actor.id}')`,
    );
    const [row] = await runSql<{ action: string; count: number }>(
      database.url,
      `SELECT (SELECT action FROM audit_events WHERE id = '${event.id}') AS action, count(*)::int AS count FROM audit_events WHERE entity_id = '${actor.id}'`,
    );
    expect(row).toEqual({ action: 'transaction.update', count: 2 });
  });

  it('keeps the people and API keys events name: deleting one is refused instead of rewriting the events', async () => {
    const admin = await createAdmin(database.db);
    const agent = await createUser(database.db);
    const key = await database.db.apiKey.create({
      data: { name: 'Kept', scopes: ['users:read'], secretHash: randomBytes(32), createdBy: admin.id },
    });
    await createAuditEvent(database.db, {
      actorId: admin.id,
      onBehalfOf: agent.id,
      apiKeyId: key.id,
      entityId: agent.id,
    });
    for (const sql of [
      `DELETE FROM users WHERE id = '${admin.id}'`,
      `DELETE FROM users WHERE id = '${agent.id}'`,
      `DELETE FROM api_keys WHERE id = '${key.id}'`,
    ]) {
      await expect(runSql(database.url, sql), sql).rejects.toThrow(/foreign key/);
    }
  });
});

/**
 * The canonical JSON as docs/API.md states it, written from the text alone, as someone checking
 * the chain without the portal would: it must give PostgreSQL's jsonb text for any value.
 */
function documentedCanonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(documentedCanonicalJson).join(', ')}]`;
  const utf8 = (key: string) => Buffer.from(key, 'utf8');
  const keys = Object.keys(value as object).sort((a, b) => {
    const [x, y] = [utf8(a), utf8(b)];
    return x.length - y.length || Buffer.compare(x, y);
  });
  const record = value as Record<string, unknown>;
  return `{${keys.map((key) => `${JSON.stringify(key)}: ${documentedCanonicalJson(record[key])}`).join(', ')}}`;
}

describe('the documented canonical JSON', () => {
  it("is PostgreSQL's jsonb text for any snapshot", async () => {
    // Text PostgreSQL can store (no NUL), numbers as JSON.stringify writes them in plain notation.
    const text = fc.string({ unit: 'binary', maxLength: 12 }).filter((s) => !s.includes('\u0000'));
    const number = fc.oneof(
      fc.integer({ min: -1e12, max: 1e12 }),
      fc.double({ min: -1e9, max: 1e9, noNaN: true }).filter((n) => !Object.is(n, -0) && Math.abs(n) >= 1e-6),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        number,
        text,
        tie('array'),
        tie('object'),
      ),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(text, tie('value'), { maxKeys: 5 }),
    })).object;
    const samples = fc.sample(json, { numRuns: 300, seed: 20261209 });
    const rows = await runSql<{ n: number; text: string }>(
      database.url,
      `SELECT n, value::text AS text FROM jsonb_array_elements(${pg.escapeLiteral(JSON.stringify(samples))}::jsonb)
         WITH ORDINALITY AS e(value, n) ORDER BY n`,
    );
    expect(rows.map((row) => row.text)).toEqual(samples.map(documentedCanonicalJson));
  });
});
