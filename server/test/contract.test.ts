import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageAnswer } from '../../shared/schemas/common';
import { AppError } from '../errors';
import { publicProcedure, router } from '../trpc/init';
import { checkWebhookBodies, takeContractViolations } from './contract';
import { buildTestApp, setupTestDatabase, testDeps } from './harness';
import type { OpenApiDocument } from './openapi-schemas';
import { testRest } from './rest-meta';

/**
 * The contract check itself (server/test/contract.ts): an answer outside the document is recorded,
 * naming the operation, the status and what is wrong. Each test takes what it recorded, so this
 * file does not fail for the violations it makes on purpose.
 */

const strayRouter = router({
  // Answers 409, which its facts do not list: a path without input, parameters or session
  // documents 429 only.
  clash: publicProcedure
    .meta(testRest('GET', '/api/clash', { summary: 'Clash', tag: 'test', scope: 'any' }))
    .output(messageAnswer)
    .query((): { message: string } => {
      throw new AppError('CONFLICT', 'Taken');
    }),
  fine: publicProcedure
    .meta(testRest('GET', '/api/fine', { summary: 'Fine', tag: 'test', scope: 'any' }))
    .output(messageAnswer)
    .query(() => ({ message: 'ok' })),
});

const database = setupTestDatabase();
let app: FastifyInstance;
let doc: OpenApiDocument;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db), { api: { router: strayRouter } });
  doc = (await app.inject('/api/openapi.json')).json();
});
afterAll(() => app.close());

describe('the contract check', () => {
  it('passes an answer the document describes', async () => {
    const res = await app.inject('/api/fine');
    expect(res.statusCode).toBe(200);
    expect(takeContractViolations()).toEqual([]);
  });

  it('records a status the operation does not document, naming the operation', async () => {
    const res = await app.inject('/api/clash');
    expect(res.statusCode).toBe(409);
    expect(takeContractViolations()).toEqual(['clash (GET /api/clash) 409: status 409 is not documented']);
  });

  it('passes what the document does not describe: unknown paths, the document itself', async () => {
    expect((await app.inject('/api/nowhere')).statusCode).toBe(404);
    expect((await app.inject('/api/openapi.json')).statusCode).toBe(200);
    expect(takeContractViolations()).toEqual([]);
  });

  it('records a webhook body outside its documented schema, and an undocumented event type', () => {
    const ping = (data: unknown) =>
      JSON.stringify({ type: 'ping', timestamp: '2026-11-21T12:00:00.000Z', data });
    checkWebhookBodies(doc, [
      { type: 'ping', body: ping({ webhookId: '6f1c2b9e-4d3a-4c1b-9a7e-1234567890ab' }) },
      { type: 'ping', body: ping({ webhookId: 'not-an-id' }) },
      { type: 'transaction.exploded', body: ping({}) },
    ]);
    const found = takeContractViolations();
    expect(found).toHaveLength(2);
    expect(found[0]).toMatch(/^webhook ping: the body does not match its schema: .*webhookId/);
    expect(found[1]).toBe("webhook transaction.exploded: the event type is not in the document's webhooks");
  });
});
