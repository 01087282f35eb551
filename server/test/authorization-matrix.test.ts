import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { integrationMessages } from '../../shared/messages';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../shared/schemas/api-keys';
import type { AppDeps } from '../deps';
import { restRoutesOf } from '../rest/routes';
import type { PathScope } from '../rest/scopes';
import { hashApiKeySecret, newApiKey } from '../security/api-keys';
import { hashSecretToken, newSecretToken } from '../security/secret-tokens';
import { unsubscribeToken } from '../services/notification-routing';
import { transactionFileKey } from '../storage/keys';
import { accessOf } from '../trpc/init';
import { proceduresOf, procedureTypeOf } from '../trpc/internals';
import { appRouter } from '../trpc/router';
import { bearer, multipartBody, subscribeOverWebSocket, TINY_PDF, trpcRequest } from './api-calls';
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
} from './factories';
import { buildTestApp, setupTestDatabase, TestClock, testConfig, testDeps } from './harness';
import { pdfOf, photoJpeg } from './intake-files';

/**
 * The authorization matrix: every tRPC procedure and every HTTP route the app
 * registers, called for real by five actors, against a reviewed table of what each may do.
 *
 * The table below is written from the intended policy (the product's access rules),
 * not from the code's answers:
 * - anonymous callers get 401 from everything but the public sign-in paths, health and docs;
 * - admin paths are 403 for agents, owner paths 403 for everyone but the owner;
 * - a path naming another user's id is 403 (decided before any lookup), an admin excepted;
 * - another agent's object behind an id is 404, so an id reveals nothing; admins reach any
 *   transaction, also through the agent paths; banners are private even from admins;
 * - a body `user` naming someone else is 403, for admins too: nobody opens a deal in another's name.
 *
 * The target of every row belongs to agent A (A's transaction, A's banner, A's id in the path), so
 * agent B's column is the cross-tenant one. Every cell sends a valid input, so authorization alone
 * decides; rows whose call changes or deletes something get a fresh target per cell.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;
let webSocketUrl: string;

const ACTORS = ['anonymous', 'agentA', 'agentB', 'admin', 'owner'] as const;
type ActorName = (typeof ACTORS)[number];
type SignedIn = Exclude<ActorName, 'anonymous'>;
/** 'ok' is any 2xx; the numbers are the exact status expected. */
type Outcome = 'ok' | 302 | 303 | 401 | 403 | 404;
/** One outcome per actor, in the order of ACTORS: anonymous, agentA, agentB, admin, owner. */
type Expected = readonly [Outcome, Outcome, Outcome, Outcome, Outcome];
const OK = 'ok' as const;

type UserRow = Awaited<ReturnType<typeof createUser>>;
type Deal = { id: string; formId: string };

