import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, readMigrations } from '../db/migrate';
import { dropDatabasesLike, ensureTemplate } from './databases';
import { startTestPostgres } from './postgres-server';

export type TestDatabaseServer = { adminUrl: string; template: string; runPrefix: string };

declare module 'vitest' {
  // biome-ignore lint/style/useConsistentTypeDefinitions: module augmentation needs an interface
  export interface ProvidedContext {
    testDatabaseServer: TestDatabaseServer;
  }
}

/**
 * The installed graphile-worker, whose schema a migrated database holds too. Read beside its entry
 * point: the package exports no package.json.
 */
const JOB_QUEUE_VERSION: string = JSON.parse(
  readFileSync(
    path.join(path.dirname(createRequire(import.meta.url).resolve('graphile-worker')), '..', 'package.json'),
    'utf8',
  ),
).version;

const SERVER_KIND = {
  url: 'the PostgreSQL of TEST_DATABASE_URL',
  docker: 'a PostgreSQL container (Docker)',
  embedded: 'an embedded PostgreSQL in a temporary folder',
} as const;

/** Starts the test PostgreSQL once per run and prepares the migrated template database. */
export default async function setup(project: TestProject) {
  const server = await startTestPostgres();
  // Say once which of the three it picked: a surprise here explains surprising results.
  console.warn(`Server tests run on ${SERVER_KIND[server.kind]}`);
  // Named after the migrations' content and the job queue's version (its schema is migrated
  // too): an edited or new migration, or another graphile-worker, gets a fresh template.
  const migrations = await readMigrations();
  const fingerprint = createHash('sha256')
    .update(migrations.map((m) => `${m.name}:${m.checksum}`).join('\n'))
    .update(`graphile-worker:${JOB_QUEUE_VERSION}`)
    .digest('hex')
    .slice(0, 16);
  const template = `portal_template_${fingerprint}`;
  await ensureTemplate(server.adminUrl, template, async (url) => void (await migrate(url)));

  const runPrefix = `portal_test_${randomBytes(3).toString('hex')}`;
  project.provide('testDatabaseServer', {
    adminUrl: server.adminUrl,
    template,
    runPrefix,
  });

  return async () => {
    // Files drop their own databases; this catches those of a file that crashed.
    await dropDatabasesLike(server.adminUrl, runPrefix).catch(() => {});
    await server.stop();
  };
}
