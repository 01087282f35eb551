import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { expect } from 'vitest';
import type { ApiKeyScope } from '../../../shared/schemas/api-keys';
import type { AppDeps } from '../../deps';
import { hashApiKeySecret, newApiKey } from '../../security/api-keys';
import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import { unsubscribeToken } from '../../services/notification-routing';
import { webhookBody } from '../../services/webhooks/events';
import { transactionFileKey } from '../../storage/keys';
import { bearer, multipartBody, TINY_PDF } from '../api-calls';
import {
  accessTokenFor,
  createAdmin,
  createBanner,
  createLibraryItem,
  createNotification,
  createOwner,
  createTemplate,
  createTransaction,
  createUser,
  DEFAULT_PASSWORD,
} from '../factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from '../harness';
import { pdfOf, photoJpeg } from '../intake-files';

/**
 * The world of the authorization matrix: its database and app, the nine actors, and the targets
 * each row's cells act on, fresh for every cell that changes or deletes something.
 *
 * Agent A and every record of A's are in office North, as are the office admin and the
 * coordinator "of their own" (the coordinator works for A); the other office admin is of South,
 * where agent B works, and the other coordinator works for B.
 */

export const database = setupTestDatabase();
export const clock = new TestClock();
/** The running app and the URL of its WebSocket; set by startMatrix. */
export const running = { app: undefined as unknown as FastifyInstance, webSocketUrl: '' };

export const ACTORS = [
  'anonymous',
  'agentA',
  'agentB',
  'admin',
  'owner',
  'officeAdminOwn',
  'officeAdminOther',
  'coordinatorOwn',
  'coordinatorOther',
] as const;
export type ActorName = (typeof ACTORS)[number];
export type SignedIn = Exclude<ActorName, 'anonymous'>;

type UserRow = Awaited<ReturnType<typeof createUser>>;
export type Deal = { id: string; formId: string };

/** What every row's target hangs on; built once by startMatrix. */
type World = {
  users: Record<SignedIn, UserRow>;
  offices: { north: string; south: string };
  /** A's deal for calls that only read or add (comments, uploads). */
  deal: Deal;
  /** A's banner for reads. */
  bannerId: string;
  /** A signed download link of a file A uploaded to `deal`. */
  fileLink: string;
  /** A forms-library file the owner uploaded: a valid `link` for library forms. */
  libraryKey: string;
  /** A (type, role) with a template, so creating a transaction is valid. */
  templateType: string;
};
export let world: World;
export const A = () => world.users.agentA;
/** The office of A's records. */
export const north = () => world.offices.north;
/** The unsubscribe token a mail to A about comments carries (the app's JWT secret signs it). */
export const unsubscribeTokenOfA = () =>
  unsubscribeToken({ config: testConfig() } as Pick<AppDeps, 'config'> as AppDeps, A().id, 'comment');

let sequence = 0;
export const unique = () => `${Date.now().toString(36)}${++sequence}`;

/** A token for the actor as the user is now (a password change bumps the token version). */
export async function tokenOf(actor: ActorName): Promise<string | undefined> {
  if (actor === 'anonymous') return undefined;
  const user = await database.db.user.findUniqueOrThrow({ where: { id: world.users[actor].id } });
  return accessTokenFor(user, { now: clock.now() });
}

// --- Fresh targets: every cell that changes or deletes something gets its own ---

/** A commission plan of its own, for a cell that changes one. */
export async function freshPlanId(): Promise<string> {
  const plan = await database.db.commissionPlan.create({
    data: { name: `Matrix plan ${unique()}`, agentSplit: 70, capCents: null, transactionFeeCents: 0n },
    select: { id: true },
  });
  return plan.id;
}

export async function freshDeal(): Promise<Deal> {
  const deal = await createTransaction(database.db, {
    userId: A().id,
    streetAddress: '12 Harbor Lane',
    type: world.templateType,
    role: 'Seller',
  });
  return { id: deal.id, formId: deal.forms[0]?.id ?? '' };
}

/**
 * A tiny PDF uploaded through the real route as `who`: its url is what setFormFile accepts, its
 * key what a library form links to.
 */