/** What every row's target hangs on; built once in beforeAll. */
type World = {
  users: Record<SignedIn, UserRow>;
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
let world: World;
const A = () => world.users.agentA;
/** The unsubscribe token a mail to A about comments carries (the app's JWT secret signs it). */
const unsubscribeTokenOfA = () =>
  unsubscribeToken({ config: testConfig() } as Pick<AppDeps, 'config'> as AppDeps, A().id, 'comment');

let sequence = 0;
const unique = () => `${Date.now().toString(36)}${++sequence}`;

// --- Fresh targets: every cell that changes or deletes something gets its own ---

async function freshDeal(): Promise<Deal> {
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
async function uploadedBy(
  who: SignedIn,
  url: string,
  file: Buffer = TINY_PDF,
): Promise<{ key: string; url: string }> {
  const body = multipartBody(file);
  const res = await app.inject({
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
const packet = async () => {
  packetBytes ??= await pdfOf([{ text: ['Listing Agreement'] }, { text: ['Agency Disclosure'] }]);
  return packetBytes;
};
/** A small real JPEG, the photo of the photos-to-PDF cells (made once). */
let photoBytes: Buffer | undefined;
const photo = async () => {
  photoBytes ??= await photoJpeg({ width: 300, height: 400 });
  return photoBytes;
};

/** An agent who registered and verified, awaiting approval. */
const pendingAgent = () => createUser(database.db, { isAdminApproved: false });
const freshAgent = () => createUser(database.db);
const unverifiedAgent = () => createUser(database.db, { isAdminApproved: false, emailVerifiedAt: null });

async function emailToken(userId: string, purpose: 'verify_email' | 'reset_password'): Promise<string> {
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
async function refreshToken(): Promise<string> {
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
async function freshDealAwaitingReview(): Promise<Deal> {
  const deal = await freshDeal();
  await database.db.transactionForm.update({
    where: { id: deal.formId },
    data: { fileKey: transactionFileKey(deal.id, 'matrix.pdf', 'pdf'), submittedAt: clock.now(), version: 1 },
  });
  return deal;
}

/** A's deal with a waiver requested on its first item. */
async function freshDealWithWaiver(): Promise<Deal> {
  const deal = await freshDeal();
  await database.db.transactionForm.update({
    where: { id: deal.formId },
    data: { waiverStatus: 'requested', waiverReason: 'Not applicable', waiverRequestedAt: clock.now() },
  });
  return deal;
}

/** A's deal with every item accepted: compliant, so it may be closed; `closed` closes it too. */
async function freshCompliantDeal(options: { closed?: boolean } = {}): Promise<Deal> {
  const deal = await freshDeal();
  await database.db.transactionForm.updateMany({
    where: { transactionId: deal.id },
    data: { status: 'accepted', fileKey: transactionFileKey(deal.id, 'matrix.pdf', 'pdf'), version: 1 },
  });
  if (options.closed)
    await database.db.transaction.update({ where: { id: deal.id }, data: { closedAt: clock.now() } });
  return deal;
}

/** A key of the owner's (its id; `key` for the scope table below). */
async function freshApiKey(scopes: readonly ApiKeyScope[]): Promise<{ id: string; key: string }> {
  const { id, secret, key } = newApiKey();
  await database.db.apiKey.create({
    data: {
      id,
      name: `Matrix ${unique()}`,
      scopes: [...scopes],
      secretHash: new Uint8Array(hashApiKeySecret(secret)),
      createdBy: world.users.owner.id,
    },
  });
  return { id, key };
}
const freshApiKeyId = async () => (await freshApiKey(['users:read'])).id;

const freshBanner = async () => (await createBanner(database.db, { userId: A().id })).id;
const freshTemplate = () => createTemplate(database.db, { type: `Matrix-${unique()}`, role: 'Seller' });
const freshLibraryItem = async (kind: 'form' | 'tutorial') =>
  (
    await createLibraryItem(database.db, {
      kind,
      link: kind === 'form' ? world.libraryKey : 'https://x.test',
    })
  ).id;

// --- Valid inputs ---

const address = { streetAddress: '12 Harbor Lane', city: 'Portland', state: 'ME', zip: '04101' };
const paging = { page: 1, limit: 10 };
const NEW_PASSWORD = 'a long enough password';
const registration = () => ({
  firstName: 'Matrix',
  lastName: 'Cell',
  company: 'Acme Realty',
  email: `matrix-${unique()}@example.com`,
  phoneNumber: '+1 555 010 2030',
  password: NEW_PASSWORD,
  confirmPassword: NEW_PASSWORD,
});
/** A's own profile as it is: updating it is a real write that leaves A unchanged. */
const profileOfA = () => ({
  firstName: A().firstName,
  lastName: A().lastName,
  company: A().company,
  phoneNumber: A().phoneNumber,
});
/** The same password again: a real change (sessions end, a new pair is issued) that keeps A usable. */
const passwordChange = {
  currentPassword: DEFAULT_PASSWORD,
  password: DEFAULT_PASSWORD,
  confirmPassword: DEFAULT_PASSWORD,
};
const newUser = () => ({
  firstName: 'Matrix',
  lastName: 'Created',
  email: `created-${unique()}@example.com`,
  phoneNumber: '123-456-7890',
  company: 'Acme Realty',
  password: NEW_PASSWORD,
  role: 'user' as const,
});
const newDeal = () => ({ type: world.templateType, role: 'Seller', ...address, user: A().id });
const bannerDesign = {
  name: 'Open house',
  elements: [{ id: 'r1', type: 'rect', x: 10, y: 10, width: 100, height: 40, fill: 'blue' }],
};
const TUTORIAL_LINK = 'https://example.com/how-to-upload';

// --- The reviewed table: tRPC procedures ---

type ProcedureRow = {
  expect: Expected;
  input?: () => unknown;
  /**
   * The route that carries the procedure's input, when JSON cannot: an upload's input holds the
   * body's file, which only its multipart route hands over, so the cell calls the procedure there.
   */
  via?: string;
};

//                  expect: [anonymous, agentA, agentB, admin, owner]
const PUBLIC: Expected = [OK, OK, OK, OK, OK];
const A_OR_ADMINS: Expected = [401, OK, 403, OK, OK];
const A_OR_ADMINS_BY_ID: Expected = [401, OK, 404, OK, OK];
const ANY_USER: Expected = [401, OK, OK, OK, OK];
const ADMINS: Expected = [401, 403, 403, OK, OK];
const OWNER: Expected = [401, 403, 403, 403, OK];
const ONLY_A: Expected = [401, OK, 403, 403, 403];
const PRIVATE_TO_A: Expected = [401, OK, 404, 404, 404];

const PROCEDURES: Record<string, ProcedureRow> = {
  // Sign-in and recovery are public: a signed-in caller may use them too.
  'auth.register': { expect: PUBLIC, input: registration },
  'auth.verifyEmail': {
    expect: PUBLIC,
    input: async () => ({ token: await emailToken((await unverifiedAgent()).id, 'verify_email') }),
  },
  'auth.resendVerification': {
    expect: PUBLIC,
    input: async () => ({ email: (await unverifiedAgent()).email }),
  },
  'auth.login': {
    expect: PUBLIC,
    input: async () => ({ email: (await freshAgent()).email, password: DEFAULT_PASSWORD }),
  },
  'auth.refresh': { expect: PUBLIC, input: async () => ({ refreshToken: await refreshToken() }) },
  'auth.logout': { expect: PUBLIC, input: async () => ({ refreshToken: await refreshToken() }) },
  'auth.requestPasswordReset': { expect: PUBLIC, input: async () => ({ email: (await freshAgent()).email }) },
  'auth.confirmPasswordReset': {
    expect: PUBLIC,
    input: async () => ({
      token: await emailToken((await freshAgent()).id, 'reset_password'),
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
  },

  // A's profile: A, or an admin; B's attempt names A's id: 403.
  'settings.getUser': { expect: A_OR_ADMINS, input: () => ({ userId: A().id }) },
  'settings.updateUser': { expect: A_OR_ADMINS, input: () => ({ userId: A().id, ...profileOfA() }) },
  // Needs the current password, which nobody but A should know: admins too are refused.
  'settings.changePassword': { expect: ONLY_A, input: () => ({ userId: A().id, ...passwordChange }) },

  'users.list': { expect: ADMINS, input: () => paging },
  'users.activate': { expect: ADMINS, input: async () => ({ id: (await pendingAgent()).id }) },
  'users.create': { expect: ADMINS, input: newUser },
  'users.deactivate': { expect: ADMINS, input: async () => ({ id: (await freshAgent()).id }) },

  // The Create Transaction dialog needs every template; the template admin page is for admins.
  'templates.all': { expect: ANY_USER },
  'templates.list': { expect: ADMINS, input: () => paging },
  'templates.search': { expect: ADMINS, input: () => ({ ...paging, query: 'Listing' }) },
  'templates.create': {
    expect: OWNER,
    input: () => ({ type: `Matrix-${unique()}`, role: 'Seller', forms: ['Listing Agreement'] }),
  },
  'templates.update': {
    expect: ADMINS,
    input: async () => {
      const template = await freshTemplate();
      return { id: template.id, type: template.type, role: template.role, forms: ['Disclosure'] };
    },
  },
  'templates.delete': { expect: ADMINS, input: async () => ({ id: (await freshTemplate()).id }) },

  // The agent paths name A: B is refused before any lookup, admins may use them.
  'transactions.list': { expect: A_OR_ADMINS, input: () => ({ userId: A().id, ...paging }) },
  'transactions.search': {
    expect: A_OR_ADMINS,
    input: () => ({ userId: A().id, term: 'harbor', ...paging }),
  },
  // Opening a deal in A's name: only A, admins included (a body `user` naming someone else is
  // 403: nobody opens a deal in another's name).
  'transactions.create': { expect: ONLY_A, input: newDeal },
  'transactions.get': { expect: A_OR_ADMINS, input: () => ({ id: world.deal.id, userId: A().id }) },
  'transactions.update': {
    expect: A_OR_ADMINS,
    input: async () => ({ id: (await freshDeal()).id, userId: A().id, ...address, city: 'Bangor' }),
  },
  // No user id in these paths: A's deal is simply not there for B (404).
  'transactions.setFormFile': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => {
      const deal = await freshDeal();
      const { url } = await uploadedBy('agentA', `/api/uploads/transactions/${deal.id}`);
      return { id: deal.id, formId: deal.formId, url };
    },
  },
  'transactions.split': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => {
      const deal = await freshDeal();
      const { key } = await uploadedBy('agentA', `/api/uploads/transactions/${deal.id}`, await packet());
      return { id: deal.id, key, parts: [{ formId: deal.formId, pages: '1-2' }] };
    },
  },
  'transactions.addComment': {
    expect: A_OR_ADMINS_BY_ID,
    input: () => ({ id: world.deal.id, formId: world.deal.formId, text: 'Signed copy attached' }),
  },

  'adminTransactions.list': { expect: ADMINS, input: () => paging },
  'adminTransactions.search': { expect: ADMINS, input: () => ({ ...paging, term: 'harbor' }) },
  'adminTransactions.get': { expect: ADMINS, input: () => ({ id: world.deal.id }) },
  'adminTransactions.update': {
    expect: ADMINS,
    input: async () => ({ id: (await freshDeal()).id, ...address, isTitleReport: true }),
  },
  'adminTransactions.delete': { expect: ADMINS, input: async () => ({ id: (await freshDeal()).id }) },
  'adminTransactions.review': {
    expect: ADMINS,
    input: async () => {
      const deal = await freshDealAwaitingReview();
      return { id: deal.id, formId: deal.formId, status: 'accepted', text: 'Looks complete' };
    },
  },
  'adminTransactions.history': { expect: ADMINS, input: () => ({ id: world.deal.id }) },
  // The compliance workflow: waivers, versions, closing, the queue and its reasons.
  'transactions.requestWaiver': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => {
      const deal = await freshDeal();
      return { id: deal.id, formId: deal.formId, reason: 'Not applicable: built after 1978' };
    },
  },
  'transactions.versions': {
    expect: A_OR_ADMINS_BY_ID,
    input: () => ({ id: world.deal.id, formId: world.deal.formId }),
  },
  'adminTransactions.decideWaiver': {
    expect: ADMINS,
    input: async () => {
      const deal = await freshDealWithWaiver();
      return { id: deal.id, formId: deal.formId, approve: true, text: 'Agreed' };
    },
  },
  'adminTransactions.close': { expect: ADMINS, input: async () => ({ id: (await freshCompliantDeal()).id }) },
  'adminTransactions.reopen': {
    expect: ADMINS,
    input: async () => ({ id: (await freshCompliantDeal({ closed: true })).id }),
  },
  'reviewQueue.list': { expect: ADMINS, input: () => paging },
  'reviewQueue.bulkAccept': {
    expect: ADMINS,
    input: async () => {
      const deal = await freshDealAwaitingReview();
      return { items: [{ transactionId: deal.id, formId: deal.formId }] };
    },
  },
  'rejectionReasons.list': { expect: ADMINS },
  'rejectionReasons.create': { expect: ADMINS, input: () => ({ label: `Matrix reason ${unique()}` }) },
  'rejectionReasons.update': {
    expect: ADMINS,
    input: () => ({ code: 'missing-signature', label: 'Missing signature', active: true }),
  },

  // API keys: admins keep them; what a key itself may call is checked per scope below.
  'apiKeys.list': { expect: ADMINS },
  'apiKeys.create': { expect: ADMINS, input: () => ({ name: `Matrix ${unique()}`, scopes: ['users:read'] }) },
  'apiKeys.revoke': { expect: ADMINS, input: async () => ({ id: await freshApiKeyId() }) },

  // Key dates, the calendar and notification preferences.
  'keyDates.list': { expect: A_OR_ADMINS_BY_ID, input: () => ({ id: world.deal.id }) },
  'keyDates.replace': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => ({ id: (await freshDeal()).id, dates: [{ kind: 'closing', date: '2027-01-15' }] }),
  },
  // Everyone sees their own calendar (an admin everyone's); there is no user id to name.
  'calendar.list': { expect: ANY_USER, input: () => ({ from: '2026-11-01', to: '2026-11-30' }) },
  'calendar.createFeed': { expect: ANY_USER },
  // The broker dashboard is the desk's; everyone's strip is about their own files.
  'dashboard.figures': { expect: ADMINS, input: () => ({ from: '2026-11-01', to: '2026-11-30' }) },
  'dashboard.attention': { expect: ANY_USER },
  'notificationSettings.get': { expect: A_OR_ADMINS, input: () => ({ userId: A().id }) },
  'notificationSettings.update': {
    expect: A_OR_ADMINS,
    input: () => ({ userId: A().id, timezone: 'America/Chicago', reminderDays: [3, 1], events: {} }),
  },
  'notificationSettings.detectTimezone': { expect: ANY_USER, input: () => ({ timezone: 'America/Denver' }) },
  // The link of a mail: its signed token is the permission (RFC 8058), no session needed.
  'notificationSettings.unsubscribe': { expect: PUBLIC, input: () => ({ token: unsubscribeTokenOfA() }) },

  'uploads.transactionDocument': { expect: A_OR_ADMINS_BY_ID, via: 'POST /api/uploads/transactions/:id' },
  'uploads.transactionPhotos': {
    expect: A_OR_ADMINS_BY_ID,
    via: 'POST /api/uploads/transactions/:id/images',
  },
  'uploads.libraryForm': { expect: OWNER, via: 'POST /api/uploads/forms' },
  'exports.transactions': { expect: ADMINS, input: () => ({ status: 'missing', query: 'Harbor' }) },
  'exports.reviewQueue': { expect: ADMINS, input: () => ({ agentId: A().id }) },
  'exports.users': { expect: ADMINS, input: () => ({ query: 'Agent' }) },

  'notifications.list': { expect: A_OR_ADMINS, input: () => ({ userId: A().id, ...paging }) },
  'notifications.markAllRead': { expect: A_OR_ADMINS, input: () => ({ userId: A().id }) },
  // Each signed-in caller subscribes to their own stream (there is no user id to name).
  'notifications.onNotification': { expect: ANY_USER },

  'libraries.forms.list': { expect: ANY_USER, input: () => paging },
  'libraries.forms.search': { expect: ANY_USER, input: () => ({ ...paging, query: 'form' }) },
  'libraries.forms.create': {
    expect: OWNER,
    input: () => ({ name: 'Buyer checklist', link: world.libraryKey }),
  },
  'libraries.forms.update': {
    expect: OWNER,
    input: async () => ({ id: await freshLibraryItem('form'), name: 'Renamed', link: world.libraryKey }),
  },
  'libraries.forms.delete': { expect: OWNER, input: async () => ({ id: await freshLibraryItem('form') }) },
  'libraries.tutorials.list': { expect: ANY_USER, input: () => paging },
  'libraries.tutorials.search': { expect: ANY_USER, input: () => ({ ...paging, query: 'upload' }) },
  'libraries.tutorials.create': { expect: OWNER, input: () => ({ name: 'Uploading', link: TUTORIAL_LINK }) },
  'libraries.tutorials.update': {
    expect: OWNER,
    input: async () => ({ id: await freshLibraryItem('tutorial'), name: 'Renamed', link: TUTORIAL_LINK }),
  },
  'libraries.tutorials.delete': {
    expect: OWNER,
    input: async () => ({ id: await freshLibraryItem('tutorial') }),
  },

  // Everyone lists their own designs; A's design is A's alone.
  'banners.list': { expect: ANY_USER },
  'banners.get': { expect: PRIVATE_TO_A, input: () => ({ id: world.bannerId }) },
  'banners.save': { expect: PRIVATE_TO_A, input: async () => ({ id: await freshBanner(), ...bannerDesign }) },
  'banners.delete': { expect: PRIVATE_TO_A, input: async () => ({ id: await freshBanner() }) },

  // Webhooks: admins only.
  'webhooks.list': { expect: ADMINS },
  'webhooks.create': { expect: ADMINS, input: () => ({ url: WEBHOOK_URL, events: ['transaction.created'] }) },
  'webhooks.update': { expect: ADMINS, input: async () => ({ id: await freshWebhook(), active: false }) },
  'webhooks.delete': { expect: ADMINS, input: async () => ({ id: await freshWebhook() }) },
  'webhooks.deliveries': { expect: ADMINS, input: async () => ({ id: await freshWebhook(), ...paging }) },
  'webhooks.retry': { expect: ADMINS, input: freshWebhookDelivery },
  'webhooks.test': { expect: ADMINS, input: async () => ({ id: await freshWebhook() }) },
};

/** A public address literal: valid without DNS, never called (no job engine runs here). */
const WEBHOOK_URL = 'https://93.184.216.34/hooks';
async function freshWebhook(): Promise<string> {
  const row = await database.db.webhookEndpoint.create({
    data: { url: WEBHOOK_URL, events: ['transaction.created'], secretSealed: 'never-opened' },
  });
  return row.id;
}
async function freshWebhookDelivery(): Promise<{ id: string; deliveryId: string }> {
  const id = await freshWebhook();
  const event = await database.db.webhookEvent.create({ data: { type: 'ping', body: '{}' } });
  const delivery = await database.db.webhookDelivery.create({
    data: { endpointId: id, eventId: event.id, status: 'failed', attempts: 7 },
  });
  return { id, deliveryId: delivery.id };
}

// --- The reviewed table: HTTP routes (every one the app registers but /trpc) ---

/** `upload`: a multipart body with a tiny PDF (true) or a photo ('photo') in its `file` part. */
type RouteRequest = { url: string; payload?: unknown; upload?: true | 'photo' };
type RouteRow = { expect: Expected; request: () => RouteRequest | Promise<RouteRequest> };

const get = (url: string) => () => ({ url });
const TEMPLATES = '/api/admin/forms/transactions';

const ROUTES: Record<string, RouteRow> = {
  'POST /api/auth/register': {
    expect: PUBLIC,
    request: () => ({ url: '/api/auth/register', payload: registration() }),
  },
  'POST /api/auth/verify-email': {
    expect: PUBLIC,
    request: async () => ({
      url: '/api/auth/verify-email',
      payload: { token: await emailToken((await unverifiedAgent()).id, 'verify_email') },
    }),
  },
  'POST /api/auth/verify-email/resend': {
    expect: PUBLIC,
    request: async () => ({
      url: '/api/auth/verify-email/resend',
      payload: { email: (await unverifiedAgent()).email },
    }),
  },
  'POST /api/auth/login': {
    expect: PUBLIC,
    request: async () => ({
      url: '/api/auth/login',
      payload: { email: (await freshAgent()).email, password: DEFAULT_PASSWORD },
    }),
  },
  'POST /api/auth/refresh': {
    expect: PUBLIC,
    request: async () => ({ url: '/api/auth/refresh', payload: { refreshToken: await refreshToken() } }),
  },
  'POST /api/auth/logout': {
    expect: PUBLIC,
    request: async () => ({ url: '/api/auth/logout', payload: { refreshToken: await refreshToken() } }),
  },
  'POST /api/auth/reset': {
    expect: PUBLIC,
    request: async () => ({ url: '/api/auth/reset', payload: { email: (await freshAgent()).email } }),
  },
  'POST /api/auth/reset/confirm': {
    expect: PUBLIC,
    request: async () => ({
      url: '/api/auth/reset/confirm',
      payload: {
        token: await emailToken((await freshAgent()).id, 'reset_password'),
        password: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
    }),
  },

  'GET /api/settings/getUser/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/settings/getUser/${A().id}` }),
  },
  'PUT /api/settings/updateUser/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/settings/updateUser/${A().id}`, payload: profileOfA() }),
  },
  'POST /api/settings/changePassword/:userId': {
    expect: ONLY_A,
    request: () => ({ url: `/api/settings/changePassword/${A().id}`, payload: passwordChange }),
  },

  'GET /api/users': { expect: ADMINS, request: get('/api/users?page=1&limit=10&query=agent') },
  'POST /api/users': { expect: ADMINS, request: () => ({ url: '/api/users', payload: newUser() }) },
  'GET /api/users/activate/:id': {
    expect: ADMINS,
    request: async () => ({ url: `/api/users/activate/${(await pendingAgent()).id}` }),
  },
  'GET /api/users/deactivated/:id': {
    expect: ADMINS,
    request: async () => ({ url: `/api/users/deactivated/${(await freshAgent()).id}` }),
  },

  'GET /api/transactions/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/transactions/${A().id}?page=1&limit=10` }),
  },
  'GET /api/transactions/search/:userId/:term': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/transactions/search/${A().id}/harbor` }),
  },
  'POST /api/transactions': {
    expect: ONLY_A,
    request: () => ({ url: '/api/transactions', payload: newDeal() }),
  },
  'GET /api/transactions/individual/:id/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/transactions/individual/${world.deal.id}/${A().id}` }),
  },
  'PUT /api/transactions/:id/:userId': {
    expect: A_OR_ADMINS,
    request: async () => ({
      url: `/api/transactions/${(await freshDeal()).id}/${A().id}`,
      payload: { ...address, city: 'Bangor' },
    }),
  },
  'PUT /api/transactions/:id/forms/:formId': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => {
      const deal = await freshDeal();
      const { url } = await uploadedBy('agentA', `/api/uploads/transactions/${deal.id}`);
      return { url: `/api/transactions/${deal.id}/forms/${deal.formId}`, payload: { url } };
    },
  },
  'POST /api/transactions/:id/forms/:formId/comments': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({
      url: `/api/transactions/${world.deal.id}/forms/${world.deal.formId}/comments`,
      payload: { text: 'Signed copy attached' },
    }),
  },
  'POST /api/uploads/transactions/:id': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({ url: `/api/uploads/transactions/${world.deal.id}`, upload: true }),
  },
  'POST /api/uploads/transactions/:id/images': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({ url: `/api/uploads/transactions/${world.deal.id}/images`, upload: 'photo' }),
  },
  'POST /api/transactions/:id/split': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => {
      const deal = await freshDeal();
      const { key } = await uploadedBy('agentA', `/api/uploads/transactions/${deal.id}`, await packet());
      return {
        url: `/api/transactions/${deal.id}/split`,
        payload: { key, parts: [{ formId: deal.formId, pages: '2' }] },
      };
    },
  },

  'GET /api/admin/transactions': { expect: ADMINS, request: get('/api/admin/transactions?page=1&limit=10') },
  'GET /api/admin/transactions/search/:term': {
    expect: ADMINS,
    request: get('/api/admin/transactions/search/harbor'),
  },
  'GET /api/admin/transactions/individual/:id': {
    expect: ADMINS,
    request: () => ({ url: `/api/admin/transactions/individual/${world.deal.id}` }),
  },
  'PUT /api/admin/transactions/:id': {
    expect: ADMINS,
    request: async () => ({
      url: `/api/admin/transactions/${(await freshDeal()).id}`,
      payload: { ...address, isNaturalHazardDisclosure: true },
    }),
  },
  'DELETE /api/admin/transactions/:id': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/transactions/${(await freshDeal()).id}` }),
  },
  'POST /api/admin/transactions/:id/forms/:formId/comments': {
    expect: ADMINS,
    request: async () => {
      const deal = await freshDealAwaitingReview();
      return {
        url: `/api/admin/transactions/${deal.id}/forms/${deal.formId}/comments`,
        payload: { status: 'rejected', text: 'Missing a signature' },
      };
    },
  },
  'POST /api/transactions/:id/forms/:formId/waiver': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => {
      const deal = await freshDeal();
      return {
        url: `/api/transactions/${deal.id}/forms/${deal.formId}/waiver`,
        payload: { reason: 'Not applicable: built after 1978' },
      };
    },
  },
  'GET /api/transactions/:id/forms/:formId/versions': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({ url: `/api/transactions/${world.deal.id}/forms/${world.deal.formId}/versions` }),
  },
  'POST /api/admin/transactions/:id/forms/:formId/waiver': {
    expect: ADMINS,
    request: async () => {
      const deal = await freshDealWithWaiver();
      return {
        url: `/api/admin/transactions/${deal.id}/forms/${deal.formId}/waiver`,
        payload: { approve: false, text: 'The disclosure applies' },
      };
    },
  },
  'POST /api/admin/transactions/:id/close': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/transactions/${(await freshCompliantDeal()).id}/close` }),
  },
  'POST /api/admin/transactions/:id/reopen': {
    expect: ADMINS,
    request: async () => ({
      url: `/api/admin/transactions/${(await freshCompliantDeal({ closed: true })).id}/reopen`,
    }),
  },
  'GET /api/admin/review-queue': { expect: ADMINS, request: get('/api/admin/review-queue?page=1&limit=10') },
  'POST /api/admin/review': {
    expect: ADMINS,
    request: async () => {
      const deal = await freshDealAwaitingReview();
      return {
        url: '/api/admin/review',
        payload: { items: [{ transactionId: deal.id, formId: deal.formId }] },
      };
    },
  },
  'GET /api/admin/rejection-reasons': { expect: ADMINS, request: get('/api/admin/rejection-reasons') },
  'POST /api/admin/rejection-reasons': {
    expect: ADMINS,
    request: () => ({ url: '/api/admin/rejection-reasons', payload: { label: `Matrix reason ${unique()}` } }),
  },
  'PUT /api/admin/rejection-reasons/:code': {
    expect: ADMINS,
    request: () => ({ url: '/api/admin/rejection-reasons/missing-initials', payload: { active: true } }),
  },
  'GET /api/admin/transactions/:id/history': {
    expect: ADMINS,
    request: () => ({ url: `/api/admin/transactions/${world.deal.id}/history` }),
  },

  [`GET ${TEMPLATES}/view/all`]: { expect: ANY_USER, request: get(`${TEMPLATES}/view/all`) },
  [`GET ${TEMPLATES}/view`]: { expect: ADMINS, request: get(`${TEMPLATES}/view?page=1&limit=10`) },
  [`GET ${TEMPLATES}/search`]: {
    expect: ADMINS,
    request: get(`${TEMPLATES}/search?query=listing&page=1&limit=10`),
  },
  [`POST ${TEMPLATES}/insert`]: {
    expect: OWNER,
    request: () => ({
      url: `${TEMPLATES}/insert`,
      payload: { type: `Matrix-${unique()}`, role: '-', forms: ['Referral Agreement'] },
    }),
  },
  [`PUT ${TEMPLATES}/form/:id`]: {
    expect: ADMINS,
    request: async () => {
      const template = await freshTemplate();
      return {
        url: `${TEMPLATES}/form/${template.id}`,
        payload: { type: template.type, role: template.role, forms: ['Disclosure'] },
      };
    },
  },
  [`DELETE ${TEMPLATES}/form/:id`]: {
    expect: ADMINS,
    request: async () => ({ url: `${TEMPLATES}/form/${(await freshTemplate()).id}` }),
  },

  'GET /api/notifications/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/notifications/${A().id}` }),
  },
  'POST /api/notifications/:userId/read': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/notifications/${A().id}/read` }),
  },

  'GET /api/forms': { expect: ANY_USER, request: get('/api/forms?page=1&limit=10') },
  'GET /api/forms/search': { expect: ANY_USER, request: get('/api/forms/search?query=form&page=1&limit=10') },
  'POST /api/forms': {
    expect: OWNER,
    request: () => ({ url: '/api/forms', payload: { name: 'Buyer checklist', link: world.libraryKey } }),
  },
  'PUT /api/forms/:id': {
    expect: OWNER,
    request: async () => ({
      url: `/api/forms/${await freshLibraryItem('form')}`,
      payload: { name: 'Renamed', link: world.libraryKey },
    }),
  },
  'DELETE /api/forms/:id': {
    expect: OWNER,
    request: async () => ({ url: `/api/forms/${await freshLibraryItem('form')}` }),
  },
  'POST /api/uploads/forms': { expect: OWNER, request: () => ({ url: '/api/uploads/forms', upload: true }) },
  'GET /api/tutorials': { expect: ANY_USER, request: get('/api/tutorials?page=1&limit=10') },
  'GET /api/tutorials/search': { expect: ANY_USER, request: get('/api/tutorials/search?query=upload') },
  'POST /api/tutorials': {
    expect: OWNER,
    request: () => ({ url: '/api/tutorials', payload: { name: 'Uploading', link: TUTORIAL_LINK } }),
  },
  'PUT /api/tutorials/:id': {
    expect: OWNER,
    request: async () => ({
      url: `/api/tutorials/${await freshLibraryItem('tutorial')}`,
      payload: { name: 'Renamed', link: TUTORIAL_LINK },
    }),
  },
  'DELETE /api/tutorials/:id': {
    expect: OWNER,
    request: async () => ({ url: `/api/tutorials/${await freshLibraryItem('tutorial')}` }),
  },

  'GET /api/admin/api-keys': { expect: ADMINS, request: get('/api/admin/api-keys') },
  'POST /api/admin/api-keys': {
    expect: ADMINS,
    request: () => ({
      url: '/api/admin/api-keys',
      payload: { name: `Matrix ${unique()}`, scopes: ['users:read'] },
    }),
  },
  'DELETE /api/admin/api-keys/:id': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/api-keys/${await freshApiKeyId()}` }),
  },

  'GET /api/transactions/:id/dates': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({ url: `/api/transactions/${world.deal.id}/dates` }),
  },
  'PUT /api/transactions/:id/dates': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => ({
      url: `/api/transactions/${(await freshDeal()).id}/dates`,
      payload: { dates: [{ kind: 'inspection', date: '2027-01-05' }] },
    }),
  },
  'GET /api/calendar': { expect: ANY_USER, request: get('/api/calendar?from=2026-11-01&to=2026-11-30') },
  'POST /api/calendar/feed': { expect: ANY_USER, request: () => ({ url: '/api/calendar/feed' }) },
  'GET /api/admin/dashboard': {
    expect: ADMINS,
    request: get('/api/admin/dashboard?from=2026-11-01&to=2026-11-30'),
  },
  'GET /api/attention': { expect: ANY_USER, request: get('/api/attention') },
  'GET /api/settings/notifications/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({ url: `/api/settings/notifications/${A().id}` }),
  },
  'PUT /api/settings/notifications/:userId': {
    expect: A_OR_ADMINS,
    request: () => ({
      url: `/api/settings/notifications/${A().id}`,
      payload: { timezone: 'America/Chicago', reminderDays: [2], events: { comment: 'email' } },
    }),
  },
  // A mail's links: the signed token (or the feed's secret) is the permission, no session.
  'POST /api/unsubscribe/:token': {
    expect: PUBLIC,
    request: () => ({ url: `/api/unsubscribe/${unsubscribeTokenOfA()}`, payload: {} }),
  },
  'GET /api/unsubscribe/:token': {
    expect: [303, 303, 303, 303, 303],
    request: () => ({ url: `/api/unsubscribe/${unsubscribeTokenOfA()}` }),
  },
  'GET /calendar/:file': {
    expect: PUBLIC,
    request: async () => {
      const token = newSecretToken();
      await database.db.user.update({
        where: { id: A().id },
        data: { calendarFeedHash: hashSecretToken(token) },
      });
      return { url: `/calendar/${token}.ics` };
    },
  },

  'GET /api/admin/webhooks': { expect: ADMINS, request: get('/api/admin/webhooks') },
  'POST /api/admin/webhooks': {
    expect: ADMINS,
    request: () => ({
      url: '/api/admin/webhooks',
      payload: { url: WEBHOOK_URL, events: ['user.registered'] },
    }),
  },
  'PUT /api/admin/webhooks/:id': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}`, payload: { active: false } }),
  },
  'DELETE /api/admin/webhooks/:id': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}` }),
  },
  'GET /api/admin/webhooks/:id/deliveries': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}/deliveries?page=1&limit=10` }),
  },
  'POST /api/admin/webhooks/:id/deliveries/:deliveryId/retry': {
    expect: ADMINS,
    request: async () => {
      const { id, deliveryId } = await freshWebhookDelivery();
      return { url: `/api/admin/webhooks/${id}/deliveries/${deliveryId}/retry`, payload: {} };
    },
  },
  'POST /api/admin/webhooks/:id/test': {
    expect: ADMINS,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}/test`, payload: {} }),
  },
  // CSV exports: admins only, as their procedures say (EXPORT_ROUTE_PROCEDURES).
  'GET /api/admin/transactions.csv': {
    expect: ADMINS,
    request: get('/api/admin/transactions.csv?status=missing&query=Harbor'),
  },
  'GET /api/admin/review-queue.csv': { expect: ADMINS, request: get('/api/admin/review-queue.csv') },
  'GET /api/users.csv': { expect: ADMINS, request: get('/api/users.csv?query=Agent') },

  // The signature is the permission: "View" opens in a new tab without a header.
  'GET /files/*': { expect: PUBLIC, request: () => ({ url: world.fileLink }) },

  // Probes and the API's own documentation are public.
  'GET /healthz': { expect: PUBLIC, request: get('/healthz') },
  'GET /readyz': { expect: PUBLIC, request: get('/readyz') },
  // Only the scraper's METRICS_TOKEN opens it: no user session does, not even the owner's
  // (server/plugins/metrics.test.ts shows the token itself let through).
  'GET /metrics': { expect: [401, 401, 401, 401, 401], request: get('/metrics') },
  'GET /api/openapi.json': { expect: PUBLIC, request: get('/api/openapi.json') },
  'GET /api/docs': { expect: PUBLIC, request: get('/api/docs') },
  'GET /api/docs/json': { expect: PUBLIC, request: get('/api/docs/json') },
  'GET /api/docs/yaml': { expect: PUBLIC, request: get('/api/docs/yaml') },
  // Swagger UI sends its own index page on to /api/docs/, for everyone alike.
  'GET /api/docs/static/index.html': {
    expect: [302, 302, 302, 302, 302],
    request: get('/api/docs/static/index.html'),
  },
  'GET /api/docs/static/swagger-initializer.js': {
    expect: PUBLIC,
    request: get('/api/docs/static/swagger-initializer.js'),
  },
  'GET /api/docs/static/*': { expect: PUBLIC, request: get('/api/docs/static/swagger-ui.css') },
};

