import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import { DEFAULT_PASSWORD } from '../factories';
import type { ActorName } from './world';
import {
  A,
  address,
  bannerDesign,
  database,
  emailToken,
  freshAgent,
  freshApiKeyId,
  freshBanner,
  freshCompliantDeal,
  freshDeal,
  freshDealAwaitingReview,
  freshDealWithWaiver,
  freshLibraryItem,
  freshTemplate,
  freshWebhook,
  freshWebhookDelivery,
  NEW_PASSWORD,
  newDeal,
  newUser,
  packet,
  paging,
  passwordChange,
  pendingAgent,
  profileOfA,
  refreshToken,
  registration,
  TUTORIAL_LINK,
  unique,
  unsubscribeTokenOfA,
  unverifiedAgent,
  uploadedBy,
  WEBHOOK_URL,
  world,
} from './world';

/**
 * The reviewed table of the authorization matrix: what each of the nine actors gets from every
 * procedure and every route, written from the intended policy (the product's access rules), not
 * from the code's answers:
 * - anonymous callers get 401 from everything but the public sign-in paths, health and docs;
 * - admin paths are 403 for agents (coordinators too: they never review), owner paths 403 for
 *   everyone but the owner;
 * - a path naming another user's id is 403 (decided before any lookup), an admin excepted;
 * - another agent's object behind an id is 404, so an id reveals nothing; admins reach any
 *   transaction, also through the agent paths; banners are private even from admins;
 * - a body `user` naming someone else is 403, for admins too: nobody opens a deal in another's name;
 * - an office admin is an admin for its office's users and records, and the brokerage's settings
 *   (templates, libraries, rejection reasons, webhooks, offices) are not its to change (403);
 *   a transaction, form, user, key or office of another office is 404 for it, never 403;
 * - a coordinator works on its agents' transactions as they could, also through the paths that
 *   name the agent's id; what is personal to the agent (profile, password, notifications) stays
 *   the agent's.
 *
 * The target of every row belongs to agent A, in office North (A's transaction, A's banner, A's
 * id in the path), so agent B's column is the cross-tenant one, the other office admin's the
 * cross-office one. Every cell sends a valid input, so authorization alone decides; rows whose
 * call changes or deletes something get a fresh target per cell.
 */

/** 'ok' is any 2xx; the numbers are the exact status expected. */
export type Outcome = 'ok' | 302 | 303 | 401 | 403 | 404;
/** One outcome per actor, in the order of ACTORS. */
export type Expected = readonly [
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
  Outcome,
];
export const OK = 'ok' as const;

type Derived = 'officeAdminOwn' | 'officeAdminOther' | 'coordinatorOwn' | 'coordinatorOther';
/**
 * A row's nine outcomes from the five of the base actors: an office admin gets what the admin
 * gets, a coordinator what the agent it works for gets (the own coordinator A's, the other B's),
 * unless `differ` says otherwise.
 */
function rule(
  [anonymous, agentA, agentB, admin, owner]: readonly [Outcome, Outcome, Outcome, Outcome, Outcome],
  differ: Partial<Record<Derived, Outcome>> = {},
): Expected {
  return [
    anonymous,
    agentA,
    agentB,
    admin,
    owner,
    differ.officeAdminOwn ?? admin,
    differ.officeAdminOther ?? admin,
    differ.coordinatorOwn ?? agentA,
    differ.coordinatorOther ?? agentB,
  ];
}
export const uniform = (outcome: Outcome): Expected => rule([outcome, outcome, outcome, outcome, outcome]);

/** North's record, seen from South: not there. */
const CROSS_OFFICE = { officeAdminOther: 404 } as const;
/** What no office admin may do: the brokerage's own settings. */
const BROKERAGE_ONLY = { officeAdminOwn: 403, officeAdminOther: 403 } as const;

