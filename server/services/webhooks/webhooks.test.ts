import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type {
  CreatedWebhookEndpoint,
  WebhookDeliveriesPage,
  WebhookDelivery,
} from '../../../shared/schemas/webhooks';
import { webhookMessages } from '../../../shared/webhook-messages';
import type { AppDeps } from '../../deps';
import { type JobEngine, startJobEngine } from '../../jobs/engine';
import { transactionFileKey } from '../../storage/keys';
import { attachTestFile, createAdmin, createOwner, createTemplate, createUser } from '../../test/factories';
import {
  buildTestApp,
  ShiftedClock,
  serviceContext,
  setupTestDatabase,
  testConfig,
  testDeps,
} from '../../test/harness';
import { documentValidator, type OpenApiDocument } from '../../test/openapi-schemas';
import { restCalls } from '../../test/rest-calls';
import { until } from '../../test/until';
import { type Receiver, startReceiver } from '../../test/webhook-receiver';
import { setCommission } from '../commission/transaction-commission';
import * as transactions from '../transactions';
import { activateUser, createUser as addUser, deactivateUser } from '../users';
import { deliverWebhook } from './deliver';
import { emitWebhook } from './events';

/**
 * Webhooks end to end: the admin API, events recorded in the change's
 * own transaction, delivery by the real job engine to a real HTTP receiver that verifies every
 * signature with the `standardwebhooks` library, retries with one webhook-id, order per
 * transaction, a receiver down across an engine restart, deactivation after 24 h, and the
 * address rule with WEBHOOK_ALLOW_PRIVATE on (the local receiver) and off.
 */

const database = setupTestDatabase();
const clock = new ShiftedClock();
let deps: AppDeps;
/** The same database with WEBHOOK_ALLOW_PRIVATE off: what production does. */
let strictDeps: AppDeps;
let app: FastifyInstance;
let strictApp: FastifyInstance;
let engine: JobEngine;
let owner: Awaited<ReturnType<typeof createOwner>>;
let admin: Awaited<ReturnType<typeof createAdmin>>;
let agent: Awaited<ReturnType<typeof createUser>>;
const receivers: Receiver[] = [];

const startEngine = () =>
  startJobEngine(deps, pino({ level: 'silent' }), {
    connectionString: database.url,
    concurrency: 4,
    cron: false,
  });

beforeAll(async () => {
  deps = testDeps(database.db, { clock, config: testConfig({ webhookAllowPrivate: true }) });
  strictDeps = testDeps(database.db, { clock, config: testConfig() });
  app = buildTestApp(deps);
  strictApp = buildTestApp(strictDeps);
  owner = await createOwner(database.db);
  admin = await createAdmin(database.db);
  agent = await createUser(database.db);
  engine = await startEngine();
});
afterEach(async () => {
  await database.db.$executeRaw`DELETE FROM webhook_endpoints`;
});
afterAll(async () => {
  await engine?.stop();
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await app?.close();
  await strictApp?.close();
});

const { call, ok, refused } = restCalls(() => app, clock);
const strict = restCalls(() => strictApp, clock);

async function receiver(): Promise<Receiver> {
  const made = await startReceiver();
  receivers.push(made);
  return made;
}

/** An endpoint (added through the API) pointing at a receiver that verifies with its secret. */
async function endpointFor(to: Receiver, events: string[] = ['transaction.created']) {
  const created = await ok<CreatedWebhookEndpoint>(201, 'POST', '/api/admin/webhooks', admin, {
    url: to.url,
    events,
    description: 'CRM sync',
  });
  to.secret = created.secret;
  return created;
}

const deliveriesOf = (id: string) =>
  ok<WebhookDeliveriesPage>(200, 'GET', `/api/admin/webhooks/${id}/deliveries?page=1&limit=50`, admin);

/** Due now: the next attempts scheduled minutes or hours ahead (the engine polls every 2 s). */
async function hurry() {
  await database.db.$executeRaw`UPDATE webhook_deliveries SET next_attempt_at = ${clock.now()}
                                 WHERE status = 'pending'`;
  await database.db.$executeRaw`
    UPDATE graphile_worker._private_jobs SET run_at = now()
     WHERE key LIKE 'webhooks:deliver:%' AND locked_at IS NULL`;
}