/** The multipart routes call one procedure each, which decides before a byte is read (server/plugins/uploads.ts). */
const UPLOAD_ROUTE_PROCEDURES: Record<string, string> = {
  'POST /api/uploads/transactions/:id': 'uploads.transactionDocument',
  'POST /api/uploads/transactions/:id/images': 'uploads.transactionPhotos',
  'POST /api/uploads/forms': 'uploads.libraryForm',
};
/** The CSV exports likewise call one procedure each before sending a byte (server/plugins/exports.ts). */
const EXPORT_ROUTE_PROCEDURES: Record<string, string> = {
  'GET /api/admin/transactions.csv': 'exports.transactions',
  'GET /api/admin/review-queue.csv': 'exports.reviewQueue',
  'GET /api/users.csv': 'exports.users',
};

// --- Calls ---

let calls = 0;
/** Every cell comes from its own address, so the per-address sign-in limits never decide a cell. */
const nextAddress = () => {
  calls++;
  return `10.${(calls >> 16) & 255}.${(calls >> 8) & 255}.${calls & 255}`;
};

/** A token for the actor as the user is now (a password change bumps the token version). */
async function tokenOf(actor: ActorName): Promise<string | undefined> {
  if (actor === 'anonymous') return undefined;
  const user = await database.db.user.findUniqueOrThrow({ where: { id: world.users[actor].id } });
  return accessTokenFor(user, { now: clock.now() });
}