//                                  [anonymous, agentA, agentB, admin, owner]
const PUBLIC = uniform(OK);
const ANY_USER = rule([401, OK, OK, OK, OK]);
/** Lists and reads of the desk: an office admin's are of its office. */
const ADMINS = rule([401, 403, 403, OK, OK]);
/** The desk acting on a record of North (A's transaction, a North agent, a North key). */
const ADMINS_ON_NORTH = rule([401, 403, 403, OK, OK], CROSS_OFFICE);
/** The brokerage's settings: brokerage-wide admins only. */
const BROKERAGE = rule([401, 403, 403, OK, OK], BROKERAGE_ONLY);
const OWNER = rule([401, 403, 403, 403, OK]);
/** A's transactions through the paths naming A's id: A, A's coordinator, the admins reaching A. */
const DEALS_OF_A = rule([401, OK, 403, OK, OK], CROSS_OFFICE);
/** A's transactions by their own id: anyone else finds nothing there. */
const A_OR_ADMINS_BY_ID = rule([401, OK, 404, OK, OK], CROSS_OFFICE);
/** What is personal to A (profile, notifications, their settings): A and the admins reaching A. */
const PERSONAL_OF_A = rule([401, OK, 403, OK, OK], { ...CROSS_OFFICE, coordinatorOwn: 403 });
/** Needs A's own current password: nobody else, decided before any lookup. */
const ONLY_A = rule([401, OK, 403, 403, 403], { coordinatorOwn: 403 });
/** A deal opened in A's name: A, or A's coordinator for A. */
const OPEN_FOR_A = rule([401, OK, 403, 403, 403]);
const PRIVATE_TO_A = rule([401, OK, 404, 404, 404], { coordinatorOwn: 404 });

// --- tRPC procedures ---

export type ProcedureRow = {
  expect: Expected;
  input?: (actor: ActorName) => unknown;
  /**
   * The route that carries the procedure's input, when JSON cannot: an upload's input holds the
   * body's file, which only its multipart route hands over, so the cell calls the procedure there.
   */
  via?: string;
};

