import autocannon from 'autocannon';
import type { LoadRequest, LoadResult } from './load';

/**
 * The load generator's own process (forked by bench/lib/load.ts): autocannon here takes CPU
 * from neither the server under test nor the process that measures. Every answer's latency is
 * kept, so p95 is exact (autocannon's own histogram reports p90 and p97.5, not p95).
 */

type Job = {
  id: number;
  url: string;
  connections: number;
  seconds: number;
  requests: LoadRequest[];
  keepSamples?: boolean;
};

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

async function run(job: Job): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const instance = autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.seconds,
    pipelining: 1,
    timeout: 10,
    requests: job.requests.map((request) => ({
      method: request.method ?? 'GET',
      path: request.path,
      ...(request.headers ? { headers: request.headers } : {}),
      ...(request.body ? { body: request.body } : {}),
    })),
  });
  (instance as unknown as NodeJS.EventEmitter).on(
    'response',
    (_client: unknown, status: number, _bytes: number, ms: number) => {
      latencies.push(ms);
      statuses[status] = (statuses[status] ?? 0) + 1;
    },
  );
  const result = await instance;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    seconds: result.duration,
    requestsPerSecond: latencies.length / result.duration,
    statuses,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyMs: {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted.at(-1) ?? Number.NaN,
    },
    ...(job.keepSamples ? { samples: latencies } : {}),
  };
}

process.on('message', (job: Job) => {
  run(job).then(
    (result) => process.send?.({ id: job.id, result }),
    (error: unknown) => process.send?.({ id: job.id, error: String(error) }),
  );
});
