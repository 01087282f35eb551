import type { FastifyPluginAsync } from 'fastify';
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

  app.get('/readyz', async (req, reply) => {
    // Answered here, not thrown: a planned drain is neither an error to log nor a server failure
    // to count in /metrics (every rolling deploy would raise the 5xx alert).
    if (deps.shutdown?.aborted) {
      return reply.code(503).send({ message: 'Shutting down', code: 'SERVICE_UNAVAILABLE' });
    }
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