export async function uploadedBy(
  who: SignedIn,
  url: string,
  file: Buffer = TINY_PDF,
): Promise<{ key: string; url: string }> {
  const body = multipartBody(file);
  const res = await running.app.inject({
    method: 'POST',
    url,
    payload: body.payload,
    headers: { ...body.headers, ...bearer(await tokenOf(who)) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** A real two-page PDF, the packet every split cell cuts (made once). */
let packetBytes: Buffer | undefined;
export const packet = async () => {
  packetBytes ??= await pdfOf([{ text: ['Listing Agreement'] }, { text: ['Agency Disclosure'] }]);
  return packetBytes;
};
/** A small real JPEG, the photo of the photos-to-PDF cells (made once). */
let photoBytes: Buffer | undefined;
export const photo = async () => {
  photoBytes ??= await photoJpeg({ width: 300, height: 400 });
  return photoBytes;
};

/** An agent of North who registered and verified, awaiting approval. */
export const pendingAgent = () => createUser(database.db, { isAdminApproved: false, ...inNorth() });
/** An active agent of North. */
export const freshAgent = () => createUser(database.db, inNorth());
export const unverifiedAgent = () =>
  createUser(database.db, { isAdminApproved: false, emailVerifiedAt: null });

export async function emailToken(
  userId: string,
  purpose: 'verify_email' | 'reset_password',
): Promise<string> {
  const token = newSecretToken();
  await database.db.emailToken.create({
    data: {
      userId,
      purpose,
      tokenHash: hashSecretToken(token),
      expiresAt: new Date(clock.now().getTime() + 60 * 60 * 1000),
    },
  });
  return token;
}

/** A live refresh token of a fresh agent, stored exactly as sign-in stores one. */
export async function refreshToken(): Promise<string> {
  const user = await freshAgent();
  const token = newSecretToken();
  await database.db.refreshToken.create({
    data: {
      userId: user.id,
      familyId: randomUUID(),
      tokenHash: hashSecretToken(token),
      sessionStartedAt: clock.now(),
      expiresAt: new Date(clock.now().getTime() + 24 * 60 * 60 * 1000),
    },
  });
  return token;
}

/** A's deal whose first item carries a file awaiting review (what the queue and bulk accept take). */
export async function freshDealAwaitingReview(): Promise<Deal> {
  const deal = await freshDeal();
  await database.db.transactionForm.update({
    where: { id: deal.formId },
    data: { fileKey: transactionFileKey(deal.id, 'matrix.pdf', 'pdf'), submittedAt: clock.now(), version: 1 },
  });
  return deal;
}

/** A's deal with a waiver requested on its first item. */
export async function freshDealWithWaiver(): Promise<Deal> {
  const deal = await freshDeal();
  await database.db.transactionForm.update({
    where: { id: deal.formId },
    data: { waiverStatus: 'requested', waiverReason: 'Not applicable', waiverRequestedAt: clock.now() },
  });
  return deal;
}

/** A's deal with every item accepted: compliant, so it may be closed; `closed` closes it too. */
export async function freshCompliantDeal(options: { closed?: boolean } = {}): Promise<Deal> {
  const deal = await freshDeal();
  await database.db.transactionForm.updateMany({
    where: { transactionId: deal.id },
    data: { status: 'accepted', fileKey: transactionFileKey(deal.id, 'matrix.pdf', 'pdf'), version: 1 },
  });
  if (options.closed)
    await database.db.transaction.update({ where: { id: deal.id }, data: { closedAt: clock.now() } });
  return deal;
}

/**
 * A's compliant deal with a commission, A on a plan: a CDA may be issued on it. A's plan is set
 * here, once, as a row needing it is the first to ask.
 */
export async function freshCdaDeal(): Promise<Deal> {
  const agent = await database.db.user.findUniqueOrThrow({ where: { id: A().id } });
  if (agent.commissionPlanId === null) {
    await database.db.user.update({
      where: { id: agent.id },
      data: { commissionPlanId: await freshPlanId() },
    });
  }
  const deal = await freshCompliantDeal();
  await database.db.transaction.update({
    where: { id: deal.id },
    data: { commissionGrossCents: 1_000_000n },
  });
  return deal;
}

/** An issued CDA of a fresh deal of A's, written as issuing leaves it: its path's ids. */
export async function freshCda(): Promise<{ id: string; cdaId: string }> {
  const deal = await freshCdaDeal();
  const cda = await database.db.cda.create({
    data: {
      transactionId: deal.id,
      version: 1,
      agentId: A().id,
      agentName: 'Agent A',
      brokerageName: 'Harbor Realty',
      grossCents: 1_000_000n,
      brokerageCents: 300_000n,
      agentCents: 700_000n,
      planName: 'Matrix plan',
      agentSplit: 70,
      transactionFeeCents: 0n,
      brokerageYearToDateCents: 0n,
      pdfKey: transactionFileKey(deal.id, 'CDA-v1.pdf', 'pdf'),
      sha256: '0'.repeat(64),
      issuedBy: world.users.owner.id,
      issuedAt: new Date(clock.now().getTime() - 60_000),
    },
    select: { id: true },
  });
  return { id: deal.id, cdaId: cda.id };
}

/**
 * A key of the owner's, or of `creator`'s (an actor, or any user by id), live unless `state`
 * says it expired or was revoked (its id; `key` to call with).
 */
export async function freshApiKey(
  scopes: readonly ApiKeyScope[],
  creator: SignedIn | { id: string } = 'owner',
  state: { expiresAt?: Date; revokedAt?: Date } = {},
): Promise<{ id: string; key: string }> {
  const { id, secret, key } = newApiKey();
  await database.db.apiKey.create({
    data: {
      id,
      name: `Matrix ${unique()}`,
      scopes: [...scopes],
      secretHash: new Uint8Array(hashApiKeySecret(secret)),
      createdBy: typeof creator === 'string' ? world.users[creator].id : creator.id,
      ...state,
    },
  });
  return { id, key };
}
/** A key of North: its office admin made it. */
export const freshApiKeyId = async () => (await freshApiKey(['users:read'], 'officeAdminOwn')).id;

/** An office nobody belongs to: it may be removed. */
export const freshOffice = async () =>
  (await database.db.office.create({ data: { name: `Matrix office ${unique()}` } })).id;
export const freshBanner = async () => (await createBanner(database.db, { userId: A().id })).id;
export const freshTemplate = () =>
  createTemplate(database.db, { type: `Matrix-${unique()}`, role: 'Seller' });
export const freshLibraryItem = async (kind: 'form' | 'tutorial') =>
  (
    await createLibraryItem(database.db, {
      kind,
      link: kind === 'form' ? world.libraryKey : 'https://x.test',
    })
  ).id;

// --- Valid inputs ---

export const address = { streetAddress: '12 Harbor Lane', city: 'Portland', state: 'ME', zip: '04101' };
export const paging = { page: 1, limit: 10 };
export const NEW_PASSWORD = 'a long enough password';
export const registration = () => ({
  firstName: 'Matrix',
  lastName: 'Cell',
  company: 'Acme Realty',
  email: `matrix-${unique()}@example.com`,
  phoneNumber: '+1 555 010 2030',
  password: NEW_PASSWORD,
  confirmPassword: NEW_PASSWORD,
});
/** A's own profile as it is: updating it is a real write that leaves A unchanged. */
export const profileOfA = () => ({
  firstName: A().firstName,
  lastName: A().lastName,
  company: A().company,
  phoneNumber: A().phoneNumber,
});
/** The same password again: a real change (sessions end, a new pair is issued) that keeps A usable. */
export const passwordChange = {
  currentPassword: DEFAULT_PASSWORD,
  password: DEFAULT_PASSWORD,
  confirmPassword: DEFAULT_PASSWORD,
};
/** An agent of North. */
export const newUser = () => ({
  firstName: 'Matrix',
  lastName: 'Created',
  email: `created-${unique()}@example.com`,
  phoneNumber: '123-456-7890',
  company: 'Acme Realty',
  password: NEW_PASSWORD,
  role: 'user' as const,
  officeId: north(),
});
/**
 * A deal in A's name. Everyone but a coordinator names A as its `user` (refused unless it is the
 * caller); a coordinator sends its own id, as its client does, and A as the agent it opens it for.
 */
export const newDeal = (actor: ActorName) => ({
  type: world.templateType,
  role: 'Seller',
  ...address,
  ...(actor === 'coordinatorOwn' || actor === 'coordinatorOther'
    ? { user: world.users[actor].id, agentId: A().id }
    : { user: A().id }),
});
export const bannerDesign = {
  name: 'Open house',
  elements: [{ id: 'r1', type: 'rect', x: 10, y: 10, width: 100, height: 40, fill: 'blue' }],
};
export const TUTORIAL_LINK = 'https://example.com/how-to-upload';

/** A public address literal: valid without DNS, never called (no job engine runs here). */
export const WEBHOOK_URL = 'https://93.184.216.34/hooks';
export async function freshWebhook(): Promise<string> {
  const row = await database.db.webhookEndpoint.create({
    data: { url: WEBHOOK_URL, events: ['transaction.created'], secretSealed: 'never-opened' },
  });
  return row.id;
}
export async function freshWebhookDelivery(): Promise<{ id: string; deliveryId: string }> {
  const id = await freshWebhook();
  // An event as a ping records it: the events list reads its body back.
  const at = clock.now();
  const event = await database.db.webhookEvent.create({
    data: { type: 'ping', body: webhookBody('ping', at, { webhookId: id }), createdAt: at },
  });
  const delivery = await database.db.webhookDelivery.create({
    data: { endpointId: id, eventId: event.id, status: 'failed', attempts: 7 },
  });
  return { id, deliveryId: delivery.id };
}

/** The factory fields that put a user in North. */
const inNorth = () => ({ office: { connect: { id: north() } } });

/**
 * Builds the app (`onRoute` sees every route it registers), starts it on a port of its own for
 * the WebSocket cells, and makes the world.
 */
export async function startMatrix(onRoute: (route: RouteOptions) => void): Promise<void> {
  // With a metrics token, so that /metrics exists and has its row.
  const config = testConfig({ metricsToken: `matrix-metrics-token-${randomUUID()}` });
  const app = buildTestApp(testDeps(database.db, { clock, config }));
  app.addHook('onRoute', onRoute);
  await app.listen({ port: 0, host: '127.0.0.1' });
  running.app = app;
  running.webSocketUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/trpc`;

  const templateType = `Listing-${unique()}`;
  await createTemplate(database.db, { type: templateType, role: 'Seller' });
  const offices = {
    north: (await database.db.office.create({ data: { name: 'North' } })).id,
    south: (await database.db.office.create({ data: { name: 'South' } })).id,
  };
  const office = (id: string) => ({ office: { connect: { id } } });
  const agentA = await createUser(database.db, {
    firstName: 'Alice',
    lastName: 'Agent',
    ...office(offices.north),
  });
  const agentB = await createUser(database.db, {
    firstName: 'Bob',
    lastName: 'Broker',
    ...office(offices.south),
  });
  const coordinating = (agentId: string) => ({ coordinating: { create: [{ agentId }] } });
  const users: World['users'] = {
    agentA,
    agentB,
    admin: await createAdmin(database.db),
    owner: await createOwner(database.db),
    officeAdminOwn: await createAdmin(database.db, office(offices.north)),
    officeAdminOther: await createAdmin(database.db, office(offices.south)),
    coordinatorOwn: await createUser(database.db, { ...office(offices.north), ...coordinating(agentA.id) }),
    coordinatorOther: await createUser(database.db, { ...office(offices.south), ...coordinating(agentB.id) }),
  };
  world = {
    users,
    offices,
    templateType,
    deal: { id: '', formId: '' },
    bannerId: '',
    fileLink: '',
    libraryKey: '',
  };
  world.deal = await freshDeal();
  world.bannerId = await freshBanner();
  await createNotification(database.db, { userId: A().id });
  const uploaded = new URL((await uploadedBy('agentA', `/api/uploads/transactions/${world.deal.id}`)).url);
  world.fileLink = `${uploaded.pathname}${uploaded.search}`;
  world.libraryKey = (await uploadedBy('owner', '/api/uploads/forms')).key;
}
