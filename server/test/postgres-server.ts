import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../db/embedded';

/**
 * The PostgreSQL server a test run uses: TEST_DATABASE_URL when set; else
 * a throw-away container when a Docker engine answers; else an embedded PostgreSQL in a
 * temporary directory. testcontainers is imported only after Docker answered, so machines
 * without Docker pay nothing for it.
 */

export type TestPostgres = { adminUrl: string; kind: 'url' | 'docker' | 'embedded'; stop(): Promise<void> };

function dockerSocketPath(): string | undefined {
  const host = process.env.DOCKER_HOST;
  if (host?.startsWith('unix://')) return host.slice('unix://'.length);
  if (host) return undefined; // tcp:// engines: let testcontainers decide below
  return '/var/run/docker.sock';
}

export async function dockerAnswers(timeoutMs = 1_000): Promise<boolean> {
  const socketPath = dockerSocketPath();
  if (process.env.DOCKER_HOST && !socketPath) return true;
  if (!socketPath || !existsSync(socketPath)) return false;
  return new Promise((resolve) => {
    const req = http.get({ socketPath, path: '/_ping', timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

export async function startTestPostgres(): Promise<TestPostgres> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return { adminUrl: url, kind: 'url', stop: async () => {} };

  if (await dockerAnswers()) {
    const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
    const container = await new PostgreSqlContainer('postgres:18-alpine').start();
    return {
      adminUrl: container.getConnectionUri(),
      kind: 'docker',
      stop: async () => void (await container.stop()),
    };
  }

  const dataDir = await mkdtemp(path.join(tmpdir(), 'portal-test-pg-'));
  const embedded = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  return {
    adminUrl: embedded.adminUrl,
    kind: 'embedded',
    stop: async () => {
      await embedded.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
