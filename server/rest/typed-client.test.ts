import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typedClientTour } from '../../examples/typed-client';
import { API_TYPES_FILE, generateApiTypes } from '../../scripts/openapi-types';
import { createTemplate, createUser, DEFAULT_PASSWORD } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';

/**
 * docs/API.md's typed client: the committed types are what openapi-typescript makes of the served
 * document today, the example compiles against them, and it works against a real server.
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
  it('uses types generated from the served document (npm run openapi:types regenerates them)', async () => {
    const served = (await app.inject('/api/openapi.json')).json();
    const fresh = generateApiTypes(served);
    expect(
      readFileSync(API_TYPES_FILE, 'utf8') === fresh,
      'examples/api-types.ts is out of date: run `npm run openapi:types`',
    ).toBe(true);
  });

  it('type-checks against them', () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const result = spawnSync(
      process.execPath,
      [path.join(root, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', 'examples/tsconfig.json'],
      { cwd: root, encoding: 'utf8' },
    );
    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('lists, creates and reads an error against a running server', async () => {
    const agent = await createUser(database.db);
    await createTemplate(database.db, { type: 'Purchase', role: 'Buyer', documents: ['Purchase Agreement'] });
    const result = await typedClientTour(baseUrl, { email: agent.email, password: DEFAULT_PASSWORD });
    expect(result.created).toMatchObject({
      streetAddress: '221 Typed Way',
      user: { _id: agent.id },
      forms: [{ label: 'Purchase Agreement', status: 'pending' }],
    });
    expect(result.total).toBe(1);
    expect(result.missing).toEqual({
      status: 404,
      error: { message: expect.any(String), code: 'NOT_FOUND' },
    });
  });
});
