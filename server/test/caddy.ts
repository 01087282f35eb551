import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../db/embedded';
import { PROJECT_ROOT } from '../paths';
import { until } from './until';

/**
 * The deployment's load balancer for tests: Caddy (Debian's package; .ci/run installs it) running
 * deploy/Caddyfile itself, the very file docker-compose.yml mounts, with its listen address and
 * upstreams given through the file's environment placeholders.
 */

export const CADDYFILE = path.join(PROJECT_ROOT, 'deploy', 'Caddyfile');

export type RunningCaddy = {
  /** http://127.0.0.1:<port> */
  baseUrl: string;
  output(): string;
  close(): Promise<void>;
};

export async function startCaddy(upstreams: string[]): Promise<RunningCaddy> {
  const binary = process.env.CADDY_PATH ?? 'caddy';
  const home = await mkdtemp(path.join(tmpdir(), 'portal-caddy-'));
  const port = await freePort();
  const child: ChildProcess = spawn(binary, ['run', '--config', CADDYFILE, '--adapter', 'caddyfile'], {
    cwd: home,
    env: {
      PATH: process.env.PATH,
      // Caddy keeps its state (certificates, autosaved config) under these; never the user's own.
      HOME: home,
      XDG_DATA_HOME: home,
      XDG_CONFIG_HOME: home,
      PORTAL_ADDRESS: `:${port}`,
      PORTAL_UPSTREAMS: upstreams.join(' '),
      PORTAL_CADDY_ADMIN: `127.0.0.1:${await freePort()}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const spawnFailure = new Promise<Error>((resolve) => child.once('error', resolve));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const close = async () => {
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    child.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
  };

  const ready = until(async () => {
    const answer = await fetch(`${baseUrl}/healthz`).catch(() => undefined);
    return answer?.status === 200;
  }, 15_000);
  const quit = exited.then(() => new Error('Caddy exited during start-up'));
  const outcome = await Promise.race([
    ready.then(() => undefined),
    spawnFailure,
    quit,
    ready.catch((e: Error) => e),
  ]);
  if (outcome instanceof Error) {
    await close();
    const missing = (outcome as NodeJS.ErrnoException).code === 'ENOENT';
    throw new Error(
      missing
        ? `Caddy is needed for the load-balancer tests and was not found (${binary}): apt-get install -y caddy, or set CADDY_PATH`
        : `Caddy did not start with ${CADDYFILE}: ${outcome.message}\n${output}`,
    );
  }
  return { baseUrl, output: () => output, close };
}
