import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, integrationMessages } from '../../../shared/messages';
import type { CreatedApiKeyAnswer } from '../../../shared/schemas/api-keys';
import type { Transaction } from '../../../shared/schemas/transactions';
import { createAdmin, createTemplate, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { type Actor, restCalls } from '../../test/rest-calls';

/**
 * An admin, or an API key with transactions:write (acting as its admin), opens a transaction in an
 * agent's name with `agentId`: a back-office or CRM sync. Only an active agent the admin reaches;
 * an agent still names only itself.
 */

const database = setupTestDatabase();
const clock = new TestClock();
const RUN = Date.now().toString(36);
const TYPE = `OpenFor-${RUN}`;
let app: FastifyInstance;
let admin: Actor;
let agent: Actor;
let other: Actor;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  admin = await createAdmin(database.db);
  agent = await createUser(database.db);
  other = await createUser(database.db);
  await createTemplate(database.db, { type: TYPE, role: 'Seller', documents: ['Disclosure'] });
});
afterAll(() => app?.close());

const { ok, refused } = restCalls(() => app, clock);
let streets = 0;
const deal = (agentId?: string) => ({
  type: TYPE,
  role: 'Seller',
  streetAddress: `${++streets} Sync Rd ${RUN}`,
  city: 'Portland',
  state: 'ME',
  zip: '04101',
  ...(agentId === undefined ? {} : { agentId }),
});

const ownerOf = async (id: string) =>
  (await database.db.transaction.findUniqueOrThrow({ where: { id }, select: { userId: true } })).userId;

describe('opening a transaction for an agent', () => {
  it("an admin opens it in the agent's name; the audit names the admin", async () => {
    const opened = await ok<Transaction>(201, 'POST', '/api/transactions', admin, deal(agent.id));
    expect(await ownerOf(opened._id)).toBe(agent.id);
    const event = await database.db.auditEvent.findFirstOrThrow({
      where: { transactionId: opened._id, action: 'transaction.create' },
    });
    expect(event.actorId).toBe(admin.id);
  });

  it('an API key with transactions:write does too, as its admin', async () => {
    const { key } = await ok<CreatedApiKeyAnswer>(201, 'POST', '/api/admin/api-keys', admin, {
      name: `CRM ${RUN}`,
      scopes: ['transactions:write'],
    });
    const res = await app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: { authorization: `Bearer ${key}` },
      payload: deal(agent.id),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await ownerOf(res.json<Transaction>()._id)).toBe(agent.id);
  });

  it('refuses an unknown, deactivated or unapproved agent, an admin and another office’s agent with 400', async () => {
    const office = await database.db.office.create({ data: { name: `North ${RUN}` } });
    const officeAdmin = await createAdmin(database.db, { office: { connect: { id: office.id } } });
    const gone = await createUser(database.db, { deactivatedAt: new Date('2026-11-01T00:00:00Z') });
    const waiting = await createUser(database.db, { isAdminApproved: false });
    const before = await database.db.transaction.count();
    for (const [who, agentId] of [
      [admin, '00000000-0000-4000-8000-000000000000'],
      [admin, gone.id],
      [admin, waiting.id],
      [admin, officeAdmin.id],
      [officeAdmin, agent.id],
    ] as const) {
      await refused(400, integrationMessages.noActiveAgent, 'POST', '/api/transactions', who, deal(agentId));
    }
    expect(await database.db.transaction.count()).toBe(before);
  });

  it('an agent still names only itself (403)', async () => {
    await refused(403, apiMessages.forbidden, 'POST', '/api/transactions', agent, deal(other.id));
    const own = await ok<Transaction>(201, 'POST', '/api/transactions', agent, deal(agent.id));
    expect(await ownerOf(own._id)).toBe(agent.id);
  });
});