function outcomeOf(status: number): Outcome | number {
  return status >= 200 && status < 300 ? OK : status;
}

/** Every procedure of the app by its path, as tRPC's router records them. */
const allProcedures = [...proceduresOf(appRouter)];
const procedureTypes = new Map(allProcedures.map(([path, procedure]) => [path, procedureTypeOf(procedure)]));

async function callProcedure(path: string, row: ProcedureRow, actor: ActorName): Promise<Outcome | number> {
  const type = procedureTypes.get(path);
  if (!type) throw new Error(`${path} is not a procedure of appRouter`);
  if (row.via) {
    const route = ROUTES[row.via];
    if (!route) throw new Error(`${path} names ${row.via}, which has no row`);
    return callRoute(row.via, route, actor);
  }
  const input = await row.input?.();
  const token = await tokenOf(actor);
  if (type === 'subscription') {
    nextAddress();
    const subscription = subscribeOverWebSocket(webSocketUrl, path, input, token);
    try {
      return await Promise.race([subscription.started.then(() => OK), subscription.failed]);
    } finally {
      subscription.close();
    }
  }
  const res = await app.inject({
    ...trpcRequest(path, type, input, bearer(token)),
    remoteAddress: nextAddress(),
  });
  return outcomeOf(res.statusCode);
}

