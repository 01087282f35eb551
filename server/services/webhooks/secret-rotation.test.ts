import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreatedApiKeyAnswer } from '../../../shared/schemas/api-keys';
import type {
  CreatedWebhookEndpoint,
  RotatedWebhookSecret,
  WebhookDelivery,
} from '../../../shared/schemas/webhooks';
import { webhookMessages } from '../../../shared/webhook-messages';
import type { AppDeps } from '../../deps';
import { createAdmin, createUser } from '../../test/factories';
import {
  buildTestApp,
  ShiftedClock,
  serviceContext,
  setupTestDatabase,
  testConfig,
  testDeps,
} from '../../test/harness';
import { restCalls } from '../../test/rest-calls';
import { type Received, type Receiver, startReceiver } from '../../test/webhook-receiver';
import { deliverWebhook } from './deliver';
import { openSecret } from './secrets';

/**
 * Rotating an endpoint's secret: the new one in the answer only, deliveries signed with the new
 * and the replaced secret for 24 h (each verified by the `standardwebhooks` library against a
 * real HTTP receiver), then with the new one alone. Deliveries are sent by calling the job's
 * operation directly, so the test decides the clock each attempt reads.
 */

const database = setupTestDatabase();
const clock = new ShiftedClock();
const HOUR = 3_600_000;
let deps: AppDeps;
let app: FastifyInstance;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let agent: Awaited<ReturnType<typeof createUser>>;
let to: Receiver;

beforeAll(async () => {
  deps = testDeps(database.db, { clock, config: testConfig({ webhookAllowPrivate: true }) });
  app = buildTestApp(deps);
  admin = await createAdmin(database.db);
  agent = await createUser(database.db);
  to = await startReceiver();
});
afterAll(async () => {
  await to?.close();
  await app?.close();
});

const { call, ok, refused } = restCalls(() => app, clock);

async function newEndpoint() {
  return ok<CreatedWebhookEndpoint>(201, 'POST', '/api/admin/webhooks', admin, {
    url: to.url,
    events: ['user.registered'],
  });
}

const rotate = (id: string) =>
  ok<RotatedWebhookSecret>(200, 'POST', `/api/admin/webhooks/${id}/rotate-secret`, admin, {});

/** A ping delivered now, on the real clock: what the receiver got. */
async function deliverPing(endpointId: string): Promise<Received> {
  const delivery = await ok<WebhookDelivery>(
    200,
    'POST',
    `/api/admin/webhooks/${endpointId}/test`,
    admin,
    {},
  );
  const before = to.received.length;
  await deliverWebhook(serviceContext(deps), { deliveryId: delivery._id });
  expect(to.received).toHaveLength(before + 1);
  return to.received[before] as Received;
}

const headersOf = (got: Received) => ({
  'webhook-id': got.id,
  'webhook-timestamp': got.timestamp,
  'webhook-signature': got.signature,
});
const verifies = (secret: string, got: Received) => {
  try {
    new Webhook(secret).verify(got.body, headersOf(got));
    return true;
  } catch {
    return false;
  }
};

/** Rotates while the clock reads `ago` earlier than now, then brings the clock back to now. */
async function rotatedAgo(id: string, ago: number): Promise<string> {
  clock.offset = -ago;
  try {
    return (await rotate(id)).secret;
  } finally {
    clock.offset = 0;
  }
}

