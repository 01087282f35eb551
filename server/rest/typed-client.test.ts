import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiTypes } from '../../scripts/openapi-types';
import { createTemplate, createUser, DEFAULT_PASSWORD } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';

/**
 * docs/API.md's typed client: the example compiles against the types openapi-typescript makes of
 * the served document today, and works against a real server.
 */

const database = setupTestDatabase();
let app: FastifyInstance;
let baseUrl: string;
beforeAll(async () => {
  app = buildTestApp(testDeps(database.db));
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

describe('the typed client of docs/API.md', () => {
  it('type-checks against the types generated from the served document', async () => {
    // In a folder of the project, so `openapi-fetch` resolves from its node_modules.
    const root = path.resolve(import.meta.dirname, '../..');
    mkdirSync(path.join(root, '.scratch'), { recursive: true });
    const dir = mkdtempSync(path.join(root, '.scratch/typed-client-'));
    try {
      const served = (await app.inject('/api/openapi.json')).json();
      writeFileSync(path.join(dir, 'api-types.ts'), generateApiTypes(served));
      copyFileSync(path.join(root, 'examples/typed-client.ts'), path.join(dir, 'typed-client.ts'));
      writeFileSync(
        path.join(dir, 'tsconfig.json'),
        JSON.stringify({
          extends: '../../tsconfig.json',
          compilerOptions: { types: ['node'] },
          include: ['*.ts'],
        }),
      );
      const result = spawnSync(
        process.execPath,
        [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', dir],
        { cwd: root, encoding: 'utf8' },
      );
      expect(result.status, result.stdout + result.stderr).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists, creates and reads an error against a running server', async () => {
    const agent = await createUser(database.db);
    await createTemplate(database.db, { type: 'Purchase', role: 'Buyer', documents: ['Purchase Agreement'] });
    // Imported by a path computed at run time: the example needs the generated examples/api-types.ts
    // (not committed) to type-check, so the project's own `tsc --noEmit` must not follow it; the
    // test above type-checks it against freshly generated types instead.
    const example = path.resolve(import.meta.dirname, '../../examples/typed-client.ts');
    const { typedClientTour } = (await import(example)) as {
      typedClientTour(
        baseUrl: string,
        credentials: { email: string; password: string },
      ): Promise<{ created: unknown; total: number; missing: unknown }>;
    };
    const result = await typedClientTour(baseUrl, { email: agent.email, password: DEFAULT_PASSWORD });
    expect(result.created).toMatchObject({
      streetAddress: '221 Typed Way',
      user: { _id: agent.id },
      forms: [{ label: 'Purchase Agreement', status: 'pending' }],
    });
    expect(result.total).toBe(1);
    expect(result.missing).toEqual({
      status: 404,
      error: { message: expect.any(String), code: 'NOT_FOUND', error: 'not-found' },
    });
  });
});
