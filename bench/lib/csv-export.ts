import { type ChildProcess, spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_ROOT } from '../../server/paths';
import { cpuMs, rssBytes, sampleRss } from './process-usage';

/** The CSV export benchmarks' server and reader (bench/exports.bench.ts, bench/payouts.bench.ts). */

export type Server = { child: ChildProcess; baseUrl: string; pid: number; stop(): Promise<void> };

/** The portal in its own process (bench/lib/portal-process.ts), so its RSS is the server's alone. */
export async function startServer(databaseUrl: string): Promise<Server> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(PROJECT_ROOT, 'bench', 'lib', 'portal-process.ts'), databaseUrl],
    { cwd: PROJECT_ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = output.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (match?.[1] && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      return {
        child,
        baseUrl: match[1],
        pid: child.pid,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the portal process did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export type Export = {
  rows: number;
  bytes: number;
  ms: number;
  firstByteMs: number;
  rssBefore: number;
  rssPeak: number;
  cpuMs: number;
};

/** One full export over HTTP, read as fast as the client can, the server's RSS sampled every 20 ms. */
export async function exportOnce(server: Server, token: string, route: string): Promise<Export> {
  const rssBefore = await rssBytes(server.pid);
  const cpuBefore = await cpuMs(server.pid);
  const sampler = sampleRss(server.pid, 20);
  const began = performance.now();
  const result = await new Promise<{ rows: number; bytes: number; firstByteMs: number }>(
    (resolve, reject) => {
      const req = http.get(
        `${server.baseUrl}${route}`,
        { headers: { authorization: `Bearer ${token}` } },
        (res) => {
          if (res.statusCode !== 200) reject(new Error(`the export answered ${res.statusCode}`));
          let firstByteMs = Number.NaN;
          let lines = 0;
          let bytes = 0;
          res.on('data', (chunk: Buffer) => {
            if (Number.isNaN(firstByteMs)) firstByteMs = performance.now() - began;
            bytes += chunk.length;
            // The dataset's cells hold no line break, so records are lines.
            for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
          });
          res.on('end', () => resolve({ rows: lines - 1, bytes, firstByteMs }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
    },
  );
  const ms = performance.now() - began;
  const samples = await sampler.stop();
  return {
    ...result,
    ms,
    rssBefore,
    rssPeak: Math.max(rssBefore, ...samples),
    cpuMs: (await cpuMs(server.pid)) - cpuBefore,
  };
}
