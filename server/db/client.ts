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
  const adapter = new OneQueryAtATimeInTransactions(pool, {
    onConnectionError: onError,
    // $disconnect() ends the pool, as it would end a pool the adapter had made itself.
    disposeExternalPool: true,
  });
  const db = new PrismaClient({ adapter });
  pools.set(db, pool);
  return db;
}

type Transaction = Awaited<ReturnType<Awaited<ReturnType<PrismaPg['connect']>>['startTransaction']>>;

/**
 * PrismaPg whose interactive transactions send their queries one after another. A transaction
 * holds one pg connection, and Prisma 7's query interpreter reads the relations of one query at
 * once (a Promise.all over a join's children): a read with several relations inside
 * `$transaction` queued queries on a busy pg client, which pg deprecates (it is an error from
 * pg 9). Queries outside a transaction each take a pooled connection and are left alone.
 */
class OneQueryAtATimeInTransactions extends PrismaPg {
  override async connect() {
    const adapter = await super.connect();
    const startTransaction = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = async (isolationLevel) => inTurn(await startTransaction(isolationLevel));
    return adapter;
  }
}

/** The transaction's queries wait for the one before (its failure included) before they are sent. */
function inTurn(tx: Transaction): Transaction {
  let previous: Promise<unknown> = Promise.resolve();
  const queued = <T>(send: () => Promise<T>): Promise<T> => {
    const result = previous.then(send, send);
    previous = result.catch(() => {});
    return result;
  };
  const queryRaw = tx.queryRaw.bind(tx);
  const executeRaw = tx.executeRaw.bind(tx);
  tx.queryRaw = (query) => queued(() => queryRaw(query));
  tx.executeRaw = (query) => queued(() => executeRaw(query));
  return tx;
}

/** The pg pool under a Db made by createDb (undefined for any other). */
export function poolOf(db: Db): pg.Pool | undefined {
  return pools.get(db);
}