async function callRoute(
  key: string,
  row: RouteRow,
  actor: ActorName,
  apiKey?: string,
): Promise<Outcome | number> {
  return outcomeOf((await sendRoute(key, row, apiKey ?? (await tokenOf(actor)))).statusCode);
}

async function sendRoute(key: string, row: RouteRow, token: string | undefined) {
  const method = key.slice(0, key.indexOf(' ')) as 'GET' | 'POST' | 'PUT' | 'DELETE';
  const request = await row.request();
  const headers = bearer(token);
  const file = request.upload
    ? multipartBody(
        request.upload === 'photo' ? await photo() : TINY_PDF,
        request.upload === 'photo' ? 'page.jpg' : undefined,
      )
    : undefined;
  const payload = file?.payload ?? (request.payload as object | undefined);
  return app.inject({
    method,
    url: request.url,
    remoteAddress: nextAddress(),
    headers: { ...headers, ...file?.headers },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** Runs the five cells of a row one after the other and returns what each actor got. */
async function outcomes(cell: (actor: ActorName) => Promise<Outcome | number>) {
  const got: Record<string, Outcome | number> = {};
  for (const actor of ACTORS) got[actor] = await cell(actor);
  return got;
}
const named = (expected: Expected) => Object.fromEntries(ACTORS.map((actor, i) => [actor, expected[i]]));

// --- Setup ---

/** Every route the app registers, as `METHOD url`; HEAD mirrors GET through the same handler. */
const registeredRoutes: string[] = [];
/** The API key scope each route declares (`x-api-key-scope` in its schema), as `METHOD url`. */
const declaredScopes = new Map<string, PathScope>();
/** The procedures' REST paths. */
const restRoutes = restRoutesOf(appRouter);

beforeAll(async () => {
  // With a metrics token, so that /metrics exists and has its row.
  const config = testConfig({ metricsToken: `matrix-metrics-token-${randomUUID()}` });
  app = buildTestApp(testDeps(database.db, { clock, config }));
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD' || route.url.startsWith('/trpc')) continue;
      registeredRoutes.push(`${method} ${route.url}`);
      const scope = (route.schema as { 'x-api-key-scope'?: PathScope } | undefined)?.['x-api-key-scope'];
      if (scope) declaredScopes.set(`${method} ${route.url}`, scope);
    }
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  webSocketUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/trpc`;

  const templateType = `Listing-${unique()}`;
  await createTemplate(database.db, { type: templateType, role: 'Seller' });
  const users: World['users'] = {
    agentA: await createUser(database.db, { firstName: 'Alice', lastName: 'Agent' }),
    agentB: await createUser(database.db, { firstName: 'Bob', lastName: 'Broker' }),
    admin: await createAdmin(database.db),
    owner: await createOwner(database.db),
  };
  world = { users, templateType, deal: { id: '', formId: '' }, bannerId: '', fileLink: '', libraryKey: '' };
  world.deal = await freshDeal();
  world.bannerId = await freshBanner();
  await createNotification(database.db, { userId: A().id });
  const uploaded = new URL((await uploadedBy('agentA', `/api/uploads/transactions/${world.deal.id}`)).url);
  world.fileLink = `${uploaded.pathname}${uploaded.search}`;
  world.libraryKey = (await uploadedBy('owner', '/api/uploads/forms')).key;
});

let coverage = '';
afterAll(async () => {
  // Printed for the record of what was covered (noConsole allows warn, not log).
  if (coverage) console.warn(`authorization matrix: ${coverage}, ${calls} calls`);
  await app?.close();
});

// --- The tests ---

describe('the table itself', () => {
  it('has exactly one row per procedure and per registered route: nothing new slips in unreviewed', () => {
    const procedures = [...procedureTypes.keys()].sort();
    const routes = [...new Set(registeredRoutes)].sort();
    const reviewed = (keys: string[], table: object) => keys.filter((key) => key in table).length;
    coverage =
      `${reviewed(procedures, PROCEDURES)}/${procedures.length} procedures, ` +
      `${reviewed(routes, ROUTES)}/${routes.length} routes`;
    expect(Object.keys(PROCEDURES).sort()).toEqual(procedures);
    expect(Object.keys(ROUTES).sort()).toEqual(routes);
    // The documented REST table and the upload routes are all among them.
    for (const route of restRoutes) expect(routes).toContain(`${route.method} ${route.path}`);
    for (const key of Object.keys(UPLOAD_ROUTE_PROCEDURES)) expect(routes).toContain(key);
  });

  it('shows every input valid: each row that tells actors apart lets at least one of them through', () => {
    for (const [key, row] of [...Object.entries(PROCEDURES), ...Object.entries(ROUTES)]) {
      const tellsApart = new Set(row.expect).size > 1;
      if (tellsApart)
        expect({ key, someoneSucceeds: row.expect.includes(OK) }).toEqual({ key, someoneSucceeds: true });
    }
  });

  it("agrees with each procedure's declared access (meta.access)", () => {
    for (const [path, procedure] of allProcedures) {
      const [anonymous, agentA, agentB, admin, owner] = PROCEDURES[path]?.expect ?? [];
      const access = accessOf(procedure);
      const who = { path, access };
      if (access === 'public') expect({ ...who, anonymous }).toEqual({ ...who, anonymous: OK });
      else expect({ ...who, anonymous }).toEqual({ ...who, anonymous: 401 });
      if (access === 'admin' || access === 'owner') {
        expect({ ...who, agentA, agentB }).toEqual({ ...who, agentA: 403, agentB: 403 });
      }
      if (access === 'owner') expect({ ...who, admin, owner }).toEqual({ ...who, admin: 403, owner: OK });
    }
  });

  it('gives every REST route the row of the procedure it calls', () => {
    const pairs: Array<[string, string]> = [
      ...restRoutes.map((route): [string, string] => [`${route.method} ${route.path}`, route.procedurePath]),
      ...Object.entries(UPLOAD_ROUTE_PROCEDURES),
      ...Object.entries(EXPORT_ROUTE_PROCEDURES),
    ];
    for (const [route, path] of pairs) {
      expect({ route, path, expect: ROUTES[route]?.expect }).toEqual({
        route,
        path,
        expect: PROCEDURES[path]?.expect,
      });
    }
  });
});

describe('tRPC procedures (HTTP; the subscription over a WebSocket)', () => {
  for (const [path, row] of Object.entries(PROCEDURES)) {
    it(path, async () => {
      expect(await outcomes((actor) => callProcedure(path, row, actor))).toEqual(named(row.expect));
    });
  }
});

describe('HTTP routes', () => {
  for (const [key, row] of Object.entries(ROUTES)) {
    it(key, async () => {
      expect(await outcomes((actor) => callRoute(key, row, actor))).toEqual(named(row.expect));
    });
  }
});

/**
 * API keys: each scope allows exactly its paths. For every /api path, a key of
 * the owner's holding only the path's scope gets what the owner gets (the key's visibility is its
 * creator's), and a key holding every other scope is refused with 403 and the scope it lacks.
 * 'personal' paths refuse every key; 'any' paths take every key.
 */
describe('API key scopes: each scope allows exactly its paths', () => {
  const apiPaths = [
    ...restRoutes.map((route) => `${route.method} ${route.path}`),
    ...Object.keys(UPLOAD_ROUTE_PROCEDURES),
    ...Object.keys(EXPORT_ROUTE_PROCEDURES),
  ];

  it('declares a scope for every /api path that takes a bearer token, and nothing else', () => {
    expect([...declaredScopes.keys()].sort()).toEqual([...new Set(apiPaths)].sort());
    // A procedure's REST path is mounted with the scope its meta declares.
    for (const route of restRoutes)
      expect(declaredScopes.get(`${route.method} ${route.path}`), route.procedurePath).toBe(route.scope);
  });

  for (const key of apiPaths) {
    it(key, async () => {
      const scope = declaredScopes.get(key);
      if (!scope) throw new Error(`no API key scope declared for ${key}`);
      const row = ROUTES[key];
      if (!row) throw new Error(`no matrix row for ${key}`);
      const ownerOutcome = row.expect[ACTORS.indexOf('owner')];
      if (scope === 'personal') {
        const everything = await freshApiKey(API_KEY_SCOPES);
        const res = await sendRoute(key, row, everything.key);
        expect(res.statusCode, res.body).toBe(403);
        expect(res.json().message).toBe(integrationMessages.notForApiKeys);
        return;
      }
      const needed: ApiKeyScope[] = scope === 'any' ? [] : [scope];
      const only = await freshApiKey(scope === 'any' ? ['users:read'] : [scope]);
      expect(await callRoute(key, row, 'owner', only.key)).toBe(ownerOutcome);
      if (scope === 'any') return;
      const allBut = await freshApiKey(API_KEY_SCOPES.filter((other) => !needed.includes(other)));
      const refused = await sendRoute(key, row, allBut.key);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.json().message).toBe(integrationMessages.lacksScope(scope));
    });
  }
});