export const PROCEDURES: Record<string, ProcedureRow> = {
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
  'settings.getUser': { expect: PERSONAL_OF_A, input: () => ({ userId: A().id }) },
  'settings.updateUser': { expect: PERSONAL_OF_A, input: () => ({ userId: A().id, ...profileOfA() }) },
  // Needs the current password, which nobody but A should know: admins too are refused.
  'settings.changePassword': { expect: ONLY_A, input: () => ({ userId: A().id, ...passwordChange }) },

  'users.list': { expect: ADMINS, input: () => paging },
  'users.activate': { expect: ADMINS_ON_NORTH, input: async () => ({ id: (await pendingAgent()).id }) },
  'users.create': { expect: ADMINS_ON_NORTH, input: newUser },
  'users.deactivate': { expect: ADMINS_ON_NORTH, input: async () => ({ id: (await freshAgent()).id }) },

  // The Create Transaction dialog needs every template; the template admin page is for admins.
  'templates.all': { expect: ANY_USER },
  'templates.list': { expect: ADMINS, input: () => paging },
  'templates.search': { expect: ADMINS, input: () => ({ ...paging, query: 'Listing' }) },
  'templates.create': {
    expect: OWNER,
    input: () => ({ type: `Matrix-${unique()}`, role: 'Seller', forms: ['Listing Agreement'] }),
  },
  'templates.update': {
    expect: BROKERAGE,
    input: async () => {
      const template = await freshTemplate();
      return { id: template.id, type: template.type, role: template.role, forms: ['Disclosure'] };
    },
  },
  'templates.delete': { expect: BROKERAGE, input: async () => ({ id: (await freshTemplate()).id }) },

  // The agent paths name A: B is refused before any lookup, admins may use them.
  'transactions.list': { expect: DEALS_OF_A, input: () => ({ userId: A().id, ...paging }) },
  'transactions.search': {
    expect: DEALS_OF_A,
    input: () => ({ userId: A().id, term: 'harbor', ...paging }),
  },
  // Opening a deal in A's name: only A, admins included (a body `user` naming someone else is
  // 403: nobody opens a deal in another's name).
  'transactions.create': { expect: OPEN_FOR_A, input: newDeal },
  'transactions.get': { expect: DEALS_OF_A, input: () => ({ id: world.deal.id, userId: A().id }) },
  'transactions.update': {
    expect: DEALS_OF_A,
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
  'adminTransactions.get': { expect: ADMINS_ON_NORTH, input: () => ({ id: world.deal.id }) },
  'adminTransactions.update': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshDeal()).id, ...address, isTitleReport: true }),
  },
  'adminTransactions.delete': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshDeal()).id }),
  },
  'adminTransactions.review': {
    expect: ADMINS_ON_NORTH,
    input: async () => {
      const deal = await freshDealAwaitingReview();
      return { id: deal.id, formId: deal.formId, status: 'accepted', text: 'Looks complete' };
    },
  },
  'adminTransactions.history': { expect: ADMINS_ON_NORTH, input: () => ({ id: world.deal.id }) },
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
    expect: ADMINS_ON_NORTH,
    input: async () => {
      const deal = await freshDealWithWaiver();
      return { id: deal.id, formId: deal.formId, approve: true, text: 'Agreed' };
    },
  },
  'adminTransactions.close': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshCompliantDeal()).id }),
  },
  'adminTransactions.reopen': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshCompliantDeal({ closed: true })).id }),
  },
  'reviewQueue.list': { expect: ADMINS, input: () => paging },
  'reviewQueue.bulkAccept': {
    expect: ADMINS_ON_NORTH,
    input: async () => {
      const deal = await freshDealAwaitingReview();
      return { items: [{ transactionId: deal.id, formId: deal.formId }] };
    },
  },
  'rejectionReasons.list': { expect: ADMINS },
  'rejectionReasons.create': { expect: BROKERAGE, input: () => ({ label: `Matrix reason ${unique()}` }) },
  'rejectionReasons.update': {
    expect: BROKERAGE,
    input: () => ({ code: 'missing-signature', label: 'Missing signature', active: true }),
  },

  // API keys: admins keep them; what a key itself may call is checked per scope below.
  'apiKeys.list': { expect: ADMINS },
  'apiKeys.create': { expect: ADMINS, input: () => ({ name: `Matrix ${unique()}`, scopes: ['users:read'] }) },
  'apiKeys.revoke': { expect: ADMINS_ON_NORTH, input: async () => ({ id: await freshApiKeyId() }) },

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
  'notificationSettings.get': { expect: PERSONAL_OF_A, input: () => ({ userId: A().id }) },
  'notificationSettings.update': {
    expect: PERSONAL_OF_A,
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

  'notifications.list': { expect: PERSONAL_OF_A, input: () => ({ userId: A().id, ...paging }) },
  'notifications.markAllRead': { expect: PERSONAL_OF_A, input: () => ({ userId: A().id }) },
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

  // Webhooks send the whole brokerage's events: brokerage-wide admins only.
  'webhooks.list': { expect: BROKERAGE },
  'webhooks.create': {
    expect: BROKERAGE,
    input: () => ({ url: WEBHOOK_URL, events: ['transaction.created'] }),
  },
  'webhooks.update': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook(), active: false }) },
  'webhooks.delete': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook() }) },
  'webhooks.deliveries': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook(), ...paging }) },
  'webhooks.retry': { expect: BROKERAGE, input: freshWebhookDelivery },
  'webhooks.test': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook() }) },
};

// --- The reviewed table: HTTP routes (every one the app registers but /trpc) ---

/** `upload`: a multipart body with a tiny PDF (true) or a photo ('photo') in its `file` part. */
type RouteRequest = { url: string; payload?: unknown; upload?: true | 'photo' };
export type RouteRow = {
  expect: Expected;
  request: (actor: ActorName) => RouteRequest | Promise<RouteRequest>;
};

