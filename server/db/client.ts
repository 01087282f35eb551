import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { describeErrorForLog } from '../errors';
import { type Prisma, PrismaClient } from './generated/client';

export type Db = PrismaClient;
/** What a `db.$transaction(async (tx) => ...)` callback receives: Db without the transaction methods. */
export type Tx = Prisma.TransactionClient;

export type DbOptions = {
  /** Connections in this process's pool. */
  poolSize?: number;
  log?: { warn(obj: object, msg: string): void };
};

/** The pg pool under each Db made here (see sqlRows in server/db/sql.ts). */
const pools = new WeakMap<Db, pg.Pool>();

/**
 * Prisma over node-postgres. A connection attempt gives up after 5 s so a database outage
 * becomes a prompt 503 instead of a hung request; idle clients that the server drops (restart,
 * failover) are logged and replaced, never allowed to crash the process.
 */
export function createDb(url: string, options: DbOptions = {}): Db {
  const onError = (error: Error) =>
    options.log?.warn({ error: describeErrorForLog(error) }, 'database connection lost');
  // Made here rather than by the adapter, so that a hot path can reach the same connections.
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
    application_name: 'brokerage-portal',
  });
  // Listened to here, not through the adapter, which listens only once Prisma runs a query:
  // an idle client dropped before that would otherwise be an unhandled 'error' event.
  pool.on('error', onError);
  const adapter = new PrismaPg(pool, {
    onConnectionError: onError,
    // $disconnect() ends the pool, as it would end a pool the adapter had made itself.
    disposeExternalPool: true,
  });
  const db = new PrismaClient({ adapter });
  pools.set(db, pool);
  return db;
}

/** The pg pool under a Db made by createDb (undefined for any other). */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}
