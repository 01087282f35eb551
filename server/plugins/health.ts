import type { FastifyPluginAsync } from 'fastify';
import { apiMessages } from '../../shared/messages';
import type { AppDeps } from '../deps';
import { AppError, describeErrorForLog } from '../errors';

const READINESS_TIMEOUT_MS = 2_000;

/**
 * /healthz: the process is up (a load balancer's liveness probe).
 * /readyz: the database answers within 2 s, else 503 (take this instance out of rotation). Also
 * 503 from the moment the process starts shutting down, while it still serves everything else:
 * the load balancer's next health check moves new requests to the other instances.
 */
export const healthRoutes: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (req) => {
    // A planned drain: an AppError without a cause, so neither logged as an error nor counted as
    // a server failure in /metrics (classifyError).
    if (deps.shutdown?.aborted) throw new AppError('SERVICE_UNAVAILABLE', apiMessages.shuttingDown);
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        deps.db.$queryRawUnsafe('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('database did not answer in time')),
            READINESS_TIMEOUT_MS,
          );
        }),
      ]);
      return { status: 'ok', database: 'up' };
    } catch (error) {
      req.log.warn({ error: describeErrorForLog(error) }, 'readiness check failed');
      throw new AppError('SERVICE_UNAVAILABLE', 'Database unavailable');
    } finally {
      clearTimeout(timer);
    }
  });
};
