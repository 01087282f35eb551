import { describe, expect, it } from 'vitest';
import { createAdmin } from '../../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { webhookBody } from './events';
import { pruneWebhookDeliveries, WEBHOOK_RETENTION_DAYS } from './retention';

/** Settled deliveries and their events go after 30 days; pending ones stay, whatever their age. */

const database = setupTestDatabase();
const clock = new TestClock(new Date('2026-11-28T03:37:00.000Z'));
const DAY = 86_400_000;

async function delivery(endpointId: string, status: string, ageDays: number) {
  const at = new Date(clock.now().getTime() - ageDays * DAY);
  const event = await database.db.webhookEvent.create({
    // A body as the portal writes it: every recorded body is checked against the document.
    data: { type: 'ping', body: webhookBody('ping', at, { webhookId: endpointId }), createdAt: at },
  });
  return database.db.webhookDelivery.create({
    data: { endpointId, eventId: event.id, status, createdAt: at },
  });
}

describe('pruneWebhookDeliveries', () => {
  it('deletes settled deliveries past the retention and the events left without any', async () => {
    const admin = await createAdmin(database.db);
    const endpoint = await database.db.webhookEndpoint.create({
      data: {
        url: 'https://example.com/hook',
        events: ['transaction.updated'],
        secretSealed: 'x',
        createdById: admin.id,
      },
    });
    const old = WEBHOOK_RETENTION_DAYS + 1;
    const kept = [
      await delivery(endpoint.id, 'succeeded', WEBHOOK_RETENTION_DAYS - 1),
      await delivery(endpoint.id, 'failed', 2),
      await delivery(endpoint.id, 'pending', old),
    ];
    // Settled and past the retention: these two go.
    await delivery(endpoint.id, 'succeeded', old);
    await delivery(endpoint.id, 'failed', old + 10);

    expect(await pruneWebhookDeliveries(serviceContext(testDeps(database.db, { clock })))).toBe(2);
    const left = await database.db.webhookDelivery.findMany({ select: { id: true, eventId: true } });
    expect(left.map((row) => row.id).sort()).toEqual(kept.map((row) => row.id).sort());
    const events = await database.db.webhookEvent.findMany({ select: { id: true } });
    expect(events.map((row) => row.id).sort()).toEqual(kept.map((row) => row.eventId).sort());
  });
});
