import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKLIST_LABEL, exerciseExamples } from '../../scripts/exercise-examples';
import { typeCheckExamples } from '../../scripts/typecheck-examples';
import { systemClock } from '../clock';
import type { AppDeps } from '../deps';
import { createOwner, createTemplate, DEFAULT_PASSWORD } from '../test/factories';
import { buildTestApp, setupTestDatabase, testDeps } from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { testConfig } from '../test/test-config';

/**
 * docs/API.md's typed client: the examples (examples/*.ts) compile against the types
 * openapi-typescript makes of the served document today, and work against a listening server
 * with its job worker (the webhook of examples/integration.ts is delivered by a job).
 * `npm run example:typed-client` runs the same against the built server.
 */

const database = setupTestDatabase();
let deps: AppDeps;
let app: FastifyInstance;
let baseUrl: string;
let owner: { email: string; password: string };
beforeAll(async () => {
  // The real clock: a receiver refuses a delivery whose webhook-timestamp is 5 minutes off.
  // 127.0.0.1 allowed: the example's receiver listens there.
  deps = testDeps(database.db, { clock: systemClock, config: testConfig({ webhookAllowPrivate: true }) });
  app = buildTestApp(deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  baseUrl = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  const created = await createOwner(database.db);
  owner = { email: created.email, password: DEFAULT_PASSWORD };
  // The Purchase / Buyer template a portal's first start seeds, with the item the example fills.
  await createTemplate(database.db, {
    type: 'Purchase',
    role: 'Buyer',
    documents: ['Agency Disclosure', CHECKLIST_LABEL],
  });
});
runTestJobs(database, () => deps);
afterAll(() => app.close());

describe('the typed client examples of docs/API.md', () => {
  it('type-check against the types generated from the served document', async () => {
    const checked = typeCheckExamples((await app.inject('/api/openapi.json')).json());
    expect(checked.output).toBe('');
    expect(checked.ok).toBe(true);
  });

  it('sign in, then with an API key open a deal for an agent, attach a file, hear it accepted and find it in the events list', async () => {
    const passed: string[] = [];
    await exerciseExamples(baseUrl, owner, (line) => passed.push(line));
    expect(passed).toEqual([
      expect.stringMatching(/^typed-client\.ts: /),
      expect.stringMatching(/^integration\.ts: /),
    ]);
  });
});
