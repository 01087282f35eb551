import { PrismaPg } from '@prisma/adapter-pg';
import type { FastifyBaseLogger } from 'fastify';
import { describeErrorForLog } from '../errors';
import { PrismaClient } from './generated/client';

export type Db = PrismaClient;

export type DbOptions = {
  /** Connections in this process's pool. */
  poolSize?: number;
  log?: Pick<FastifyBaseLogger, 'warn'>;
};

/**
 * Prisma over node-postgres. A connection attempt gives up after 5 s so a database outage
 * becomes a prompt 503 instead of a hung request; idle clients that the server drops (restart,
 * failover) are logged and replaced, never allowed to crash the process.
 */
export function createDb(url: string, options: DbOptions = {}): Db {
  const onError = (error: Error) =>
    options.log?.warn({ error: describeErrorForLog(error) }, 'database connection lost');
  const adapter = new PrismaPg(
    {
      connectionString: url,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      application_name: 'brokerage-portal',
    },
    { onPoolError: onError, onConnectionError: onError },
  );
  return new PrismaClient({ adapter });
}