const get = (url: string) => () => ({ url });
const TEMPLATES = '/api/admin/forms/transactions';

export const ROUTES: Record<string, RouteRow> = {
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
    expect: PERSONAL_OF_A,
    request: () => ({ url: `/api/settings/getUser/${A().id}` }),
  },
  'PUT /api/settings/updateUser/:userId': {
    expect: PERSONAL_OF_A,
    request: () => ({ url: `/api/settings/updateUser/${A().id}`, payload: profileOfA() }),
  },
  'POST /api/settings/changePassword/:userId': {
    expect: ONLY_A,
    request: () => ({ url: `/api/settings/changePassword/${A().id}`, payload: passwordChange }),
  },

  'GET /api/users': { expect: ADMINS, request: get('/api/users?page=1&limit=10&query=agent') },
  'POST /api/users': { expect: ADMINS_ON_NORTH, request: () => ({ url: '/api/users', payload: newUser() }) },
  'GET /api/users/activate/:id': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({ url: `/api/users/activate/${(await pendingAgent()).id}` }),
  },
  'GET /api/users/deactivated/:id': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({ url: `/api/users/deactivated/${(await freshAgent()).id}` }),
  },

  'GET /api/transactions/:userId': {
    expect: DEALS_OF_A,
    request: () => ({ url: `/api/transactions/${A().id}?page=1&limit=10` }),
  },
  'GET /api/transactions/search/:userId/:term': {
    expect: DEALS_OF_A,
    request: () => ({ url: `/api/transactions/search/${A().id}/harbor` }),
  },
  'POST /api/transactions': {
    expect: OPEN_FOR_A,
    request: (actor) => ({ url: '/api/transactions', payload: newDeal(actor) }),
  },
  'GET /api/transactions/individual/:id/:userId': {
    expect: DEALS_OF_A,
    request: () => ({ url: `/api/transactions/individual/${world.deal.id}/${A().id}` }),
  },
  'PUT /api/transactions/:id/:userId': {
    expect: DEALS_OF_A,
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
    expect: ADMINS_ON_NORTH,
    request: () => ({ url: `/api/admin/transactions/individual/${world.deal.id}` }),
  },
  'PUT /api/admin/transactions/:id': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({
      url: `/api/admin/transactions/${(await freshDeal()).id}`,
      payload: { ...address, isNaturalHazardDisclosure: true },
    }),
  },
  'DELETE /api/admin/transactions/:id': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({ url: `/api/admin/transactions/${(await freshDeal()).id}` }),
  },
  'POST /api/admin/transactions/:id/forms/:formId/comments': {
    expect: ADMINS_ON_NORTH,
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
    expect: ADMINS_ON_NORTH,
    request: async () => {
      const deal = await freshDealWithWaiver();
      return {
        url: `/api/admin/transactions/${deal.id}/forms/${deal.formId}/waiver`,
        payload: { approve: false, text: 'The disclosure applies' },
      };
    },
  },
  'POST /api/admin/transactions/:id/close': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({ url: `/api/admin/transactions/${(await freshCompliantDeal()).id}/close` }),
  },
  'POST /api/admin/transactions/:id/reopen': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({
      url: `/api/admin/transactions/${(await freshCompliantDeal({ closed: true })).id}/reopen`,
    }),
  },
  'GET /api/admin/review-queue': { expect: ADMINS, request: get('/api/admin/review-queue?page=1&limit=10') },
  'POST /api/admin/review': {
    expect: ADMINS_ON_NORTH,
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
    expect: BROKERAGE,
    request: () => ({ url: '/api/admin/rejection-reasons', payload: { label: `Matrix reason ${unique()}` } }),
  },
  'PUT /api/admin/rejection-reasons/:code': {
    expect: BROKERAGE,
    request: () => ({ url: '/api/admin/rejection-reasons/missing-initials', payload: { active: true } }),
  },
  'GET /api/admin/transactions/:id/history': {
    expect: ADMINS_ON_NORTH,
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
    expect: BROKERAGE,
    request: async () => {
      const template = await freshTemplate();
      return {
        url: `${TEMPLATES}/form/${template.id}`,
        payload: { type: template.type, role: template.role, forms: ['Disclosure'] },
      };
    },
  },
  [`DELETE ${TEMPLATES}/form/:id`]: {
    expect: BROKERAGE,
    request: async () => ({ url: `${TEMPLATES}/form/${(await freshTemplate()).id}` }),
  },

  'GET /api/notifications/:userId': {
    expect: PERSONAL_OF_A,
    request: () => ({ url: `/api/notifications/${A().id}` }),
  },
  'POST /api/notifications/:userId/read': {
    expect: PERSONAL_OF_A,
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
    expect: ADMINS_ON_NORTH,
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
    expect: PERSONAL_OF_A,
    request: () => ({ url: `/api/settings/notifications/${A().id}` }),
  },
  'PUT /api/settings/notifications/:userId': {
    expect: PERSONAL_OF_A,
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
    expect: uniform(303),
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

  'GET /api/admin/webhooks': { expect: BROKERAGE, request: get('/api/admin/webhooks') },
  'POST /api/admin/webhooks': {
    expect: BROKERAGE,
    request: () => ({
      url: '/api/admin/webhooks',
      payload: { url: WEBHOOK_URL, events: ['user.registered'] },
    }),
  },
  'PUT /api/admin/webhooks/:id': {
    expect: BROKERAGE,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}`, payload: { active: false } }),
  },
  'DELETE /api/admin/webhooks/:id': {
    expect: BROKERAGE,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}` }),
  },
  'GET /api/admin/webhooks/:id/deliveries': {
    expect: BROKERAGE,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}/deliveries?page=1&limit=10` }),
  },
  'POST /api/admin/webhooks/:id/deliveries/:deliveryId/retry': {
    expect: BROKERAGE,
    request: async () => {
      const { id, deliveryId } = await freshWebhookDelivery();
      return { url: `/api/admin/webhooks/${id}/deliveries/${deliveryId}/retry`, payload: {} };
    },
  },
  'POST /api/admin/webhooks/:id/test': {
    expect: BROKERAGE,
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
  'GET /metrics': { expect: uniform(401), request: get('/metrics') },
  'GET /api/openapi.json': { expect: PUBLIC, request: get('/api/openapi.json') },
  'GET /api/docs': { expect: PUBLIC, request: get('/api/docs') },
  'GET /api/docs/json': { expect: PUBLIC, request: get('/api/docs/json') },
  'GET /api/docs/yaml': { expect: PUBLIC, request: get('/api/docs/yaml') },
  // Swagger UI sends its own index page on to /api/docs/, for everyone alike.
  'GET /api/docs/static/index.html': {
    expect: uniform(302),
    request: get('/api/docs/static/index.html'),
  },
  'GET /api/docs/static/swagger-initializer.js': {
    expect: PUBLIC,
    request: get('/api/docs/static/swagger-initializer.js'),
  },
  'GET /api/docs/static/*': { expect: PUBLIC, request: get('/api/docs/static/swagger-ui.css') },
};

/** The multipart routes call one procedure each, which decides before a byte is read (server/plugins/uploads.ts). */
export const UPLOAD_ROUTE_PROCEDURES: Record<string, string> = {
  'POST /api/uploads/transactions/:id': 'uploads.transactionDocument',
  'POST /api/uploads/transactions/:id/images': 'uploads.transactionPhotos',
  'POST /api/uploads/forms': 'uploads.libraryForm',
};
/** The CSV exports likewise call one procedure each before sending a byte (server/plugins/exports.ts). */
export const EXPORT_ROUTE_PROCEDURES: Record<string, string> = {
  'GET /api/admin/transactions.csv': 'exports.transactions',
  'GET /api/admin/review-queue.csv': 'exports.reviewQueue',
  'GET /api/users.csv': 'exports.users',
};