const adminCtx = () => serviceContext(deps, { id: admin.id, role: 'admin', isOwner: false });
const agentCtx = () => serviceContext(deps, { id: agent.id, role: 'user', isOwner: false });

async function openDeal(documents = ['Purchase Agreement']) {
  const template = await createTemplate(database.db, { documents });
  return transactions.createTransaction(agentCtx(), {
    streetAddress: '12 Main St',
    city: 'Springfield',
    state: 'CA',
    zip: '90210',
    type: template.type,
    role: template.role,
  });
}

/** The bodies that do not match their type's schema in the served document's webhooks, each with why. */
async function undocumentedBodies(bodies: string[]): Promise<string[]> {
  const doc: OpenApiDocument = (await app.inject('/api/openapi.json')).json();
  const check = documentValidator(doc);
  const webhooks = doc.webhooks as Record<
    string,
    { post: { requestBody: { content: Record<string, { schema: Record<string, unknown> }> } } }
  >;
  return bodies.flatMap((body) => {
    const payload = JSON.parse(body) as { type: string };
    const schema = webhooks[payload.type]?.post.requestBody.content['application/json']?.schema;
    if (!schema) return [`${payload.type}: not in the document`];
    const problem = check.problems(schema, payload);
    return problem ? [`${payload.type}: ${problem}`] : [];
  });
}

