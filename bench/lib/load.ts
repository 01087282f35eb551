import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * HTTP load from a second process (autocannon's engine run in a child process): the
 * server under test keeps its event loop to itself, and the figures are autocannon's, with
 * exact p50/p95/p99 over every answer.
 */

export type LoadRequest = {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
};

export type LoadResult = {
  /** Answers received (any status). */
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  /** Answers by HTTP status. */
  statuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  /** Every answer's latency in ms, when asked for with `keepSamples`. */
  samples?: number[];
};

export type LoadOptions = {
  /** http://host:port of the target. */
  url: string;
  connections: number;
  seconds: number;
  /** Sent in turn on every connection, round and round (e.g. one per page). */
  requests: LoadRequest[];
  /** Return every latency too (to pool the percentiles of several runs). */
  keepSamples?: boolean;
};

type Reply = { id: number; result?: LoadResult; error?: string };

export type LoadGenerator = {
  run(options: LoadOptions): Promise<LoadResult>;
  close(): Promise<void>;
};

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'load-process.ts');

/** Forks the load process once; each run() is one autocannon run in it. */
export function startLoadGenerator(): LoadGenerator {
  const child: ChildProcess = fork(WORKER, [], { execArgv: ['--import', 'tsx'], stdio: 'inherit' });
  const waiting = new Map<number, { resolve(result: LoadResult): void; reject(error: Error): void }>();
  let nextId = 1;
  child.on('message', (reply: Reply) => {
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.result) pending?.resolve(reply.result);
    else pending?.reject(new Error(reply.error ?? 'the load process answered nothing'));
  });
  child.on('exit', (code) => {
    for (const pending of waiting.values()) pending.reject(new Error(`the load process exited (${code})`));
    waiting.clear();
  });
  return {
    run(options) {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ id, ...options });
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** A load result's statuses other than the expected one, e.g. "12 x 503", or '' when none. */
export function unexpectedStatuses(result: LoadResult, expected = 200): string {
  return Object.entries(result.statuses)
    .filter(([status]) => Number(status) !== expected)
    .map(([status, count]) => `${count} x ${status}`)
    .join(', ');
}
