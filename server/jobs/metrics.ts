import { Counter, Histogram, Registry } from 'prom-client';

/**
 * The job engine's own figures, in a registry /metrics appends: runs by kind and
 * outcome, latency (due -> started) and duration. Queue depth and failures at rest are read from
 * the queue's tables when Prometheus scrapes (server/plugins/metrics.ts).
 */
export const jobRegistry = new Registry();
const PREFIX = 'portal_';

export const jobMetrics = {
  runs: new Counter({
    name: `${PREFIX}jobs_runs_total`,
    help: 'Job runs by kind and outcome (done, retry, gave-up).',
    labelNames: ['kind', 'outcome'],
    registers: [jobRegistry],
  }),
  latency: new Histogram({
    name: `${PREFIX}jobs_latency_seconds`,
    help: 'From when a job was due to when a worker started it.',
    labelNames: ['kind'],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [jobRegistry],
  }),
  duration: new Histogram({
    name: `${PREFIX}jobs_duration_seconds`,
    help: 'How long a job ran.',
    labelNames: ['kind'],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [jobRegistry],
  }),
};