describe('rotating a webhook secret', () => {
  it('answers a new whsec_ secret; for 24 h both signatures, the new first, each verifies', async () => {
    const endpoint = await newEndpoint();
    const { secret } = await rotate(endpoint._id);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(secret).not.toBe(endpoint.secret);
    const got = await deliverPing(endpoint._id);
    expect(got.signature.split(' ')).toHaveLength(2);
    const sentAt = new Date(Number(got.timestamp) * 1000);
    expect(got.signature.split(' ')[0]).toBe(new Webhook(secret).sign(got.id, sentAt, got.body));
    expect(verifies(secret, got) || 'refused with the new secret').toBe(true);
    expect(verifies(endpoint.secret, got) || 'refused with the old secret').toBe(true);
  });

  it('23 h after a rotation both still sign', async () => {
    const endpoint = await newEndpoint();
    const secret = await rotatedAgo(endpoint._id, 23 * HOUR);
    const got = await deliverPing(endpoint._id);
    expect([verifies(secret, got), verifies(endpoint.secret, got)]).toEqual([true, true]);
  });

  it('more than 24 h after a rotation only the new secret signs', async () => {
    const endpoint = await newEndpoint();
    const secret = await rotatedAgo(endpoint._id, 24 * HOUR + 60_000);
    const got = await deliverPing(endpoint._id);
    expect(got.signature.split(' ')).toHaveLength(1);
    expect(verifies(secret, got)).toBe(true);
    expect(verifies(endpoint.secret, got)).toBe(false);

    // Just inside the 24 h, the same delivery would still carry both.
    const other = await newEndpoint();
    const recent = await rotatedAgo(other._id, 24 * HOUR - 60_000);
    const both = await deliverPing(other._id);
    expect([verifies(recent, both), verifies(other.secret, both)]).toEqual([true, true]);
  });

  it('rotating again within 24 h keeps the current and the one just replaced; the first is dropped', async () => {
    const endpoint = await newEndpoint();
    const second = (await rotate(endpoint._id)).secret;
    const third = (await rotate(endpoint._id)).secret;
    const got = await deliverPing(endpoint._id);
    expect(got.signature.split(' ')).toHaveLength(2);
    expect(verifies(third, got)).toBe(true);
    expect(verifies(second, got)).toBe(true);
    expect(verifies(endpoint.secret, got)).toBe(false);
  });

  it('stores the replaced secret sealed with its expiry, and audits the rotation without any secret', async () => {
    const endpoint = await newEndpoint();
    const rotatedAt = clock.now().getTime();
    const { secret } = await rotate(endpoint._id);
    const row = await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint._id } });
    expect(row.secretSealed).not.toContain('whsec_');
    expect(row.previousSecretSealed).not.toContain('whsec_');
    expect(openSecret(deps, row.secretSealed)).toBe(secret);
    expect(openSecret(deps, row.previousSecretSealed ?? '')).toBe(endpoint.secret);
    const expires = row.previousSecretExpiresAt?.getTime() ?? 0;
    expect(expires - rotatedAt).toBeGreaterThanOrEqual(24 * HOUR);
    expect(expires - rotatedAt).toBeLessThan(24 * HOUR + 60_000);

    const audit = await database.db.auditEvent.findFirstOrThrow({
      where: { entityId: endpoint._id, action: 'webhook.rotate-secret' },
    });
    expect(audit.actorId).toBe(admin.id);
    const recorded = JSON.stringify(audit, (_key, value) =>
      typeof value === 'bigint' ? String(value) : value,
    );
    for (const leaked of [secret, endpoint.secret, row.previousSecretSealed ?? '', row.secretSealed])
      expect(recorded).not.toContain(leaked);
  });

  it('404 for an unknown endpoint, 400 for an id that is not one; nothing changes', async () => {
    await refused(
      404,
      webhookMessages.notFound,
      'POST',
      '/api/admin/webhooks/00000000-0000-4000-8000-000000000000/rotate-secret',
      admin,
      {},
    );
    const res = await call('POST', '/api/admin/webhooks/not-an-id/rotate-secret', admin, {});
    expect(res.statusCode).toBe(400);
  });

  it('403 for an agent and for a key without webhooks:manage; a key with it rotates', async () => {
    const endpoint = await newEndpoint();
    const path = `/api/admin/webhooks/${endpoint._id}/rotate-secret`;
    expect((await call('POST', path, agent, {})).statusCode).toBe(403);
    expect((await call('POST', path, undefined, {})).statusCode).toBe(401);
    const viaKey = async (scopes: string[]) => {
      const { key } = await ok<CreatedApiKeyAnswer>(201, 'POST', '/api/admin/api-keys', admin, {
        name: `Rotation ${scopes.join(' ')}`,
        scopes,
      });
      return app.inject({
        method: 'POST',
        url: path,
        headers: { authorization: `Bearer ${key}` },
        payload: {},
      });
    };
    const refusedKey = await viaKey(['users:read']);
    expect(refusedKey.statusCode).toBe(403);
    const unchanged = await database.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint._id } });
    expect(unchanged.previousSecretSealed).toBeNull();
    const allowed = await viaKey(['webhooks:manage']);
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect(allowed.json<RotatedWebhookSecret>().secret).toMatch(/^whsec_/);
  });
});
