import { createHash } from 'node:crypto';
import type pg from 'pg';
import { type Db, poolOf } from './client';
import type { Prisma } from './generated/client';

/**
 * Hand-written SQL on the hottest paths (issue 9), sent on the pg pool under Prisma: the same
 * connections and limits as every other query, without the per-row work Prisma's $queryRaw does
 * to describe and convert a result (about as much CPU as the rest of an API call). Statements are
 * Prisma.sql templates, so values always travel as parameters. Rows come back as node-postgres
 * reads them: uuid and text as strings, int as numbers, timestamptz as Date.
 */

/**
 * SQLSTATE 57014: a statement cancelled, here by statement_timeout. Seen on node-postgres's
 * error, or on the driver adapter's copy of it when the statement went through Prisma.
 */
export function isStatementTimeout(error: unknown): boolean {
  let current = error as Record<string, unknown> | undefined;
  for (let depth = 0; current && typeof current === 'object' && depth < 10; depth++) {
    if (current.code === '57014' || current.originalCode === '57014') return true;
    const meta = current.meta as { driverAdapterError?: unknown } | undefined;
    current = (current.cause ?? meta?.driverAdapterError) as Record<string, unknown> | undefined;
  }
  return false;
}

const names = new Map<string, string>();

/**
 * The name a statement is prepared under on each connection: derived from its text, so one
 * name always means one text (node-postgres refuses a name reused for another).
 */
export function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `portal_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

export type SqlOptions = {
  /**
   * Prepare the statement once per connection and reuse it: PostgreSQL then skips parsing and,
   * after a few runs, planning, which can cost more than running a short statement. Only for
   * statements whose best plan does not depend on the values (a key lookup, an indexed list),
   * never for pattern searches, whose plan must see the pattern.
   */
  prepared?: boolean;
};

export async function sqlRows<Row extends pg.QueryResultRow>(
  db: Db,
  statement: Prisma.Sql,
  options: SqlOptions = {},
): Promise<Row[]> {
  const pool = poolOf(db);
  if (!pool) return db.$queryRaw<Row[]>(statement);
  const { text, values } = statement;
  const query = options.prepared ? { name: preparedName(text), text, values } : { text, values };
  return (await pool.query<Row>(query)).rows;
}

/**
 * The statement under its own statement_timeout, so that a query no index can serve is cut off
 * (an error whose isStatementTimeout() is true) instead of holding a connection while it scans.
 */
export async function sqlRowsWithin<Row extends pg.QueryResultRow>(
  db: Db,
  timeoutMs: number,
  statement: Prisma.Sql,
): Promise<Row[]> {
  const pool = poolOf(db);
  if (!pool) {
    const [, rows] = await db.$transaction([
      db.$queryRaw`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`,
      db.$queryRaw<Row[]>(statement),
    ]);
    return rows;
  }
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`not a timeout in ms: ${timeoutMs}`);
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // One round trip for both (a simple query may hold two statements); SET takes no parameter,
    // and the value is an integer from the configuration, never anything a request sent.
    await client.query(`BEGIN; SET LOCAL statement_timeout = ${timeoutMs}`);
    const { rows } = await client.query<Row>(statement.text, statement.values);
    await client.query('COMMIT');
    return rows;
  } catch (error) {
    // A failed ROLLBACK means the connection is unusable: it is destroyed, not pooled again.
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

/** A server-side cursor's rows, one batch at a time (sqlCursor). */
export type SqlCursor<Row> = {
  /** The next batch; empty once every row was read. */
  next(): Promise<Row[]>;
  /**
   * Ends the cursor and its transaction and gives the connection back (destroyed if it cannot be
   * trusted any more). Safe to call more than once and while a batch is being read.
   */
  close(error?: Error): Promise<void>;
};

export type CursorOptions = {
  /** Rows per FETCH. */
  batchRows: number;
  /** statement_timeout of each statement (DECLARE and every FETCH), in ms. */
  timeoutMs: number;
};

/**
 * Every row of `statement` without holding them all: a `DECLARE ... NO SCROLL CURSOR` in a
 * read-only transaction on one pooled connection, read `batchRows` at a time (CSV exports,
 * DESIGN.md 12.3). The connection stays taken until close(), which callers must reach on every
 * path (end, error, a client gone). The first batch is read here, so an error of the query
 * itself (a timeout, a bad plan) surfaces before the caller has answered anything.
 */
export async function sqlCursor<Row extends pg.QueryResultRow>(
  db: Db,
  statement: Prisma.Sql,
  { batchRows, timeoutMs }: CursorOptions,
): Promise<{ first: Row[]; cursor: SqlCursor<Row> }> {
  const pool = poolOf(db);
  if (!pool) throw new Error('sqlCursor needs the pg pool under Prisma');
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`not a timeout in ms: ${timeoutMs}`);
  if (!Number.isInteger(batchRows) || batchRows <= 0) throw new Error(`not a batch size: ${batchRows}`);
  const client = await pool.connect();
  let closing: Promise<void> | undefined;
  let done = false;
  const close = (error?: Error): Promise<void> => {
    closing ??= (async () => {
      let broken: Error | undefined;
      // Queued behind a FETCH in flight, if any: node-postgres runs one query at a time.
      await client.query(error ? 'ROLLBACK' : 'COMMIT').catch(async () => {
        await client.query('ROLLBACK').catch((rollbackError: Error) => {
          broken = rollbackError;
        });
      });
      client.release(broken);
    })();
    return closing;
  };
  const fetch = async (): Promise<Row[]> => {
    if (done || closing) return [];
    const { rows } = await client.query<Row>(`FETCH FORWARD ${batchRows} FROM portal_export`);
    if (rows.length < batchRows) done = true;
    return rows;
  };
  try {
    // SET takes no parameter; the value is an integer checked above, never anything a request sent.
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${timeoutMs}`);
    await client.query(`DECLARE portal_export NO SCROLL CURSOR FOR ${statement.text}`, statement.values);
    const first = await fetch();
    return { first, cursor: { next: fetch, close } };
  } catch (error) {
    await close(error as Error);
    throw error;
  }
}