describe('delivery', () => {
  it('a ping is signed per Standard Webhooks (verified by standardwebhooks) and reads succeeded', async () => {
    const to = await receiver();
    const endpoint = await endpointFor(to);
    expect(endpoint).toMatchObject({ url: to.url, events: ['transaction.created'], active: true });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    // Shown once: no other answer carries it.
    const listed = await call('GET', '/api/admin/webhooks', admin);
    expect(listed.body).not.toContain(endpoint.secret);
    expect(listed.json()).toEqual([{ ...endpoint, secret: undefined }].map(({ secret: _, ...rest }) => rest));
    // One endpoint on its own reads as the list shows it, without the secret.
    const { secret: _secret, ...shown } = endpoint;
    expect(await ok(200, 'GET', `/api/admin/webhooks/${endpoint._id}`, admin)).toEqual(shown);

    const delivery = await ok<WebhookDelivery>(
      200,
      'POST',
      `/api/admin/webhooks/${endpoint._id}/test`,
      admin,
    );
    expect(delivery).toMatchObject({ event: 'ping', status: 'pending', attempts: 0 });
    await until(() => to.received.length === 1, 10_000);
    const [ping] = to.received;
    expect(ping).toMatchObject({ id: delivery.eventId, verified: true, status: 204 });
    expect(ping?.payload).toMatchObject({ type: 'ping', data: { webhookId: endpoint._id } });
    expect(await undocumentedBodies([ping?.body ?? ''])).toEqual([]);
    expect(Math.abs(Number(ping?.timestamp) - clock.now().getTime() / 1000)).toBeLessThan(5);
    await until(async () => (await deliveriesOf(endpoint._id)).items[0]?.status === 'succeeded', 5_000);
    expect((await deliveriesOf(endpoint._id)).items).toEqual([
      { ...delivery, status: 'succeeded', attempts: 1, lastStatusCode: 204, nextAttemptAt: null },
    ]);
  });

  it('a receiver failing twice gets the event a third time with the same webhook-id; then succeeded', async () => {
    const to = await receiver();
    to.answer = (_request, index) => (index < 2 ? 500 : 200);
    const endpoint = await endpointFor(to);
    const delivery = await ok<WebhookDelivery>(
      200,
      'POST',
      `/api/admin/webhooks/${endpoint._id}/test`,
      admin,
    );
    await until(() => to.received.length === 1, 10_000);
    // About 5 s later, then about 5 min later: recorded, scheduled by the delivery itself.
    await until(async () => (await deliveriesOf(endpoint._id)).items[0]?.attempts === 1, 5_000);
    const first = (await deliveriesOf(endpoint._id)).items[0];
    expect(first).toMatchObject({ status: 'pending', lastStatusCode: 500, lastError: 'HTTP 500' });
    expect(Date.parse(first?.nextAttemptAt ?? '') - clock.now().getTime()).toBeGreaterThan(3_000);
    expect(Date.parse(first?.nextAttemptAt ?? '') - clock.now().getTime()).toBeLessThanOrEqual(5_000);
    await hurry();
    await until(async () => (await deliveriesOf(endpoint._id)).items[0]?.attempts === 2, 10_000);
    const second = (await deliveriesOf(endpoint._id)).items[0];
    expect(Date.parse(second?.nextAttemptAt ?? '') - clock.now().getTime()).toBeGreaterThan(295_000);
    await hurry();
    await until(() => to.received.length === 3, 10_000);
    await until(async () => (await deliveriesOf(endpoint._id)).items[0]?.status === 'succeeded', 5_000);
    expect(to.received.map((r) => [r.id, r.status, r.verified])).toEqual([
      [delivery.eventId, 500, true],
      [delivery.eventId, 500, true],
      [delivery.eventId, 200, true],
    ]);
    expect(new Set(to.received.map((r) => r.body)).size).toBe(1);
    expect((await deliveriesOf(endpoint._id)).items[0]).toMatchObject({ attempts: 3, lastStatusCode: 200 });
  });

  it("one transaction's events arrive in order: a later event waits while an earlier one is retried", async () => {
    const to = await receiver();
    to.answer = (_request, index) => (index === 0 ? 503 : 200);
    await endpointFor(to, ['transaction.created', 'transaction.updated']);
    const deal = await openDeal();
    const { streetAddress, city, state, zip } = deal;
    await transactions.updateAny(adminCtx(), {
      id: deal._id,
      streetAddress,
      city,
      state,
      zip,
      isTitleReport: true,
    });
    // The created event fails once (retried about 5 s later); the update must not overtake it.
    await until(() => to.received.length === 3, 20_000);
    expect(to.received.map((r) => [r.payload.type, r.status])).toEqual([
      ['transaction.created', 503],
      ['transaction.created', 200],
      ['transaction.updated', 200],
    ]);
    expect(to.received[2]?.payload.data).toMatchObject({ _id: deal._id, isTitleReport: true });
  });

  it('a commission change is a transaction.updated event carrying the commission', async () => {
    const to = await receiver();
    await endpointFor(to, ['transaction.updated']);
    const deal = await openDeal();
    await setCommission(agentCtx(), { id: deal._id, grossCommissionCents: 1_250_000 });
    await until(() => to.received.length === 1, 15_000);
    expect(to.received[0]?.payload).toMatchObject({
      type: 'transaction.updated',
      data: { _id: deal._id, commission: { grossCents: 1_250_000, ratePercent: null, referral: null } },
    });
  });

  it('a receiver down while the job engine restarts still gets every event, once it is back', async () => {
    const to = await receiver();
    const endpoint = await endpointFor(to, ['transaction.created', 'user.registered']);
    await engine.stop();
    await to.stop();
    const deal = await openDeal();
    await addUser(adminCtx(), {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: 'grace@example.com',
      phoneNumber: '123-456-7890',
      company: 'Navy',
      role: 'user',
      password: 'a-long-password-1',
      confirmPassword: 'a-long-password-1',
    } as Parameters<typeof addUser>[1]);
    engine = await startEngine();
    // Both attempts fail against a closed port and are scheduled again.
    await until(async () => (await deliveriesOf(endpoint._id)).items.every((d) => d.attempts >= 1), 10_000);
    expect((await deliveriesOf(endpoint._id)).items.map((d) => d.status)).toEqual(['pending', 'pending']);
    await to.restart();
    await hurry();
    await until(() => to.received.length === 2, 15_000);
    expect(to.received.map((r) => r.payload.type).sort()).toEqual(['transaction.created', 'user.registered']);
    expect(to.received.every((r) => r.verified)).toBe(true);
    expect(to.received.find((r) => r.payload.type === 'transaction.created')?.payload.data._id).toBe(
      deal._id,
    );
  });
});

