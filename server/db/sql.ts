import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type pg from 'pg';
import { escapeLiteral } from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { type Db, poolOf } from './client';
import type { Prisma } from './generated/client';

/**
 * Hand-written SQL on the hottest paths, sent on the pg pool under Prisma: the same
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

/** Runs statements inside withinTransaction: rows as node-postgres reads them. */
export type TransactionQuery = <Row extends pg.QueryResultRow>(statement: Prisma.Sql) => Promise<Row[]>;

export type TransactionOptions = {
  /** statement_timeout of each statement, so a query no index can serve is cut off. */
  timeoutMs: number;
  /**
   * One snapshot for every statement (REPEATABLE READ, read only): figures read in two steps
   * (counts first, then the values those counts point at) see the same rows in both.
   */
  snapshot?: boolean;
};

/**
 * `work` on one connection inside a transaction of its own, under `options` (SET LOCAL, so
 * nothing outlives it). A statement cut off by the timeout is an error whose isStatementTimeout()
 * is true.
 */
export async function withinTransaction<T>(
  db: Db,
  options: TransactionOptions,
  work: (query: TransactionQuery) => Promise<T>,
): Promise<T> {
  const { timeoutMs, snapshot } = options;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new Error(`not a timeout in ms: ${timeoutMs}`);
  const pool = poolOf(db);
  if (!pool) {
    return db.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT set_config('statement_timeout', ${String(timeoutMs)}, true)`;
        return work(<Row extends pg.QueryResultRow>(statement: Prisma.Sql) => tx.$queryRaw<Row[]>(statement));
      },
      snapshot ? { isolationLevel: 'RepeatableRead' } : {},
    );
  }
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // One round trip for all of it (a simple query may hold several statements); SET takes no
    // parameter, and the values are integers from the code, never anything a request sent.
    const begin = snapshot ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
    await client.query(`${begin}; SET LOCAL statement_timeout = ${timeoutMs}`);
    const result = await work(
      async <Row extends pg.QueryResultRow>(statement: Prisma.Sql) =>
        (await client.query<Row>(statement.text, statement.values)).rows,
    );
    await client.query('COMMIT');
    return result;
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

/** One statement under its own statement_timeout: see withinTransaction. */
export function sqlRowsWithin<Row extends pg.QueryResultRow>(
  db: Db,
  timeoutMs: number,
  statement: Prisma.Sql,
): Promise<Row[]> {
  return withinTransaction(db, { timeoutMs }, (query) => query<Row>(statement));
}

/**
 * `statement` as one text with its values written in as SQL literals: COPY takes no parameters.
 * Strings go through node-postgres's escapeLiteral (quotes doubled; E'' when a backslash is
 * present), so a value can never end its literal; dates as their ISO text, numbers as numbers.
 */
export function inlineSql(statement: Prisma.Sql): string {
  const { values } = statement;
  return statement.text.replace(/\$(\d+)/g, (_, index: string) => {
    const value: unknown = values[Number(index) - 1];
    // A NUL would end the query text in the protocol: callers refuse it first (a 400).
    if (typeof value === 'string' && !value.includes('\u0000')) return escapeLiteral(value);
    if (value instanceof Date) return escapeLiteral(value.toISOString());
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    throw new Error(`cannot write a ${typeof value} into a COPY statement`);
  });
}

/** Writes `statement`'s rows as CSV (PostgreSQL's COPY format: LF, quoted as RFC 4180 quotes). */
export type CopyOut = {
  /** The bytes as PostgreSQL sends them; reading it paces the query (the socket is paused). */
  stream: Readable;
};

/**
 * `COPY (statement) TO STDOUT WITH (FORMAT csv)` on one pooled connection (the CSV exports of
 * docs/API.md): every row without a cursor's round trips or a JavaScript object per row, the
 * bytes forwarded as they arrive. The connection goes back to the pool when the copy ends; if the
 * stream is destroyed first (the client went away) it is closed instead, since it is still in the
 * middle of the COPY, and PostgreSQL stops the statement when its socket goes.
 */
export async function sqlCopyOut(db: Db, statement: Prisma.Sql): Promise<CopyOut> {
  const pool = poolOf(db);
  if (!pool) throw new Error('sqlCopyOut needs the pg pool under Prisma');
  const text = `COPY (${inlineSql(statement)}) TO STDOUT WITH (FORMAT csv)`;
  const client = await pool.connect();
  let released = false;
  const release = (error?: Error) => {
    if (released) return;
    released = true;
    client.release(error);
  };
  try {
    // handleReadyForQuery is node-postgres's hook on a submitted query (pg-copy-streams leaves it
    // empty; its types do not list it).
    const copy = copyTo(text) as ReturnType<typeof copyTo> & { handleReadyForQuery: () => void };
    // The client is free again only at ReadyForQuery, which follows the COPY's last data: pooled
    // before it, the next query would be queued behind this one.
    const ready = new Promise<void>((resolve) => {
      const handle = copy.handleReadyForQuery.bind(copy);
      copy.handleReadyForQuery = () => {
        handle();
        resolve();
      };
    });
    const stream = client.query(copy);
    let ended = false;
    stream.once('end', () => {
      ended = true;
    });
    stream.once('close', () => {
      if (ended) void ready.then(() => release());
      else release(new Error('COPY not finished'));
    });
    stream.once('error', (error: Error) => release(error));
    return { stream };
  } catch (error) {
    release(error as Error);
    throw error;
  }
}