describe('events', () => {
  it('each change emits its event with the resource as the REST API answers it', async () => {
    const to = await receiver();
    const all = [
      'transaction.created',
      'transaction.updated',
      'transaction.deleted',
      'transaction.closed',
      'transaction.compliant',
      'document.uploaded',
      'document.accepted',
      'document.rejected',
      'waiver.requested',
      'user.registered',
      'user.activated',
      'user.deactivated',
      'key_date.due',
    ];
    await endpointFor(to, all);
    const deal = await openDeal(['Purchase Agreement', 'Inspection Report']);
    const [agreement, inspection] = deal.forms;
    if (!agreement || !inspection) throw new Error('two forms expected');
    // An upload through the service: a stored file of this transaction.
    const key = transactionFileKey(deal._id, 'agreement.pdf', 'pdf');
    await deps.storage.put(key, Readable.from([Buffer.from('%PDF-1.4\n')]), {
      contentType: 'application/pdf',
    });
    await transactions.setFormFile(agentCtx(), { id: deal._id, formId: agreement._id, url: key });
    await transactions.review(adminCtx(), {
      id: deal._id,
      formId: agreement._id,
      status: 'rejected',
      text: 'Sign p.2',
    });
    await attachTestFile(database.db, { id: agreement._id, transactionId: deal._id });
    await transactions.review(adminCtx(), { id: deal._id, formId: agreement._id, status: 'accepted' });
    await transactions.requestWaiver(agentCtx(), {
      id: deal._id,
      formId: inspection._id,
      reason: 'Waived by buyer',
    });
    await transactions.decideWaiver(adminCtx(), { id: deal._id, formId: inspection._id, approve: true });
    await transactions.close(adminCtx(), { id: deal._id });
    await transactions.reopen(adminCtx(), { id: deal._id });
    await transactions.softDelete(adminCtx(), { id: deal._id });
    const pending = await createUser(database.db, { isAdminApproved: false });
    await activateUser(adminCtx(), { id: pending.id });
    await deactivateUser(adminCtx(), { id: pending.id });
    // key_date.due: the day-of reminder of a date, claimed by the sweep.
    const dated = await openDeal();
    const [date] = await database.db.$queryRaw<{ id: string }[]>`
      INSERT INTO key_dates (transaction_id, kind, label, date, position)
      VALUES (${dated._id}::uuid, 'inspection', 'Inspection deadline', ${clock.now()}::date, 0) RETURNING id::text`;
    await database.db.$executeRaw`
      INSERT INTO reminders (key_date_id, for_date, days_before, due_at)
      VALUES (${date?.id}::uuid, ${clock.now()}::date, 0, ${new Date(clock.now().getTime() - 60_000)})`;
    const { sweepReminders } = await import('../reminders');
    await sweepReminders(serviceContext(deps));

    const expected = [
      'transaction.created',
      'document.uploaded',
      'document.rejected',
      'document.accepted',
      'waiver.requested',
      'transaction.compliant',
      'transaction.closed',
      'transaction.updated',
      'transaction.deleted',
      'user.activated',
      'user.deactivated',
      'transaction.created',
      'key_date.due',
    ];
    await until(() => to.received.length === expected.length, 20_000);
    // One transaction's events in the order they happened; the others by their own clocks.
    const ofDeal = to.received.filter(
      (r) => (r.payload.data.transactionId ?? r.payload.data._id) === deal._id,
    );
    expect(ofDeal.map((r) => r.payload.type)).toEqual(expected.slice(0, 9));
    expect(to.received.map((r) => r.payload.type).sort()).toEqual([...expected].sort());
    expect(to.received.every((r) => r.verified)).toBe(true);
    const byType = (type: string) => to.received.find((r) => r.payload.type === type)?.payload;
    expect(byType('document.uploaded')?.data).toMatchObject({
      _id: agreement._id,
      transactionId: deal._id,
      status: 'pending',
      url: expect.stringMatching(/^http:\/\/localhost:3000\/files\//),
    });
    expect(byType('document.rejected')?.data).toMatchObject({ status: 'rejected' });
    expect(byType('transaction.compliant')?.data).toMatchObject({ _id: deal._id, compliant: true });
    expect(byType('transaction.closed')?.data.closedAt).toEqual(expect.any(String));
    expect(byType('user.activated')?.data).toMatchObject({ _id: pending.id, status: 'active' });
    expect(byType('user.deactivated')?.data).toMatchObject({ _id: pending.id, status: 'deactivated' });
    expect(byType('key_date.due')?.data).toMatchObject({
      _id: date?.id,
      kind: 'inspection',
      label: 'Inspection deadline',
      transactionId: dated._id,
      done: false,
    });
    expect(Date.parse(String(byType('transaction.created')?.timestamp))).not.toBeNaN();
    // Each body as received is the one the OpenAPI document's `webhooks` gives its type.
    expect(await undocumentedBodies(to.received.map((r) => r.body))).toEqual([]);
  });

  it('a change that fails after its event was recorded leaves no event, delivery or job', async () => {
    const to = await receiver();
    await endpointFor(to, ['transaction.created']);
    const count = async () => {
      const [row] = await database.db.$queryRaw<{ events: number; deliveries: number; jobs: number }[]>`
        SELECT (SELECT count(*)::int FROM webhook_events) AS events,
               (SELECT count(*)::int FROM webhook_deliveries) AS deliveries,
               (SELECT count(*)::int FROM graphile_worker._private_jobs WHERE key LIKE 'webhooks:%') AS jobs`;
      return row;
    };
    const before = await count();
    await expect(
      database.db.$transaction(async (tx) => {
        await emitWebhook(tx, deps, { type: 'transaction.created', data: { _id: 'x' } });
        expect((await tx.webhookDelivery.count()) - (before?.deliveries ?? 0)).toBe(1);
        throw new Error('the change failed after its event');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toEqual(before);
    // A failed service change the same way: closing a file that is not compliant emits nothing.
    const deal = await openDeal();
    await until(() => to.received.length === 1, 10_000);
    const closedBefore = await database.db.webhookEvent.count({ where: { type: 'transaction.closed' } });
    await expect(transactions.close(adminCtx(), { id: deal._id })).rejects.toThrow();
    expect(await database.db.webhookEvent.count({ where: { type: 'transaction.closed' } })).toBe(
      closedBefore,
    );
  });

  it('an event no endpoint wants writes nothing', async () => {
    const before = await database.db.webhookEvent.count();
    await openDeal();
    expect(await database.db.webhookEvent.count()).toBe(before);
  });
});

describe('failing endpoints', () => {
  it('failing every attempt for 24 h: deactivated, its creator and the owner mailed', async () => {
    const to = await receiver();
    to.answer = () => 500;
    const endpoint = await endpointFor(to, ['transaction.created']);
    await ok(200, 'POST', `/api/admin/webhooks/${endpoint._id}/test`, admin);
    await until(async () => (await deliveriesOf(endpoint._id)).items[0]?.attempts === 1, 10_000);
    clock.advance(25 * 3_600_000);
    try {
      await ok(200, 'POST', `/api/admin/webhooks/${endpoint._id}/test`, admin);
      await until(async () => {
        const [row] = await ok<{ active: boolean }[]>(200, 'GET', '/api/admin/webhooks', admin);
        return row?.active === false;
      }, 10_000);
      const mails = await database.db.mailOutbox.findMany({
        where: { kind: 'webhook-deactivated' },
        select: { userId: true },
      });
      expect(mails.map((mail) => mail.userId).sort()).toEqual([owner.id, admin.id].sort());
      // Nothing more is sent; the test button and retries say why.
      await refused(409, webhookMessages.inactive, 'POST', `/api/admin/webhooks/${endpoint._id}/test`, admin);
      await hurry();
      await until(
        async () => (await deliveriesOf(endpoint._id)).items.every((d) => d.status === 'failed'),
        10_000,
      );
      // Activated again, it starts over.
      await ok(200, 'PUT', `/api/admin/webhooks/${endpoint._id}`, admin, { active: true });
      to.answer = () => 200;
      const [last] = (await deliveriesOf(endpoint._id)).items;
      await ok(200, 'POST', `/api/admin/webhooks/${endpoint._id}/deliveries/${last?._id}/retry`, admin);
      await until(async () => (await deliveriesOf(endpoint._id)).items[0]?.status === 'succeeded', 10_000);
    } finally {
      clock.advance(-25 * 3_600_000);
    }
  });
});

describe('addresses (SSRF)', () => {
  const allowIt = '(set WEBHOOK_ALLOW_PRIVATE=true to allow it on a closed network)';
  it.each([
    ['http://127.0.0.1:9/hook', `: 127.0.0.1 is a loopback address ${allowIt}`],
    ['http://10.0.0.5/hook', `: 10.0.0.5 is a private address ${allowIt}`],
    ['http://169.254.169.254/latest/meta-data/', `: 169.254.169.254 is a link-local address ${allowIt}`],
    ['http://[::1]:8080/hook', `: ::1 is a loopback address ${allowIt}`],
    ['http://[::ffff:127.0.0.1]/hook', `: ::ffff:7f00:1 is a loopback address ${allowIt}`],
    [
      'http://localhost:3000/hook',
      /^: localhost resolves to (127\.0\.0\.1|::1), a loopback address \(set WEBHOOK_ALLOW_PRIVATE=true/,
    ],
    ['ftp://example.com/hook', ''],
  ])(
    '%s is refused when WEBHOOK_ALLOW_PRIVATE is off, on create and on update, saying why',
    async (url, why) => {
      // The integrators' sentence first, then the reason (nothing more for a scheme other than http(s)).
      const expectRefusal = (res: { statusCode: number; json(): { message: string; issues?: unknown } }) => {
        expect(res.statusCode).toBe(400);
        const { message, issues } = res.json();
        expect(message.startsWith(webhookMessages.urlNotPublic)).toBe(true);
        const rest = message.slice(webhookMessages.urlNotPublic.length);
        if (typeof why === 'string') expect(rest).toBe(why);
        else expect(rest).toMatch(why);
        expect(issues).toEqual([{ path: 'url', message }]);
      };
      expectRefusal(
        await strict.call('POST', '/api/admin/webhooks', admin, { url, events: ['transaction.created'] }),
      );
      const to = await receiver();
      const endpoint = await endpointFor(to);
      expectRefusal(await strict.call('PUT', `/api/admin/webhooks/${endpoint._id}`, admin, { url }));
    },
  );

  it('a name that does not resolve is refused as such, with WEBHOOK_ALLOW_PRIVATE on or off', async () => {
    // RFC 6761: .invalid never resolves, on any network.
    const url = 'https://crm.portal-test.invalid/hook';
    const message = 'Could not resolve crm.portal-test.invalid';
    for (const calls of [strict, { refused }]) {
      const body = await calls.refused(400, message, 'POST', '/api/admin/webhooks', admin, {
        url,
        events: ['transaction.created'],
      });
      expect(body.issues).toEqual([{ path: 'url', message }]);
    }
    const to = await receiver();
    const endpoint = await endpointFor(to);
    await refused(400, message, 'PUT', `/api/admin/webhooks/${endpoint._id}`, admin, { url });
  });

  it('checked again at delivery: an address that became private is not called, the attempt fails saying why', async () => {
    const to = await receiver();
    const endpoint = await endpointFor(to);
    // The engine is stopped, so the attempt below is the only one: as production makes it.
    await engine.stop();
    try {
      const delivery = await ok<WebhookDelivery>(
        200,
        'POST',
        `/api/admin/webhooks/${endpoint._id}/test`,
        admin,
      );
      await deliverWebhook(serviceContext(strictDeps), { deliveryId: delivery._id });
      expect(to.received).toEqual([]);
      const host = new URL(to.url).hostname;
      expect((await deliveriesOf(endpoint._id)).items[0]).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: null,
        lastError: webhookMessages.urlNotPublicAddress(host, host, 'loopback'),
      });
    } finally {
      engine = await startEngine();
    }
  });

  it('checked again at delivery: a name that stopped resolving is recorded as such', async () => {
    const to = await receiver();
    const endpoint = await endpointFor(to);
    await engine.stop();
    try {
      const delivery = await ok<WebhookDelivery>(
        200,
        'POST',
        `/api/admin/webhooks/${endpoint._id}/test`,
        admin,
      );
      // As if its DNS record were deleted after the URL was saved.
      await database.db.$executeRaw`UPDATE webhook_endpoints SET url = 'https://gone.portal-test.invalid/hook'
                                     WHERE id = ${endpoint._id}::uuid`;
      await deliverWebhook(serviceContext(deps), { deliveryId: delivery._id });
      expect((await deliveriesOf(endpoint._id)).items[0]).toMatchObject({
        status: 'pending',
        attempts: 1,
        lastStatusCode: null,
        lastError: 'Could not resolve gone.portal-test.invalid',
      });
    } finally {
      engine = await startEngine();
    }
  });
});

describe('admin API', () => {
  it('validates: url, events, description, ids', async () => {
    await refused(400, webhookMessages.urlRequired, 'POST', '/api/admin/webhooks', admin, {
      events: ['ping'],
    });
    await refused(400, webhookMessages.eventsRequired, 'POST', '/api/admin/webhooks', admin, {
      url: 'https://example.com/hook',
      events: [],
    });
    await refused(400, webhookMessages.eventInvalid, 'POST', '/api/admin/webhooks', admin, {
      url: 'https://example.com/hook',
      events: ['transaction.created', 'transaction.exploded'],
    });
    await refused(400, webhookMessages.urlNotPublic, 'POST', '/api/admin/webhooks', admin, {
      url: 'javascript:alert(1)',
      events: ['transaction.created'],
    });
    await refused(400, 'Cannot exceed 500 characters', 'POST', '/api/admin/webhooks', admin, {
      url: 'https://example.com/hook',
      events: ['transaction.created'],
      description: 'x'.repeat(501),
    });
    const to = await receiver();
    const endpoint = await endpointFor(to);
    await refused(
      400,
      webhookMessages.nothingToChange,
      'PUT',
      `/api/admin/webhooks/${endpoint._id}`,
      admin,
      {},
    );
    const page = await call('GET', `/api/admin/webhooks/${endpoint._id}/deliveries?limit=101`, admin);
    expect(page.statusCode).toBe(400);
    expect((await call('GET', '/api/admin/webhooks/not-a-uuid/deliveries', admin)).statusCode).toBe(400);
  });

  it('changes, deactivates and deletes; events are stored once each in a fixed order', async () => {
    const to = await receiver();
    const endpoint = await endpointFor(to, ['user.registered', 'transaction.created', 'user.registered']);
    expect(endpoint.events).toEqual(['transaction.created', 'user.registered']);
    const changed = await ok(200, 'PUT', `/api/admin/webhooks/${endpoint._id}`, admin, {
      events: ['key_date.due'],
      description: 'Calendar bridge',
      active: false,
    });
    expect(changed).toEqual({
      _id: endpoint._id,
      url: to.url,
      events: ['key_date.due'],
      description: 'Calendar bridge',
      active: false,
      createdAt: endpoint.createdAt,
    });
    expect(await ok(200, 'DELETE', `/api/admin/webhooks/${endpoint._id}`, admin)).toEqual({
      message: webhookMessages.deleted,
    });
    expect(await ok(200, 'GET', '/api/admin/webhooks', admin)).toEqual([]);
    const audit = await database.db.auditEvent.findMany({
      where: { entityId: endpoint._id },
      select: { action: true, after: true },
      orderBy: { createdAt: 'asc' },
    });
    expect(audit.map((row) => row.action)).toEqual(['webhook.create', 'webhook.update', 'webhook.delete']);
    expect(JSON.stringify(audit)).not.toContain(endpoint.secret);
  });

  it('404 for an unknown endpoint or delivery; 403 for agents; 401 without a token', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    for (const [method, url, body] of [
      ['GET', `/api/admin/webhooks/${missing}`, undefined],
      ['PUT', `/api/admin/webhooks/${missing}`, { active: false }],
      ['DELETE', `/api/admin/webhooks/${missing}`, undefined],
      ['GET', `/api/admin/webhooks/${missing}/deliveries`, undefined],
      ['POST', `/api/admin/webhooks/${missing}/test`, undefined],
      ['POST', `/api/admin/webhooks/${missing}/deliveries/${missing}/retry`, undefined],
    ] as const) {
      await refused(404, webhookMessages.notFound, method, url, admin, body);
    }
    const to = await receiver();
    const endpoint = await endpointFor(to);
    await refused(
      404,
      webhookMessages.deliveryNotFound,
      'POST',
      `/api/admin/webhooks/${endpoint._id}/deliveries/${missing}/retry`,
      admin,
    );
    const res = await call('POST', '/api/admin/webhooks', agent, {
      url: to.url,
      events: ['transaction.created'],
    });
    expect(res.statusCode).toBe(403);
    expect((await call('GET', '/api/admin/webhooks', agent)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/webhooks')).statusCode).toBe(401);
    expect(await database.db.webhookEndpoint.count()).toBe(1);
  });
});
