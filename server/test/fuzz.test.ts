import { readdirSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from '../../shared/schemas/api-keys';
import { API_ERROR_IDS, apiError } from '../../shared/schemas/common';
import { isCalendarDay } from '../../shared/schemas/key-dates';
import type { AppDeps } from '../deps';
import type { NotificationBus } from '../realtime/bus';
import { type RestRoute, restRoutesOf } from '../rest/routes';
import { hashApiKeySecret, newApiKey } from '../security/api-keys';
import { hashSecretToken, newSecretToken } from '../security/secret-tokens';
import { hashOfToken, newSigningToken } from '../services/esign/mailing';
import { unsubscribeToken } from '../services/notification-routing';
import { webhookBody } from '../services/webhooks/events';
import { libraryFileKey, transactionFileKey } from '../storage/keys';
import type { Access } from '../trpc/init';
import { accessOf } from '../trpc/init';
import { inputSchemaOf, proceduresOf, procedureTypeOf } from '../trpc/internals';
import { appRouter } from '../trpc/router';
import { TINY_PDF } from './api-calls';
import { runSql } from './databases';
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
import { fuzzPasskeys, type PasskeySamples } from './fuzz-passkeys';
import { buildTestApp, setupTestDatabase, TEST_DATA_DIR, TestClock, testConfig, testDeps } from './harness';
import {
  badCdaOverride,
  badGrossCommission,
  badPaidAt,
  badPlan,
  badRateCommission,
} from './hostile-commission';
import { badSignature, badSignatureRequest } from './hostile-esign';
import { badFacts, plainText } from './hostile-facts';
import {
  hostileQuery,
  hostileSegment,
  hostileString,
  JSON_CONTENT_TYPES,
  jsonBodyText,
  multipartBody,
  multipartPayload,
  mutatedInput,
  ODD_CONTENT_TYPES,
  oversizedJson,
  POLLUTION_PROBES,
  percentEncode,
  setOwn,
  toJsonText,
} from './hostile-inputs';
import { hostilePasskeyAnswer, passkeyPools } from './hostile-passkeys';
import { badRules } from './hostile-rules';
import { bombPdf, encryptedPdf, pdfOf, photoJpeg, truncated } from './intake-files';
import { captureLogs } from './log-capture';
import { guardPrototypes, type PrototypeGuard } from './prototype-guard';
import { type ChangeCounter, installChangeCounter, UNWATCHED_TABLES } from './row-changes';
import { zipOf } from './zip-files';

/**
 * Fuzzing of the whole HTTP surface: every procedure's REST path, both upload
 * routes, the signed file links and every tRPC procedure over /trpc, with valid inputs bent into
 * wrong types, huge and exotic strings, prototype-pollution keys, deep JSON, hostile path
 * segments, odd query strings, content types and multipart bodies. Whatever arrives:
 * - never a 5xx;
 * - a 4xx changed no row (a trigger on every table counts committed row changes), and a refused
 *   upload left no file behind; a REST 4xx has the documented error body. Every table is watched
 *   but the auth rate limits' counters (rate_limit_windows), whose job is to count refused
 *   attempts too; audit rows come only with a change that succeeded;
 * - the shared prototypes are untouched (checked every 100 cases and after each family).
 * Routes and procedures are read from appRouter (restRoutesOf) at run time, so new ones are
 * fuzzed without touching this file. FUZZ_SEED=<n> repeats a run; FUZZ_RUNS=<n> makes it larger
 * (never below the 1,000 cases a family that REQUIRED_CASES asks).
 */

const SEED = Number.parseInt(process.env.FUZZ_SEED ?? '', 10) || Math.floor(Math.random() * 2 ** 31);
const RUNS_PER_FAMILY = Number.parseInt(process.env.FUZZ_RUNS ?? '', 10) || 1000;
/** At least this many cases per route family, however small FUZZ_RUNS is set. */
const REQUIRED_CASES = 1000;
/** A family of many targets (tRPC's 50-odd procedures) runs longer, so each gets a fair share. */
const RUNS_PER_TARGET = 20;
const MAX_UPLOAD_BYTES = 96 * 1024;
/** Set, so that /metrics exists; no case sends it as a bearer token, so none may open it. */
const METRICS_TOKEN = 'fuzz-metrics-token-0123456789abcdef0123456789';
const GUARD_EVERY = 100;
/** Every procedure by its path, as tRPC's HTTP handler finds them. */
const ALL_PROCEDURES = proceduresOf(appRouter);

const database = setupTestDatabase();
let app: FastifyInstance;
let deps: AppDeps;
let clock: TestClock;
let counter: ChangeCounter;
let guard: PrototypeGuard;
let world: World;
/** http://127.0.0.1:<port> of the same app, for the few cases inject cannot carry faithfully. */
let networkBase: string;
/** The server's error log: a failing case quotes what the server logged about it. */
const serverLog = captureLogs({ level: 'error' });

// ---------------------------------------------------------------------------------------------
// Who calls

type UserRow = {
  id: string;
  email: string;
  role: 'user' | 'admin';
  tokenVersion: number;
  passwordHash: string;
};
const SIGNED_IN = ['agent', 'otherAgent', 'admin', 'owner'] as const;
type SignedIn = (typeof SIGNED_IN)[number];
type ActorName = SignedIn | 'anonymous' | 'badToken' | 'apiKey';
/** `idempotencyKey`: an Idempotency-Key header sent with the call (which makes a retry safe), hostile ones too. */
type Actor = { name: ActorName; badToken: number; idempotencyKey?: string | undefined };

const users = {} as Record<SignedIn, UserRow>;
const tokens = {} as Record<SignedIn, string>;
let badAuthorizations: string[] = [];
/** An API key of the owner's holding every scope. */
let apiKeyToken = '';

function authorization(actor: Actor): Record<string, string> {
  const headers = bearerOf(actor);
  if (actor.idempotencyKey !== undefined) headers['idempotency-key'] = actor.idempotencyKey;
  return headers;
}

function bearerOf(actor: Actor): Record<string, string> {
  if (actor.name === 'anonymous') return {};
  if (actor.name === 'apiKey') return { authorization: `Bearer ${apiKeyToken}` };
  if (actor.name === 'badToken') {
    return { authorization: badAuthorizations[actor.badToken % badAuthorizations.length] ?? '' };
  }
  return { authorization: `Bearer ${tokens[actor.name]}` };
}

/** Mostly whoever the procedure is meant for, so validation and the services are reached. */
function actorFor(access: Access): fc.Arbitrary<Actor> {
  const natural: Record<Access, ActorName[]> = {
    public: ['anonymous', 'agent'],
    user: ['agent', 'agent', 'agent', 'admin'],
    admin: ['admin', 'admin', 'owner'],
    owner: ['owner'],
  };
  const name = fc.oneof(
    { weight: 14, arbitrary: fc.constantFrom(...natural[access]) },
    { weight: 2, arbitrary: fc.constant<ActorName>('anonymous') },
    { weight: 2, arbitrary: fc.constantFrom<ActorName>('otherAgent', 'agent', 'admin') },
    { weight: 2, arbitrary: fc.constant<ActorName>('badToken') },
    { weight: 2, arbitrary: fc.constant<ActorName>('apiKey') },
  );
  return fc.record({ name, badToken: fc.nat(), idempotencyKey: idempotencyKeyArb });
}

/** Mostly none; else a plausible key (repeats across cases: replays and 422s) or a hostile one. */
const idempotencyKeyArb = fc.option(
  fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('fuzz-key-1', 'fuzz-key-2', 'x') },
    {
      weight: 2,
      arbitrary: fc
        .string({ unit: 'binary-ascii', maxLength: 300 })
        .map((k) => k.replace(/[^\x20-\x7e]/g, '')),
    },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', 'caf\u00e9', 'k'.repeat(256), 'k'.repeat(255)) },
  ),
  { freq: 4, nil: undefined },
);

/**
 * Rate limits count per address (20 registrations an hour, 100 sign-ins per 15 min): spreading
 * the cases over 64 addresses keeps most of them reaching the services; 429 still happens.
 */
const remoteAddress = fc.tuple(fc.nat(7), fc.nat(7)).map(([a, b]) => `10.8.${a}.${b}`);

/**
 * After a call that wrote something, the actors are made whole again: a deactivation, a password
 * change or a soft delete that the fuzzer managed to make must not turn every later case into a
 * 401 or 404. Runs outside the measured window of any case.
 */
async function restoreWorld(): Promise<void> {
  const ids = SIGNED_IN.map((name) => users[name].id);
  const hashes = SIGNED_IN.map((name) => users[name].passwordHash);
  // One round trip: it runs after every case that wrote, a quarter of them.
  const rows = await deps.db.$queryRaw<Array<{ id: string; token_version: number }>>`
    WITH approved AS (
      UPDATE users SET is_admin_approved = true, password_hash = given.hash
      FROM unnest(${ids}::uuid[], ${hashes}::text[]) AS given(id, hash)
      WHERE users.id = given.id AND (NOT users.is_admin_approved OR users.password_hash <> given.hash)
      RETURNING users.id
    ), undeleted AS (
      -- Deleted or closed, the world's transaction would turn later cases into 404s or 409s.
      UPDATE transactions SET deleted_at = NULL, closed_at = NULL
      WHERE id = ${world.transaction.id}::uuid AND (deleted_at IS NOT NULL OR closed_at IS NOT NULL)
      RETURNING id
    )
    SELECT id::text AS id, token_version FROM users WHERE id = ANY(${ids}::uuid[])`;
  for (const name of SIGNED_IN) {
    const user = users[name];
    const tokenVersion = rows.find((row) => row.id === user.id)?.token_version ?? user.tokenVersion;
    if (tokenVersion !== user.tokenVersion) {
      user.tokenVersion = tokenVersion;
      tokens[name] = await accessTokenFor(user, { now: clock.now() });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The objects the valid inputs point at

type World = {
  victimId: string;
  /** An office to change, one to delete, and an agent to make a coordinator. */
  officeId: string;
  doomedOfficeId: string;
  coordinatorId: string;
  /** A commission plan to change and to give a user. */
  planId: string;
  /** An issued CDA of `transaction`, to pay. */
  cdaId: string;
  template: { type: string; role: string };
  spareTemplateId: string;
  doomedTemplateId: string;
  transaction: { id: string; formIds: string[] };
  doomedTransactionId: string;
  transactionFileKey: string;
  libraryFileKey: string;
  libraryFormId: string;
  doomedLibraryFormId: string;
  tutorialId: string;
  doomedTutorialId: string;
  bannerId: string;
  doomedBannerId: string;
  notificationId: string;
  /** A stored two-page PDF of `transaction`: the packet the split route cuts. */
  packetKey: string;
  /** /files/<key>?exp=&sig= of a stored file, and its bytes. */
  fileLink: string;
  fileBytes: Buffer;
  /** The signed token of a mail's unsubscribe link, and the agent's calendar feed secret. */
  unsubscribeToken: string;
  /** A key that apiKeys.revoke may revoke (not the one the 'apiKey' actor calls with). */
  apiKeyId: string;
  feedToken: string;
  /** A webhook endpoint and one of its deliveries. */
  webhookId: string;
  webhookDeliveryId: string;
  /** An item of `transaction` whose current file is the two-page packet, and a request sent on it. */
  signature: { formId: string; requestId: string; token: string; fieldId: string };
  /** A passkey of the agent's, and well-formed passkey answers to challenges never handed out. */
  passkeys: PasskeySamples;
};

const TUTORIAL_LINK = 'https://example.com/tutorials/closing';
const FUZZ_PLAN = { name: 'Fuzz plan', agentSplit: 70, capCents: 1_800_000, transactionFeeCents: 39_500 };

/** A valid input for each procedure (by path); the fuzzer starts from these and bends them. */
function validInputs(w: World): Record<string, unknown> {
  const agentId = users.agent.id;
  const address = { streetAddress: '12 Harbor Lane', city: 'Portland', state: 'ME', zip: '04101' };
  const paging = { page: 1, limit: 10 };
  const token = 'A'.repeat(43);
  const passwords = { password: DEFAULT_PASSWORD, confirmPassword: DEFAULT_PASSWORD };
  const transactionId = w.transaction.id;
  const [firstFormId, secondFormId, thirdFormId] = w.transaction.formIds;
  return {
    'auth.register': {
      firstName: 'Fuzz',
      lastName: 'Tester',
      company: 'Acme Realty',
      email: 'fuzz.registrant@example.com',
      phoneNumber: '+1 555 010 0000',
      ...passwords,
    },
    'auth.verifyEmail': { token },
    'auth.resendVerification': { email: users.agent.email },
    'auth.login': { email: users.agent.email, password: DEFAULT_PASSWORD },
    'auth.refresh': { refreshToken: token },
    'auth.logout': { refreshToken: token },
    'auth.requestPasswordReset': { email: users.agent.email },
    'auth.confirmPasswordReset': { token, ...passwords },
    'oidc.exchange': { code: token },
    'twoFactor.totpEnable': { code: '123456' },
    'twoFactor.totpDisable': { password: DEFAULT_PASSWORD },
    'twoFactor.verify': { challenge: token, code: '123456' },
    'adminSecurity.update': { requireTwoFactorForAdmins: false },
    'settings.getUser': { userId: agentId },
    'settings.updateUser': {
      userId: agentId,
      firstName: 'Alice',
      lastName: 'Agent',
      company: 'Acme Realty',
      phoneNumber: '+1 555 010 0000',
    },
    'settings.changePassword': { userId: agentId, currentPassword: DEFAULT_PASSWORD, ...passwords },
    'users.list': { ...paging, query: 'agent' },
    'users.activate': { id: w.victimId },
    'users.deactivate': { id: w.victimId },
    'users.update': {
      id: w.coordinatorId,
      officeId: w.officeId,
      coordinatesFor: [agentId],
      commissionPlanId: w.planId,
    },
    'commission.createPlan': { ...FUZZ_PLAN, name: 'Fuzz plan created' },
    'commission.updatePlan': { id: w.planId, ...FUZZ_PLAN },
    'commission.setForTransaction': {
      id: transactionId,
      grossCommissionCents: 1_250_000,
      referral: { name: 'Harbor Referrals LLC', percent: 25 },
    },
    'commission.issueCda': { id: transactionId, override: { reason: 'Title confirmed the disclosure' } },
    'commission.listCdas': { id: transactionId },
    'commission.markCdaPaid': { id: transactionId, cdaId: w.cdaId, paidAt: '2026-11-21T11:00:00.000Z' },
    'offices.create': { name: 'Fuzz Office', reviewTargetHours: 24, retentionYears: 7 },
    'offices.update': { id: w.officeId, name: 'Fuzz North', reviewTargetHours: 12 },
    'offices.delete': { id: w.doomedOfficeId },
    'users.create': {
      firstName: 'Newton',
      lastName: 'User',
      email: 'fuzz.created@example.com',
      phoneNumber: '555-010-0000',
      company: 'Acme Realty',
      password: DEFAULT_PASSWORD,
      role: 'user',
    },
    'templates.list': paging,
    'templates.search': { ...paging, query: 'Fuzz' },
    'templates.create': { type: 'FuzzCreated', role: 'Seller', forms: ['Listing Agreement'] },
    'templates.update': { id: w.spareTemplateId, type: 'FuzzSpare', role: 'Buyer', forms: ['A', 'B'] },
    'templates.delete': { id: w.doomedTemplateId },
    'transactions.list': { userId: agentId, ...paging },
    'transactions.search': { userId: agentId, term: 'Main', ...paging },
    'transactions.get': { id: transactionId, userId: agentId },
    'transactions.create': { ...address, ...w.template },
    'transactions.update': { id: transactionId, userId: agentId, ...address },
    'transactions.setFormFile': { id: transactionId, formId: firstFormId, url: w.transactionFileKey },
    'transactions.addComment': { id: transactionId, formId: firstFormId, text: 'Please sign page 2' },
    'adminTransactions.list': { ...paging, status: 'needs-review' },
    'adminTransactions.search': { term: 'Main', ...paging },
    'adminTransactions.get': { id: transactionId },
    'adminTransactions.history': { id: transactionId },
    'adminTransactions.update': {
      id: transactionId,
      ...address,
      isTransactionCoordinator: true,
      isTitleReport: false,
      isNaturalHazardDisclosure: true,
    },
    'adminTransactions.delete': { id: w.doomedTransactionId },
    'adminTransactions.review': { id: transactionId, formId: secondFormId, status: 'accepted', text: 'Fine' },
    'adminTransactions.decideWaiver': {
      id: transactionId,
      formId: thirdFormId,
      approve: true,
      text: 'Agreed',
    },
    'adminTransactions.legalHold': {
      id: transactionId,
      hold: true,
      reason: 'Subpoena from the county court',
    },
    'adminTransactions.close': { id: transactionId },
    'adminTransactions.reopen': { id: transactionId },
    'transactions.requestWaiver': { id: transactionId, formId: thirdFormId, reason: 'Not applicable' },
    'transactions.versions': { id: transactionId, formId: firstFormId },
    'reviewQueue.list': { ...paging, type: 'FuzzType', agentId },
    'reviewQueue.bulkAccept': { items: [{ transactionId, formId: secondFormId, version: 1 }] },
    'rejectionReasons.create': { label: 'Fuzz reason' },
    'apiKeys.create': {
      name: 'Fuzz integration',
      scopes: ['transactions:read'],
      expiresAt: '2030-01-01T00:00:00Z',
    },
    'apiKeys.revoke': { id: w.apiKeyId },
    'keyDates.list': { id: transactionId },
    'keyDates.replace': {
      id: transactionId,
      dates: [
        { kind: 'inspection', date: '2027-01-05' },
        { kind: 'custom', label: 'Final walkthrough', date: '2027-01-20', done: false },
      ],
    },
    'calendar.list': { from: '2026-11-01', to: '2026-12-31', agentId },
    'dashboard.figures': { from: '2026-11-01', to: '2026-11-30' },
    'exports.transactions': { status: 'needs-review', query: 'Main' },
    'exports.reviewQueue': { type: 'FuzzType', agentId },
    'exports.users': { query: 'agent' },
    'exports.payouts': { from: '2026-11-01', to: '2026-11-30' },
    'exports.audit': { action: 'form.review', from: '2026-11-01', to: '2026-11-30T12:00:00Z' },
    'notificationSettings.get': { userId: agentId },
    'notificationSettings.update': {
      userId: agentId,
      timezone: 'Europe/Paris',
      reminderDays: [3, 1],
      events: { comment: 'email', keyDate: 'digest' },
    },
    'notificationSettings.detectTimezone': { timezone: 'Asia/Tokyo' },
    'notificationSettings.unsubscribe': { token: w.unsubscribeToken },
    'rejectionReasons.update': { code: 'missing-signature', label: 'Missing signature', active: true },
    // Over /trpc an upload's file cannot come (JSON carries no handle): these stop at validation
    // once the caller is known; the multipart routes, fuzzed on their own, carry the file.
    'uploads.transactionDocument': { id: transactionId },
    'uploads.transactionPhotos': { id: transactionId, name: 'Inspection' },
    'uploads.libraryForm': {},
    // Like the uploads: the verifier's zip comes only over multipart (its family below).
    'archives.status': { id: transactionId },
    'archives.verify': {},
    'transactions.split': {
      id: transactionId,
      key: w.packetKey,
      parts: [{ formId: thirdFormId, pages: '1' }],
    },
    'notifications.list': { userId: agentId, ...paging },
    'notifications.markAllRead': { userId: agentId },
    'notifications.onNotification': { lastEventId: w.notificationId },
    'libraries.forms.list': paging,
    'libraries.forms.search': { ...paging, query: 'Form' },
    'libraries.forms.create': { name: 'Disclosure', link: w.libraryFileKey },
    'libraries.forms.update': { id: w.libraryFormId, name: 'Disclosure v2', link: w.libraryFileKey },
    'libraries.forms.delete': { id: w.doomedLibraryFormId },
    'libraries.tutorials.list': paging,
    'libraries.tutorials.search': { ...paging, query: 'Closing' },
    'libraries.tutorials.create': { name: 'Closing day', link: TUTORIAL_LINK },
    'libraries.tutorials.update': { id: w.tutorialId, name: 'Closing day', link: TUTORIAL_LINK },
    'libraries.tutorials.delete': { id: w.doomedTutorialId },
    'banners.get': { id: w.bannerId },
    'banners.save': {
      id: w.bannerId,
      name: 'Open house',
      elements: [
        { type: 'rect', id: 'r1', x: 10, y: 20, width: 100, height: 50, fill: '#ff0000' },
        { type: 'text', id: 't1', x: 1, y: 2, text: 'Open house', fontSize: 24 },
      ],
    },
    'banners.delete': { id: w.doomedBannerId },
    'webhooks.create': { url: WEBHOOK_URL, events: ['transaction.created'], description: 'CRM' },
    'webhooks.update': { id: w.webhookId, url: WEBHOOK_URL, events: ['user.registered'], active: true },
    'webhooks.get': { id: w.webhookId },
    'webhooks.delete': { id: w.webhookId },
    'webhooks.deliveries': { id: w.webhookId, ...paging },
    'webhooks.retry': { id: w.webhookId, deliveryId: w.webhookDeliveryId },
    'webhooks.test': { id: w.webhookId },
    'webhooks.rotateSecret': { id: w.webhookId },
    'webhooks.events': {
      type: 'ping',
      limit: 20,
      after: `${Date.parse('2026-11-27T20:25:07.815Z')}-${w.webhookId}`,
    },
    'audit.list': {
      actorId: agentId,
      entity: 'Transaction',
      entityId: transactionId,
      action: 'transaction.create',
      transactionId,
      from: '2026-11-01',
      to: '2026-12-31T23:59:59.999Z',
      limit: 20,
    },
    'signatures.create': {
      id: transactionId,
      formId: w.signature.formId,
      subject: 'Purchase agreement',
      message: 'Please sign where marked.',
      signers: [{ name: 'Jordan Buyer', email: 'jordan.buyer@example.com' }],
      ordered: false,
      fields: [{ signer: 0, page: 2, kind: 'signature', x: 72, y: 600, width: 180, height: 36 }],
    },
    'signatures.list': { id: transactionId },
    'signatures.remind': { id: transactionId, reqId: w.signature.requestId },
    'signatures.void': { id: transactionId, reqId: w.signature.requestId, reason: 'Wrong version' },
    'signatures.view': { token: w.signature.token },
    'signatures.sign': {
      token: w.signature.token,
      consent: true,
      values: [{ fieldId: w.signature.fieldId, value: 'Jordan Buyer' }],
    },
    'signatures.decline': { token: w.signature.token, reason: 'The price is wrong' },
    'passkeys.registerVerify': { response: w.passkeys.registration, name: 'Fuzz laptop' },
    'passkeys.loginVerify': w.passkeys.login,
    'passkeys.rename': { id: w.passkeys.passkeyId, name: 'Fuzz phone' },
    'passkeys.remove': { id: w.passkeys.passkeyId, password: DEFAULT_PASSWORD },
  };
}

/** A public address literal: a valid webhook URL without DNS (no job engine runs here). */
const WEBHOOK_URL = 'https://93.184.216.34/hooks';

async function fuzzWebhook(db: typeof database.db) {
  const endpoint = await db.webhookEndpoint.create({
    data: { url: WEBHOOK_URL, events: ['transaction.created'], secretSealed: 'never-opened' },
  });
  // An event as a ping records it: the events list reads its body back.
  const at = new Date();
  const event = await db.webhookEvent.create({
    data: { type: 'ping', body: webhookBody('ping', at, { webhookId: endpoint.id }), createdAt: at },
  });
  const delivery = await db.webhookDelivery.create({ data: { endpointId: endpoint.id, eventId: event.id } });
  return { webhookId: endpoint.id, webhookDeliveryId: delivery.id };
}

/**
 * A fourth item of the transaction holding the two-page packet as its (accepted) current version,
 * and a request sent on it to one signer: its token (as mailed) and its one signature field.
 */
async function fuzzSignatureRequest(
  db: typeof database.db,
  transactionId: string,
  packetKey: string,
  size: number,
  agentId: string,
): Promise<World['signature']> {
  const form = await db.transactionForm.create({
    data: {
      transactionId,
      label: 'Signature Packet',
      position: 3,
      fileKey: packetKey,
      version: 1,
      status: 'accepted',
    },
  });
  const version = await db.formVersion.create({
    data: {
      formId: form.id,
      number: 1,
      fileKey: packetKey,
      size,
      contentType: 'application/pdf',
      pages: 2,
      uploadedAt: new Date('2026-11-20T12:00:00.000Z'),
    },
  });
  const token = newSigningToken();
  const request = await db.signatureRequest.create({
    data: {
      transactionId,
      formId: form.id,
      versionId: version.id,
      subject: 'Purchase agreement',
      documentSha256: '0'.repeat(64),
      createdBy: agentId,
      signers: {
        create: [
          {
            position: 0,
            name: 'Jordan Buyer',
            email: 'jordan.buyer@example.com',
            tokenHash: hashOfToken(token),
          },
        ],
      },
      fields: {
        create: [{ signerPosition: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 180, height: 36 }],
      },
    },
    select: { id: true, fields: { select: { id: true } } },
  });
  return { formId: form.id, requestId: request.id, token, fieldId: request.fields[0]?.id ?? '' };
}

/** A procedure without a sample (a new one) is still fuzzed, from no input: the mutations add fields. */
const proceduresWithoutSample = new Set<string>();
function sampleFor(procedurePath: string): unknown {
  const samples = validInputs(world);
  if (procedurePath in samples) return samples[procedurePath];
  const procedure = ALL_PROCEDURES.get(procedurePath);
  if (procedure && inputSchemaOf(procedure) !== undefined) proceduresWithoutSample.add(procedurePath);
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// One case: a request, and what must hold of its answer

class FuzzRequest {
  constructor(
    readonly target: string,
    readonly method: string,
    readonly url: string,
    readonly actor: Actor,
    readonly remoteAddress: string,
    readonly contentType: string | undefined,
    readonly payload: string | Buffer | undefined,
    readonly expect413 = false,
  ) {}

  /** How fast-check prints a counterexample: short enough to read, exact enough to replay. */
  [fc.toStringMethod](): string {
    const bytes = this.payload === undefined ? 0 : Buffer.byteLength(this.payload);
    const body =
      this.payload === undefined
        ? 'no body'
        : `body (${bytes} bytes, ${this.contentType ?? 'no content-type'}): ${preview(this.payload, 600)}`;
    const who = this.actor.name === 'badToken' ? `badToken#${this.actor.badToken}` : this.actor.name;
    const actor =
      this.actor.idempotencyKey === undefined
        ? who
        : `${who} with Idempotency-Key ${preview(this.actor.idempotencyKey, 60)}`;
    return `${this.method} ${preview(this.url, 600)} as ${actor} from ${this.remoteAddress}; ${body}`;
  }

  toString(): string {
    return this[fc.toStringMethod]();
  }
}

function preview(text: string | Buffer, max: number): string {
  const value = typeof text === 'string' ? text : `<bytes ${text.subarray(0, max).toString('hex')}>`;
  const cut = value.length > max ? `${value.slice(0, max)}…(+${value.length - max} chars)` : value;
  return JSON.stringify(cut);
}

type FamilyStats = { cases: number; perTarget: Map<string, number>; statuses: Map<number, number> };
const families = new Map<string, FamilyStats>();

function statsFor(family: string): FamilyStats {
  let stats = families.get(family);
  if (!stats) {
    stats = { cases: 0, perTarget: new Map(), statuses: new Map() };
    families.set(family, stats);
  }
  return stats;
}

type Checks = {
  /** Extra checks on the answer (the error body, the served file...); a string says what is wrong. */
  answer?: (response: Answer) => string | undefined;
  /** For tRPC answers: the status of each call inside (a batch, a stream). A case counts as
   * refused when they are all 4xx, and fails when one is a 5xx. */
  innerStatuses?: (body: string, contentType: string, status: number) => number[];
  /** Files a refused request must not leave behind. */
  filesIn?: string;
};

function fileCount(dir: string): number {
  try {
    return readdirSync(dir).length;
  } catch {
    return 0;
  }
}

type Answer = { statusCode: number; body: string; headers: Record<string, unknown> };

/**
 * Through app.inject, except multipart bodies to /trpc: tRPC hands a multipart request's stream to
 * its FormData parser only when it is a real IncomingMessage, and inject's request is not one (it
 * would fail inside tRPC with a 500 no real client can cause), so those go over a socket.
 */
async function send(request: FuzzRequest): Promise<Answer> {
  const headers = {
    ...authorization(request.actor),
    ...(request.contentType === undefined ? {} : { 'content-type': request.contentType }),
  };
  if (request.url.startsWith('/trpc/') && /^multipart\//i.test(request.contentType ?? '')) {
    const response = await fetch(`${networkBase}${request.url}`, {
      method: request.method,
      headers,
      ...(request.payload === undefined
        ? {}
        : { body: typeof request.payload === 'string' ? request.payload : new Uint8Array(request.payload) }),
    });
    return {
      statusCode: response.status,
      body: await response.text(),
      headers: Object.fromEntries(response.headers),
    };
  }
  return app.inject({
    method: request.method as 'GET',
    url: request.url,
    remoteAddress: request.remoteAddress,
    headers,
    ...(request.payload === undefined ? {} : { payload: request.payload }),
  });
}

/**
 * The change count after the previous case, which is this case's "before": one round trip per
 * case instead of two. Only cases and restoreWorld (which clears it) write in between, so a write
 * a previous request made after answering would be charged to the next case, never missed.
 */
let countAfterLastCase: number | undefined;

async function exercise(family: string, request: FuzzRequest, checks: Checks = {}): Promise<void> {
  const stats = statsFor(family);
  stats.cases += 1;
  stats.perTarget.set(request.target, (stats.perTarget.get(request.target) ?? 0) + 1);

  const filesBefore = checks.filesIn ? fileCount(checks.filesIn) : 0;
  const logLines = serverLog.lines.length;
  const before = countAfterLastCase ?? (await counter.read());
  const response = await send(request);
  const after = await counter.read();
  countAfterLastCase = after;
  const status = response.statusCode;
  stats.statuses.set(status, (stats.statuses.get(status) ?? 0) + 1);

  const contentType = String(response.headers['content-type'] ?? '');
  const inner = checks.innerStatuses?.(response.body, contentType, status) ?? [];
  const failed = (status >= 400 && status < 500) || (inner.length > 0 && inner.every((s) => s >= 400));
  const problems: string[] = [];
  if (status >= 500) problems.push(`answered ${status}`);
  for (const s of inner) if (s >= 500) problems.push(`a call inside answered ${s}`);
  if (request.expect413 && status !== 413) problems.push(`a body over 1 MiB answered ${status}, not 413`);
  if (failed && after !== before) problems.push(`a refused request changed ${after - before} row(s)`);
  if (failed && checks.filesIn && fileCount(checks.filesIn) !== filesBefore)
    problems.push('a refused upload left a file behind');
  const extra = checks.answer?.(response);
  if (extra) problems.push(extra);

  if (problems.length) {
    const logged = serverLog.lines
      .slice(logLines)
      .map((line) => `\n  server log: ${line.trim().slice(0, 600)}`);
    throw new Error(
      `${problems.join('; ')}\n  request: ${request}\n  answer: ${status} ${preview(response.body, 400)}` +
        `${logged.join('')}\n  replay: FUZZ_SEED=${SEED}`,
    );
  }
  if (after !== before) {
    await restoreWorld();
    countAfterLastCase = undefined;
  }
  if (stats.cases % GUARD_EVERY === 0) guard.assertUntouched();
}

/**
 * A REST error must be the documented `{message, code, error, issues?}`, its `error` one of the
 * published ids (HEAD answers have no body).
 */
function restErrorBody(method: string) {
  return ({ statusCode, body }: { statusCode: number; body: string }) => {
    if (statusCode < 400 || method === 'HEAD') return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return `a ${statusCode} answer is not JSON`;
    }
    if (apiError.safeParse(parsed).success) return undefined;
    const id = (parsed as { error?: unknown } | null)?.error;
    return (API_ERROR_IDS as readonly unknown[]).includes(id)
      ? `a ${statusCode} answer is not {message, code, error}`
      : `a ${statusCode} answer's error ${JSON.stringify(id)} is not a published id`;
  };
}

/**
 * The status of each call a tRPC answer carries: 200 for a result, the error's httpStatus for an
 * error; a batch holds several. A subscription answers 200 and streams its error, if any, as an
 * `event: serialized-error` whose data is the error shape. A request refused before tRPC saw it
 * answers the REST error body, and its status is the answer's own.
 */
function trpcCallStatuses(body: string, contentType: string, status: number): number[] {
  const parse = (text: string) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  };
  const statusOf = (shape: unknown) => {
    const httpStatus = (shape as { data?: { httpStatus?: unknown } } | null)?.data?.httpStatus;
    return typeof httpStatus === 'number' ? httpStatus : undefined;
  };
  if (contentType.startsWith('text/event-stream')) {
    const errors = body
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => statusOf(parse(line.slice(5))))
      .filter((called): called is number => called !== undefined);
    return errors.length ? errors : [200];
  }
  const parsed = parse(body);
  if (apiError.safeParse(parsed).success) return [status];
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((item) => {
    const call = item as { result?: unknown; error?: unknown } | null;
    if (call?.error !== undefined) return [statusOf(call.error) ?? 500];
    return call?.result !== undefined ? [200] : [];
  });
}

/**
 * Each family draws from its own seed, derived from the run's seed and its name: families of the
 * same shape (the two libraries) get different cases, and `-t <family>` replays the same ones.
 */
function seedFor(family: string): number {
  let hash = SEED;
  for (const char of family) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) | 0;
  return hash;
}

/** Runs a family's cases; every failure names the request, and fast-check shrinks it first. */
async function fuzzFamily(
  family: string,
  targets: number,
  requests: fc.Arbitrary<FuzzRequest>,
  checksFor: (r: FuzzRequest) => Checks,
) {
  await fc.assert(
    fc.asyncProperty(requests, (request) => exercise(family, request, checksFor(request))),
    { numRuns: Math.max(REQUIRED_CASES, RUNS_PER_FAMILY, RUNS_PER_TARGET * targets), seed: seedFor(family) },
  );
  guard.assertUntouched();
  // Every run reached a request and its checks (a case that returned early would not count).
  expect(statsFor(family).cases).toBeGreaterThanOrEqual(REQUIRED_CASES);
}

// ---------------------------------------------------------------------------------------------
// Requests of each kind

const idPool = () => [
  users.agent.id,
  users.otherAgent.id,
  users.admin.id,
  users.owner.id,
  world.transaction.id,
  ...world.transaction.formIds,
  '00000000-0000-0000-0000-000000000000',
];

/** A path parameter: its valid value, someone else's id, or a hostile segment. */
function segment(valid: string): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 12, arbitrary: fc.constant(percentEncode(valid)) },
    { weight: 1, arbitrary: fc.constantFrom(...idPool()) },
    { weight: 2, arbitrary: hostileSegment },
  );
}

function fill(url: string, values: Record<string, string>): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => values[name] ?? '');
}

function paramNames(url: string): string[] {
  return [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1] ?? '');
}

function withoutKeys(value: unknown, keys: string[]): Record<string, unknown> {
  if (value === null || typeof value !== 'object') return {};
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

type Body = { contentType: string | undefined; payload: string | Buffer | undefined; expect413: boolean };

/** A body for a route that reads one: mostly JSON, sometimes another type, none, or too large. */
function bodyFor(valid: unknown): fc.Arbitrary<Body> {
  return fc.oneof(
    {
      weight: 30,
      arbitrary: fc
        .tuple(
          fc.constantFrom(...JSON_CONTENT_TYPES, 'application/json', 'application/json'),
          jsonBodyText(valid),
        )
        .map(([contentType, payload]) => ({ contentType, payload, expect413: false })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(...ODD_CONTENT_TYPES, undefined), jsonBodyText(valid))
        .map(([contentType, payload]) => ({ contentType, payload, expect413: false })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Body>(
        { contentType: undefined, payload: undefined, expect413: false },
        { contentType: 'application/json', payload: undefined, expect413: false },
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constant(null).map(() => ({
        contentType: 'application/json',
        payload: oversizedJson(),
        expect413: true,
      })),
    },
  );
}

const OTHER_METHODS = ['PATCH', 'HEAD', 'OPTIONS', 'GET', 'POST', 'PUT', 'DELETE'] as const;

function restRequest(route: RestRoute, procedurePath: string): fc.Arbitrary<FuzzRequest> {
  const sample = sampleFor(procedurePath);
  const names = paramNames(route.path);
  const record = (sample ?? {}) as Record<string, unknown>;
  const params = fc.record(
    Object.fromEntries(names.map((name) => [name, segment(String(record[name] ?? ''))])),
  );
  const rest = withoutKeys(sample, names);
  const queryValues = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, String(value)]));
  const isGet = route.method === 'GET';
  const query = isGet
    ? hostileQuery(queryValues)
    : fc.oneof({ weight: 9, arbitrary: fc.constant('') }, { weight: 1, arbitrary: hostileQuery({}) });
  const body: fc.Arbitrary<Body> = isGet
    ? fc.oneof(
        {
          weight: 12,
          arbitrary: fc.constant<Body>({ contentType: undefined, payload: undefined, expect413: false }),
        },
        { weight: 1, arbitrary: bodyFor(rest).map((b) => ({ ...b, expect413: false })) },
      )
    : bodyFor(rest);
  const method = fc.oneof(
    { weight: 30, arbitrary: fc.constant(route.method as string) },
    { weight: 1, arbitrary: fc.constantFrom(...OTHER_METHODS) },
  );
  return fc
    .record({ params, query, body, method, actor: actorFor(accessOf(route.procedure)), remoteAddress })
    .map(({ params, query, body, method, actor, remoteAddress }) => {
      const url = `${fill(route.path, params)}${query ? `?${query}` : ''}`;
      // The body is read only once the route is found: the documented method, a path that parses.
      const pathIntact = names.every((name) => params[name] === percentEncode(String(record[name] ?? '')));
      const expect413 = body.expect413 && method === route.method && pathIntact;
      return new FuzzRequest(
        `${route.method} ${route.path}`,
        method,
        url,
        actor,
        remoteAddress,
        body.contentType,
        body.payload,
        expect413,
      );
    });
}

type ProcedureInfo = { path: string; type: 'query' | 'mutation' | 'subscription'; access: Access };

function procedures(): ProcedureInfo[] {
  return [...ALL_PROCEDURES].map(([procedurePath, procedure]) => ({
    path: procedurePath,
    type: procedureTypeOf(procedure),
    access: accessOf(procedure),
  }));
}

function trpcRequest(procedure: ProcedureInfo): fc.Arbitrary<FuzzRequest> {
  const sample = sampleFor(procedure.path);
  const readsWithGet = procedure.type !== 'mutation';
  const inputText = mutatedInput(sample).map((input) =>
    input === undefined ? undefined : toJsonText(input),
  );
  const shape = fc.oneof(
    { weight: 16, arbitrary: fc.constant('plain' as const) },
    { weight: 1, arbitrary: fc.constant('batch' as const) },
    { weight: 1, arbitrary: fc.constant('wrongMethod' as const) },
    { weight: 1, arbitrary: fc.constant('unknownPath' as const) },
  );
  return fc
    .record({
      shape,
      inputText,
      rawText: fc.oneof(
        { weight: 6, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: jsonBodyText(sample) },
      ),
      body: bodyFor(sample),
      badPath: hostileSegment,
      actor: actorFor(procedure.access),
      remoteAddress,
    })
    .map(({ shape, inputText, rawText, body, badPath, actor, remoteAddress }) => {
      const text =
        rawText === null ? inputText : typeof rawText === 'string' ? rawText : rawText.toString('latin1');
      const usesGet = shape === 'wrongMethod' ? !readsWithGet : readsWithGet;
      const batch = shape === 'batch';
      const name =
        shape === 'unknownPath'
          ? `${procedure.path}.${badPath}`
          : batch
            ? `${procedure.path},${procedure.path}`
            : procedure.path;
      const batchText = (t: string | undefined) => `{"0":${t ?? 'null'},"1":${t ?? 'null'}}`;
      const target = `${procedure.type} ${procedure.path}`;
      if (usesGet) {
        const input = batch ? batchText(text) : text;
        const query = [
          ...(batch ? ['batch=1'] : []),
          ...(input === undefined ? [] : [`input=${percentEncode(input)}`]),
        ];
        const url = `/trpc/${name}${query.length ? `?${query.join('&')}` : ''}`;
        return new FuzzRequest(target, 'GET', url, actor, remoteAddress, undefined, undefined);
      }
      const url = `/trpc/${name}${batch ? '?batch=1' : ''}`;
      const payload = batch && typeof body.payload === 'string' ? batchText(body.payload) : body.payload;
      const expect413 = body.expect413 && shape !== 'unknownPath';
      return new FuzzRequest(target, 'POST', url, actor, remoteAddress, body.contentType, payload, expect413);
    });
}

/**
 * Files built to hurt whoever reads them: a decompression bomb, an encrypted PDF, a
 * truncated JPEG, real photos and PDFs with signature fields, made once before the families run.
 */
let hostileFiles: Buffer[] = [];
async function hostileIntakeFiles(): Promise<Buffer[]> {
  const photo = await photoJpeg({ width: 320, height: 480, orientation: 6 });
  return [
    bombPdf(),
    await encryptedPdf(),
    photo,
    truncated(photo),
    await pdfOf([{ text: ['Agency Disclosure'] }, { blank: true }], [{ page: 1, signed: false }]),
    await pdfOf([{ scan: 'empty' }]),
  ];
}

const UPLOAD_ROUTES = {
  transactions: '/api/uploads/transactions/:id',
  images: '/api/uploads/transactions/:id/images',
  forms: '/api/uploads/forms',
} as const;

function uploadRequest(route: keyof typeof UPLOAD_ROUTES): fc.Arbitrary<FuzzRequest> {
  const url = UPLOAD_ROUTES[route];
  return fc
    .record({
      id: segment(world.transaction.id),
      // The one query parameter of an upload (`links`): absent, valid or bent.
      query: fc.oneof(
        { weight: 4, arbitrary: fc.constant('') },
        { weight: 2, arbitrary: fc.constantFrom('links=same-origin', 'links=absolute') },
        { weight: 2, arbitrary: hostileQuery({ links: 'same-origin' }) },
      ),
      body: multipartBody(MAX_UPLOAD_BYTES, hostileFiles),
      actor: actorFor(route === 'forms' ? 'owner' : 'user'),
      remoteAddress,
    })
    .map(({ id, query, body, actor, remoteAddress }) => {
      const { payload, contentType } = multipartPayload(body);
      return new FuzzRequest(
        `POST ${url}`,
        'POST',
        `${fill(url, { id })}${query ? `?${query}` : ''}`,
        actor,
        remoteAddress,
        contentType,
        payload,
      );
    });
}

/** Zips for the verifier: an empty one, one with a manifest that is no manifest, one cut short. */
let archiveFiles: Buffer[] = [];
async function hostileArchives(): Promise<Buffer[]> {
  const odd = await zipOf(
    new Map([
      [
        'manifest.json',
        Buffer.from('{"files": [{"path": "../../etc/passwd", "sha256": "00", "bytes": -1}]}'),
      ],
      ['manifest.sig', Buffer.from('%%%not base64')],
      ['audit.json', Buffer.from('[{"seq": 1e400, "prevHash": {}, "hash": null}]')],
    ]),
  );
  return [await zipOf(new Map()), odd, odd.subarray(0, odd.length - 30), Buffer.concat([odd, odd])];
}

/**
 * The archive routes: the zip of a transaction by a bent id (the fuzzed file is open, so a
 * well-formed call is 409), and the verifier's multipart body with hostile files, zips among them.
 */
function archiveRequest(): fc.Arbitrary<FuzzRequest> {
  const download = fc
    .record({
      id: segment(world.transaction.id),
      method: fc.constantFrom('GET', 'GET', 'HEAD'),
      actor: actorFor('user'),
      remoteAddress,
    })
    .map(
      ({ id, method, actor, remoteAddress: from }) =>
        new FuzzRequest(
          'GET /api/transactions/:id/archive',
          method,
          `/api/transactions/${id}/archive`,
          actor,
          from,
          undefined,
          undefined,
        ),
    );
  const verify = fc
    .record({
      body: multipartBody(MAX_UPLOAD_BYTES, [...hostileFiles, ...archiveFiles]),
      actor: actorFor('user'),
      remoteAddress,
    })
    .map(({ body, actor, remoteAddress: from }) => {
      const { payload, contentType } = multipartPayload(body);
      return new FuzzRequest(
        'POST /api/archive/verify',
        'POST',
        '/api/archive/verify',
        actor,
        from,
        contentType,
        payload,
      );
    });
  return fc.oneof(download, verify);
}

function fileRequest(): fc.Arbitrary<FuzzRequest> {
  const [pathPart = '', queryPart = ''] = world.fileLink.split('?');
  const key = pathPart.replace(/^\/files\//, '');
  const params = new URLSearchParams(queryPart);
  const exp = params.get('exp') ?? '';
  const sig = params.get('sig') ?? '';
  const keyArb = fc.oneof(
    { weight: 6, arbitrary: fc.constant(key) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '../../etc/passwd',
        '%2e%2e/%2e%2e/etc/passwd',
        'forms/..%2f..%2f..%2fpackage.json',
        `transactions/${world.transaction.id}/../../../package.json`,
        `forms/${world.transaction.id}-x.pdf`,
        `${key}%00`,
        `${key}%00.html`,
        key.toUpperCase(),
        `${key}/`,
        `/${key}`,
        `${key}/..`,
        '',
        '/',
        '//etc/passwd',
        'a'.repeat(6000),
        key.replace('/', '%2f'),
        key.replaceAll('-', '%2d'),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(fc.nat(), hostileSegment).map(([index, replacement]) => {
        const segments = key.split('/');
        segments[index % segments.length] = replacement;
        return segments.join('/');
      }),
    },
  );
  const queryArb = fc.oneof(
    { weight: 5, arbitrary: fc.constant(queryPart) },
    { weight: 3, arbitrary: hostileQuery({ exp, sig }) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            exp,
            String(Number(exp) - 1),
            String(Number(exp) + 1),
            '0',
            '-1',
            '9'.repeat(13),
            '1e3',
            '',
          ),
          fc.constantFrom(
            sig,
            `${sig.slice(0, -1)}A`,
            '',
            `${sig}=`,
            sig.toUpperCase(),
            sig.repeat(2),
            '%00',
          ),
        )
        .map(([e, s]) => `exp=${e}&sig=${s}`),
    },
  );
  return fc
    .record({
      key: keyArb,
      query: queryArb,
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant('GET') },
        { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST') },
      ),
      actor: fc.oneof(
        { weight: 6, arbitrary: fc.constant<Actor>({ name: 'anonymous', badToken: 0 }) },
        { weight: 1, arbitrary: actorFor('user') },
      ),
      remoteAddress,
    })
    .map(
      ({ key: k, query, method, actor, remoteAddress }) =>
        new FuzzRequest(
          'GET /files/*',
          method,
          `/files/${k}${query ? `?${query}` : ''}`,
          actor,
          remoteAddress,
          undefined,
          undefined,
        ),
    );
}

/**
 * The addresses a mail or a calendar app opens without a session: the unsubscribe link
 * (POST with any body and content type, as mail providers send it; GET) and the .ics feed, with
 * the real secrets, bent ones and hostile path segments, by anyone.
 */
function mailLinkRequest(): fc.Arbitrary<FuzzRequest> {
  const tokenArb = (valid: string) =>
    fc.oneof(
      { weight: 4, arbitrary: fc.constant(valid) },
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          `${valid.slice(0, -1)}A`,
          valid.replace('.', '..'),
          `${valid}.x`,
          valid.split('.')[0] ?? '',
          `.${valid}`,
          valid.toUpperCase(),
          'a'.repeat(5000),
          '%00',
          '..%2f..%2fetc%2fpasswd',
          '',
        ),
      },
      { weight: 3, arbitrary: hostileSegment },
    );
  const unsubscribe = fc
    .record({
      method: fc.oneof(
        { weight: 5, arbitrary: fc.constant('POST') },
        { weight: 3, arbitrary: fc.constant('GET') },
      ),
      token: tokenArb(world.unsubscribeToken),
      contentType: fc.constantFrom(
        undefined,
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/json',
        'text/plain',
        'application/json; charset=utf-16',
      ),
      body: fc.oneof(
        fc.constant('List-Unsubscribe=One-Click'),
        fc.constant(undefined),
        hostileString,
        fc.string({ maxLength: 6000 }),
      ),
      actor: fc.oneof(
        { weight: 4, arbitrary: fc.constant<Actor>({ name: 'anonymous', badToken: 0 }) },
        actorFor('user'),
      ),
      remoteAddress,
    })
    .map(
      ({ method, token, contentType, body, actor, remoteAddress: from }) =>
        new FuzzRequest(
          `${method} /api/unsubscribe/:token`,
          method,
          `/api/unsubscribe/${token}`,
          actor,
          from,
          method === 'POST' && body !== undefined ? contentType : undefined,
          method === 'POST' ? body : undefined,
        ),
    );
  const feed = fc
    .record({
      token: tokenArb(world.feedToken),
      suffix: fc.constantFrom('.ics', '', '.ICS', '.ics.ics', '.ics%00', '/x.ics'),
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST'),
      remoteAddress,
    })
    .map(
      ({ token, suffix, method, remoteAddress: from }) =>
        new FuzzRequest(
          'GET /calendar/:file',
          method,
          `/calendar/${token}${suffix}`,
          { name: 'anonymous', badToken: 0 },
          from,
          undefined,
          undefined,
        ),
    );
  // The signing link's PDF and the signing certificate: public, the token their only key.
  const signing = fc
    .record({
      token: tokenArb(world.signature.token),
      certificate: fc.boolean(),
      method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST'),
      remoteAddress,
    })
    .map(({ token, certificate, method, remoteAddress: from }) =>
      certificate
        ? new FuzzRequest(
            'GET /api/sign/certificate',
            method,
            '/api/sign/certificate',
            ANONYMOUS,
            from,
            undefined,
            undefined,
          )
        : new FuzzRequest(
            'GET /api/sign/:token/document',
            method,
            `/api/sign/${token}/document`,
            ANONYMOUS,
            from,
            undefined,
            undefined,
          ),
    );
  return fc.oneof(unsubscribe, feed, signing);
}
const ANONYMOUS: Actor = { name: 'anonymous', badToken: 0 };

/**
 * The CSV exports: hostile query strings around the valid filters, by every actor.
 * An admin's answer is a CSV stream that ends (its header first), never a 5xx, whatever the term.
 */
function exportRequest(): fc.Arbitrary<FuzzRequest> {
  const exports = [
    ['/api/admin/transactions.csv', { status: 'missing', query: 'Main' }],
    ['/api/admin/review-queue.csv', { type: 'FuzzType', agentId: users.agent.id }],
    ['/api/users.csv', { query: 'agent' }],
    ['/api/admin/audit.csv', { action: 'form.review', from: '2026-11-01' }],
  ] as const;
  return fc
    .record({
      target: fc.constantFrom(...exports),
      query: fc.option(
        fc.oneof(
          hostileQuery({}),
          hostileString.map((term) => `query=${percentEncode(term)}`),
        ),
        {
          nil: undefined,
        },
      ),
      valid: fc.boolean(),
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant('GET') },
        { weight: 1, arbitrary: fc.constantFrom('HEAD', 'POST') },
      ),
      actor: actorFor('admin'),
      remoteAddress,
    })
    .chain(({ target: [url, valid], query, valid: useValid, method, actor, remoteAddress: from }) =>
      (useValid ? hostileQuery(valid) : fc.constant(query ?? '')).map(
        (search) =>
          new FuzzRequest(
            `GET ${url}`,
            method,
            search ? `${url}?${search}` : url,
            actor,
            from,
            undefined,
            undefined,
          ),
      ),
    );
}

/**
 * The payouts export's range: UTC days that are no days (or no dates at all), reversed, repeated,
 * half given, around the valid pair, by every actor. A well-formed range by an admin is a CSV
 * stream (its header first); anything else a documented 4xx, never a 5xx.
 */
const PAYOUTS_URL = '/api/admin/payouts.csv';
const wrongDay: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('2026-02-30', '2026-13-01', '2026-00-10', '2026-1-1', '99999-01-01', '0000-01-01', '', ' '),
  fc.constantFrom('2026-11-01T00:00:00Z', '20261101', '2026/11/01', 'today', '-1', '1e9', '2026-11-01\u0000'),
  hostileString,
);
type PayoutsRange = { from?: string; to?: string };
function payoutsRequest(): fc.Arbitrary<FuzzRequest & { range: PayoutsRange | null }> {
  const day = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        '2026-11-01',
        '2026-11-30',
        '2024-02-29',
        '1900-01-01',
        '2199-12-31',
        '1899-12-31',
        '2200-01-01',
      ),
    },
    { weight: 2, arbitrary: wrongDay },
  );
  const range = fc.record({ from: day, to: day }, { requiredKeys: [] });
  return fc
    .record({
      search: fc.oneof(
        {
          weight: 6,
          arbitrary: range.map((value) => ({ value, text: new URLSearchParams(value).toString() })),
        },
        {
          weight: 2,
          arbitrary: hostileQuery({ from: '2026-11-01', to: '2026-11-30' }).map((text) => ({
            value: null,
            text,
          })),
        },
      ),
      actor: actorFor('admin'),
      remoteAddress,
    })
    .map(({ search, actor, remoteAddress: from }) =>
      Object.assign(
        new FuzzRequest(
          `GET ${PAYOUTS_URL}`,
          'GET',
          search.text ? `${PAYOUTS_URL}?${search.text}` : PAYOUTS_URL,
          actor,
          from,
          undefined,
          undefined,
        ),
        { range: search.value },
      ),
    );
}

/** An absent bound, or a day the portal takes (1900 to 2199). */
const isDay = (value: string | undefined) => value === undefined || isCalendarDay(value);

/**
 * A body that is right but for its `facts` or its `conditionalForms`, to the paths that take them,
 * over REST and tRPC, by a caller they are meant for: only the wrong part can refuse it.
 */
type Wrong = { names: string[] };
function wrongBodyRequest(
  targets: Array<{ rest: [string, string]; trpc: string; body: () => object; who: ActorName[] }>,
  wrong: fc.Arbitrary<{ part: object; names: string[] }>,
): fc.Arbitrary<FuzzRequest & Wrong> {
  return fc
    .record({
      target: fc.constantFrom(...targets),
      overTrpc: fc.boolean(),
      wrong,
      actor: fc.nat(),
      remoteAddress,
    })
    .map(({ target, overTrpc, wrong: { part, names }, actor, remoteAddress: from }) => {
      const body = { ...target.body() };
      for (const [key, value] of Object.entries(part)) setOwn(body, key, value);
      // API keys are for the REST paths.
      const who = overTrpc ? target.who.filter((one) => one !== 'apiKey') : target.who;
      const name = who[actor % who.length] ?? 'admin';
      const [method, url] = overTrpc ? ['POST', `/trpc/${target.trpc}`] : target.rest;
      const rest = `${target.rest[0]} ${target.rest[1].replace(/\/[0-9a-f-]{36}/g, '/:id')}`;
      const request = new FuzzRequest(
        overTrpc ? `mutation ${target.trpc}` : rest,
        method,
        url,
        as(name),
        from,
        'application/json',
        toJsonText(body),
      );
      return Object.assign(request, { names });
    });
}

function factsRequest() {
  const address = { streetAddress: '12 Harbor Lane', city: 'Portland', state: 'ME', zip: '04101' };
  const id = world.transaction.id;
  return wrongBodyRequest(
    [
      {
        rest: ['POST', '/api/transactions'],
        trpc: 'transactions.create',
        body: () => ({ ...address, ...world.template }),
        who: ['agent', 'apiKey'],
      },
      {
        rest: ['PUT', `/api/transactions/${id}/${users.agent.id}`],
        trpc: 'transactions.update',
        body: () => ({ id, userId: users.agent.id, ...address }),
        who: ['agent', 'admin'],
      },
      {
        rest: ['PUT', `/api/admin/transactions/${id}`],
        trpc: 'adminTransactions.update',
        body: () => ({ id, ...address, isTitleReport: true }),
        who: ['admin', 'owner', 'apiKey'],
      },
    ],
    badFacts.map(({ facts, names }) => ({ part: { facts }, names })),
  );
}

function rulesRequest() {
  const id = world.spareTemplateId;
  return wrongBodyRequest(
    [
      {
        rest: ['POST', '/api/admin/forms/transactions/insert'],
        trpc: 'templates.create',
        body: () => ({ type: 'FuzzRules', role: 'Seller' }),
        who: ['owner', 'apiKey'],
      },
      {
        rest: ['PUT', `/api/admin/forms/transactions/form/${id}`],
        trpc: 'templates.update',
        body: () => ({ id, type: 'FuzzSpare', role: 'Buyer' }),
        who: ['admin', 'owner', 'apiKey'],
      },
    ],
    badRules.map((lists) => ({
      part: lists,
      names: plainText(lists.conditionalForms) ? ['conditionalForms'] : [],
    })),
  );
}

function commissionRequest() {
  const id = world.transaction.id;
  const plan = world.planId;
  const admins: ActorName[] = ['admin', 'owner', 'apiKey'];
  const onDeal = (body: object) => ({
    rest: ['PUT', `/api/transactions/${id}/commission`] as [string, string],
    trpc: 'commission.setForTransaction',
    body: () => ({ id, ...body }),
    who: ['agent', 'admin', 'apiKey'] as ActorName[],
  });
  const cdaPaths = {
    issue: `/api/admin/transactions/${id}/cda`,
    paid: `/api/admin/transactions/${id}/cda/${world.cdaId}/paid`,
  };
  return fc.oneof(
    wrongBodyRequest(
      [{ rest: ['POST', cdaPaths.issue], trpc: 'commission.issueCda', body: () => ({ id }), who: admins }],
      badCdaOverride,
    ),
    wrongBodyRequest(
      [
        {
          rest: ['POST', cdaPaths.paid],
          trpc: 'commission.markCdaPaid',
          body: () => ({ id, cdaId: world.cdaId }),
          who: admins,
        },
      ],
      badPaidAt,
    ),
    wrongBodyRequest([onDeal({ grossCommissionCents: 1_250_000 })], badGrossCommission),
    wrongBodyRequest([onDeal({ ratePercent: 2.5 })], badRateCommission),
    wrongBodyRequest(
      [
        {
          rest: ['POST', '/api/admin/commission-plans'],
          trpc: 'commission.createPlan',
          body: () => ({ ...FUZZ_PLAN, name: 'Fuzz plan wrong' }),
          who: admins,
        },
        {
          rest: ['PUT', `/api/admin/commission-plans/${plan}`],
          trpc: 'commission.updatePlan',
          body: () => ({ id: plan, ...FUZZ_PLAN }),
          who: admins,
        },
      ],
      badPlan,
    ),
  );
}

function signaturesRequest() {
  const id = world.transaction.id;
  const { formId, token } = world.signature;
  const sent = validInputs(world)['signatures.create'] as Record<string, unknown>;
  return fc.oneof(
    wrongBodyRequest(
      [
        {
          rest: ['POST', `/api/transactions/${id}/signature-requests`],
          trpc: 'signatures.create',
          body: () => ({ ...sent, id, formId }),
          // The owner, not the fuzzed admin: earlier families may place that admin in an office
          // (a valid users.update), after which this file is out of its reach and answers 404
          // before the service reads the fields (a signer without a signature field).
          who: ['agent', 'owner', 'apiKey'],
        },
      ],
      badSignatureRequest,
    ),
    wrongBodyRequest(
      [
        {
          rest: ['POST', `/api/sign/${token}`],
          trpc: 'signatures.sign',
          body: () => ({ token, consent: true, values: [] }),
          who: ['anonymous', 'agent'],
        },
      ],
      badSignature,
    ),
  );
}

/** Every string of a JSON answer (messages, issue paths), to find what the answer names. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) stringsOf(item, out);
  return out;
}

/** Refused with 400, in the documented body, naming what was wrong. */
function refusedNaming(request: FuzzRequest & Wrong) {
  return (response: Answer) => {
    if (response.statusCode !== 400) return `answered ${response.statusCode}, not 400`;
    if (!request.url.startsWith('/trpc/')) {
      const problem = restErrorBody(request.method)(response);
      if (problem) return problem;
    }
    let strings: string[];
    try {
      strings = stringsOf(JSON.parse(response.body));
    } catch {
      return 'the 400 is not JSON';
    }
    const unnamed = request.names.filter((name) => !strings.some((text) => text.includes(name)));
    return unnamed.length
      ? `the 400 does not name ${unnamed.map((name) => JSON.stringify(name)).join(', ')}`
      : undefined;
  };
}

/**
 * /metrics by every actor (sessions and the bad authorizations), with any method and hostile query
 * strings, one of which carries the metrics token itself: only the header may open it.
 */
function metricsRequest(): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      method: fc.oneof(
        { weight: 8, arbitrary: fc.constant('GET') },
        { weight: 2, arbitrary: fc.constantFrom('HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS') },
      ),
      query: fc.option(hostileQuery({ token: METRICS_TOKEN }), { nil: undefined }),
      actor: fc.record({
        name: fc.constantFrom<ActorName>('anonymous', 'badToken', ...SIGNED_IN),
        badToken: fc.nat(),
      }),
      remoteAddress,
    })
    .map(
      ({ method, query, actor, remoteAddress }) =>
        new FuzzRequest(
          'GET /metrics',
          method,
          `/metrics${query === undefined ? '' : `?${query}`}`,
          actor,
          remoteAddress,
          undefined,
          undefined,
        ),
    );
}

// ---------------------------------------------------------------------------------------------
// Setup

/** Every stream ends as soon as it starts: the fuzzer checks how a subscription starts, not what it streams. */
const endingBus: NotificationBus = {
  subscribe: (_userId, _admin, listener) => {
    listener({ kind: 'revoked' });
    return () => {};
  },
  close: async () => {},
};

beforeAll(async () => {
  clock = new TestClock();
  deps = testDeps(database.db, {
    clock,
    config: testConfig({
      maxUploadBytes: MAX_UPLOAD_BYTES,
      metricsToken: METRICS_TOKEN,
      apiKeyRateLimitPerMin: 1_000_000,
    }),
    bus: endingBus,
    // Mail is not what this file tests; thousands of sign-ups should not fill a folder with .eml files.
    mailer: { send: async () => {} },
  });
  app = buildTestApp(deps, { loggerInstance: serverLog.logger });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  networkBase = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const db = database.db;
  const rows: Record<SignedIn, Awaited<ReturnType<typeof createUser>>> = {
    agent: await createUser(db, { firstName: 'Alice', lastName: 'Agent' }),
    otherAgent: await createUser(db, { firstName: 'Bob', lastName: 'Broker' }),
    admin: await createAdmin(db),
    owner: await createOwner(db),
  };
  for (const name of SIGNED_IN) {
    users[name] = rows[name];
    tokens[name] = await accessTokenFor(rows[name], { now: clock.now() });
  }
  // Used long after this run, so calls never update its last_used_at: a refused call with it
  // must show zero row changes, and its own bookkeeping is not a change of data.
  const farFuture = new Date(clock.now().getTime() + 10 * 365 * 24 * 60 * 60 * 1000);
  const fuzzKey = async (revokedAt: Date | null) => {
    const { id, secret, key } = newApiKey();
    await db.apiKey.create({
      data: {
        id,
        name: 'Fuzz',
        scopes: [...API_KEY_SCOPES],
        secretHash: new Uint8Array(hashApiKeySecret(secret)),
        createdBy: rows.owner.id,
        lastUsedAt: farFuture,
        revokedAt,
      },
    });
    return { id, key };
  };
  apiKeyToken = (await fuzzKey(null)).key;
  const revokedApiKey = (await fuzzKey(clock.now())).key;
  const doomedApiKeyId = (await fuzzKey(null)).id;
  const victim = await createUser(db, { isAdminApproved: false });
  const dayAgo = new Date(clock.now().getTime() - 24 * 60 * 60 * 1000);
  badAuthorizations = [
    'Bearer garbage',
    'Bearer',
    'Bearer a.b.c',
    `Bearer ${await accessTokenFor(rows.agent, { now: dayAgo })}`,
    `Bearer ${await accessTokenFor(rows.admin, { now: clock.now(), secret: 'another-secret-that-is-long-enough-0123456789' })}`,
    `Bearer ${tokens.agent}x`,
    `Basic ${Buffer.from('agent:password').toString('base64')}`,
    `Bearer ${'a'.repeat(10_000)}`,
    `bearer ${tokens.admin} extra`,
    // API keys: tampered, malformed, unknown, revoked.
    `Bearer ${apiKeyToken.slice(0, -1)}${apiKeyToken.endsWith('A') ? 'B' : 'A'}`,
    'Bearer bpk_',
    `Bearer bpk_${'0'.repeat(32)}_${'A'.repeat(43)}`,
    `Bearer bpk_${'z'.repeat(5000)}`,
    `Bearer ${revokedApiKey}`,
  ];

  const template = await createTemplate(db, { type: 'FuzzType', role: 'Seller' });
  const spareTemplate = await createTemplate(db);
  const doomedTemplate = await createTemplate(db);
  await createTransaction(db, { userId: rows.otherAgent.id });
  const transaction = await createTransaction(db, {
    userId: rows.agent.id,
    type: template.type,
    role: template.role,
  });
  const doomedTransaction = await createTransaction(db, { userId: rows.agent.id });

  const transactionKey = transactionFileKey(transaction.id, 'contract.pdf', 'pdf');
  await deps.storage.put(transactionKey, Readable.from([TINY_PDF]), { contentType: 'application/pdf' });
  const packetKey = transactionFileKey(transaction.id, 'packet.pdf', 'pdf');
  const packet = await pdfOf([{ text: ['Listing Agreement'] }, { text: ['Agency Disclosure'] }]);
  await deps.storage.put(packetKey, Readable.from([packet]), { contentType: 'application/pdf' });
  await db.storedFile.create({
    data: {
      key: packetKey,
      size: packet.length,
      contentType: 'application/pdf',
      pages: 2,
      transactionId: transaction.id,
    },
  });
  hostileFiles = await hostileIntakeFiles();
  archiveFiles = await hostileArchives();
  const libraryKey = libraryFileKey('disclosure.pdf', 'pdf');
  await deps.storage.put(libraryKey, Readable.from([TINY_PDF]), { contentType: 'application/pdf' });
  const fileLink = new URL(await deps.storage.signedUrl(transactionKey));
  const feedToken = newSecretToken();
  await db.user.update({
    where: { id: rows.agent.id },
    data: { calendarFeedHash: hashSecretToken(feedToken) },
  });
  // The second item holds a file awaiting review, so reviews and bulk accepts reach a decision.
  const secondForm = transaction.forms[1];
  if (secondForm)
    await db.transactionForm.update({
      where: { id: secondForm.id },
      data: { fileKey: transactionKey, submittedAt: clock.now(), version: 1 },
    });

  const signature = await fuzzSignatureRequest(db, transaction.id, packetKey, packet.length, rows.agent.id);

  world = {
    victimId: victim.id,
    officeId: (await db.office.create({ data: { name: 'Fuzz Harbor' } })).id,
    doomedOfficeId: (await db.office.create({ data: { name: 'Fuzz Closing' } })).id,
    coordinatorId: (await createUser(db)).id,
    planId: (
      await db.commissionPlan.create({
        data: {
          ...FUZZ_PLAN,
          capCents: BigInt(FUZZ_PLAN.capCents),
          transactionFeeCents: BigInt(FUZZ_PLAN.transactionFeeCents),
        },
      })
    ).id,
    cdaId: (
      await db.cda.create({
        data: {
          transactionId: transaction.id,
          version: 1,
          agentId: rows.agent.id,
          agentName: 'Alice Agent',
          brokerageName: 'Harbor Realty',
          grossCents: 1_000_000n,
          brokerageCents: 300_000n,
          agentCents: 700_000n,
          planName: FUZZ_PLAN.name,
          agentSplit: FUZZ_PLAN.agentSplit,
          transactionFeeCents: 0n,
          brokerageYearToDateCents: 0n,
          pdfKey: transactionKey,
          sha256: '0'.repeat(64),
          issuedBy: rows.admin.id,
          issuedAt: new Date('2026-01-02T00:00:00.000Z'),
        },
      })
    ).id,
    template: { type: template.type, role: template.role },
    spareTemplateId: spareTemplate.id,
    doomedTemplateId: doomedTemplate.id,
    transaction: { id: transaction.id, formIds: transaction.forms.map((form) => form.id) },
    doomedTransactionId: doomedTransaction.id,
    transactionFileKey: transactionKey,
    libraryFileKey: libraryKey,
    libraryFormId: (await createLibraryItem(db, { link: libraryKey })).id,
    doomedLibraryFormId: (await createLibraryItem(db, { link: libraryKey })).id,
    tutorialId: (await createLibraryItem(db, { kind: 'tutorial', link: TUTORIAL_LINK })).id,
    doomedTutorialId: (await createLibraryItem(db, { kind: 'tutorial', link: TUTORIAL_LINK })).id,
    bannerId: (await createBanner(db, { userId: rows.agent.id })).id,
    doomedBannerId: (await createBanner(db, { userId: rows.agent.id })).id,
    notificationId: (await createNotification(db, { userId: rows.agent.id })).id,
    fileLink: `${fileLink.pathname}${fileLink.search}`,
    fileBytes: TINY_PDF,
    packetKey,
    unsubscribeToken: unsubscribeToken(deps, rows.agent.id, 'comment'),
    apiKeyId: doomedApiKeyId,
    feedToken,
    ...(await fuzzWebhook(db)),
    signature,
    passkeys: await fuzzPasskeys(db, rows.agent.id),
  };

  counter = await installChangeCounter(database.url);
  guard = guardPrototypes(POLLUTION_PROBES);
  console.warn(
    `fuzz: seed ${SEED} (FUZZ_SEED=${SEED} repeats this run), at least ${RUNS_PER_FAMILY} runs per family, ` +
      `row changes counted on ${counter.tables.length} tables`,
  );
});

// Each test starts from a fresh count: the tests themselves write between cases (the controls).
beforeEach(() => {
  countAfterLastCase = undefined;
});

afterAll(async () => {
  if (families.size) {
    const lines = [...families].map(([family, stats]) => {
      const statuses = [...stats.statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}:${count}`)
        .join(' ');
      const fewest = Math.min(...stats.perTarget.values());
      return `  ${family.padEnd(20)} ${String(stats.cases).padStart(5)} cases over ${stats.perTarget.size} targets (fewest ${fewest})  ${statuses}`;
    });
    const total = [...families.values()].reduce((sum, stats) => sum + stats.cases, 0);
    const unsampled = proceduresWithoutSample.size
      ? `\n  fuzzed from no input (add a valid sample): ${[...proceduresWithoutSample].join(', ')}`
      : '';
    console.warn(`fuzz: seed ${SEED}, ${total} cases\n${lines.join('\n')}${unsampled}`);
  }
  await counter?.close();
  await app?.close();
});

// ---------------------------------------------------------------------------------------------
// The families

const restFamilies = new Map<string, RestRoute[]>();
const restRoutes = restRoutesOf(appRouter);
for (const route of restRoutes) restFamilies.set(route.tag, [...(restFamilies.get(route.tag) ?? []), route]);

const as = (name: ActorName): Actor => ({ name, badToken: 0 });

describe('controls: the detectors can fail', () => {
  it('the change counter counts a committed write and ignores a read', async () => {
    const start = await counter.read();
    const tables = await runSql<{ name: string }>(
      database.url,
      "SELECT tablename::text AS name FROM pg_tables WHERE schemaname = 'public'",
    );
    expect([...counter.tables].sort()).toEqual(
      tables
        .map((table) => table.name)
        .filter((name) => !UNWATCHED_TABLES.includes(name))
        .sort(),
    );
    expect(counter.tables).toEqual(expect.arrayContaining(['users', 'transactions', 'audit_events']));
    const read = await app.inject({
      method: 'GET',
      url: '/api/forms',
      headers: authorization(as('agent')),
    });
    expect(read.statusCode).toBe(200);
    expect(await counter.read()).toBe(start);
    await createNotification(database.db, { userId: users.otherAgent.id });
    expect(await counter.read()).toBe(start + 1);
  });

  it('after a write, the actors are whole again (a deactivated agent signs in with a fresh token)', async () => {
    const agentCall = () =>
      app.inject({
        method: 'GET',
        url: `/api/notifications/${users.agent.id}`,
        headers: authorization(as('agent')),
      });
    const deactivated = await app.inject({
      method: 'GET',
      url: `/api/users/deactivated/${users.agent.id}`,
      headers: authorization(as('admin')),
    });
    expect(deactivated.statusCode).toBe(200);
    expect((await agentCall()).statusCode).toBe(401);
    await restoreWorld();
    expect((await agentCall()).statusCode).toBe(200);
  });

  it('the prototype guard notices a polluted prototype', () => {
    guard.assertUntouched();
    Object.defineProperty(Object.prototype, 'polluted', { value: true, configurable: true, writable: true });
    try {
      expect(() => guard.assertUntouched()).toThrow(/Object\.prototype\.polluted was added/);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    guard.assertUntouched();
  });

  it('a case whose answer breaks a rule fails, naming its request', async () => {
    const request = new FuzzRequest(
      'control',
      'GET',
      '/api/forms',
      { name: 'anonymous', badToken: 0 },
      '10.8.0.0',
      undefined,
      undefined,
    );
    await expect(
      exercise('control', request, {
        answer: ({ statusCode }) => (statusCode === 401 ? 'control failure' : undefined),
      }),
    ).rejects.toThrow(/control failure\n {2}request: GET "\/api\/forms" as anonymous/);
    families.delete('control');
  });
});

/**
 * What the fuzzer found, shrunk, kept as fixed cases: each answered 500 or never answered before
 * its fix, and must now be refused (400) without a row or file changed.
 */
describe('regressions found by fuzzing', () => {
  const json = 'application/json';
  const multipart = (filename: string, content: Buffer, closing: boolean) =>
    multipartPayload({
      parts: [{ name: 'file', filename, contentType: 'application/pdf', content }],
      boundary: '----fuzz-boundary',
      header: 'ok',
      truncateAt: null,
      closing,
      newline: '\r\n',
    });
  /** The agent uploading `body` to their own transaction. */
  const agentUpload = (body: { contentType: string | undefined; payload: Buffer }) =>
    new FuzzRequest(
      'regression',
      'POST',
      `/api/uploads/transactions/${world.transaction.id}`,
      as('agent'),
      '10.9.0.1',
      body.contentType,
      body.payload,
    );
  /** A case, and what its answer must say when a bare 400 is not enough. */
  const cases: Array<[string, () => FuzzRequest, string?]> = [
    [
      'U+0000 in a text field (PostgreSQL refuses it)',
      () =>
        new FuzzRequest(
          'regression',
          'PUT',
          `/api/admin/transactions/${world.transaction.id}`,
          as('admin'),
          '10.9.0.1',
          json,
          '{"streetAddress":"12 Harbor\\u0000 Lane","city":"Portland","state":"ME","zip":"04101"}',
        ),
    ],
    [
      'a lone surrogate in a text[] column (template documents)',
      () =>
        new FuzzRequest(
          'regression',
          'PUT',
          `/api/admin/forms/transactions/form/${world.spareTemplateId}`,
          as('admin'),
          '10.9.0.1',
          json,
          '{"type":"FuzzSpare","role":"Buyer","forms":["x\\ud83d","B"]}',
        ),
    ],
    [
      'a lone surrogate in a JSON column (the audit trail of a review)',
      () =>
        new FuzzRequest(
          'regression',
          'POST',
          `/api/admin/transactions/${world.transaction.id}/forms/${world.transaction.formIds[1]}/comments`,
          as('admin'),
          '10.9.0.1',
          json,
          '{"status":"accepted","text":"\\udfff"}',
        ),
    ],
    [
      "a rule on a name every object inherits (toString): it answered the TypeError's message",
      () =>
        new FuzzRequest(
          'regression',
          'PUT',
          `/api/admin/forms/transactions/form/${world.spareTemplateId}`,
          as('admin'),
          '10.9.0.1',
          json,
          '{"type":"FuzzSpare","role":"Buyer","forms":["A"],"conditionalForms":[{"label":"X","when":[{"fact":"toString","op":"eq","value":1}]}]}',
        ),
      'Unknown fact \\"toString\\"',
    ],
    [
      'a mutation called with GET',
      () =>
        new FuzzRequest(
          'regression',
          'GET',
          `/trpc/banners.delete?input=${percentEncode(`{"id":"${world.doomedBannerId}"}`)}`,
          as('agent'),
          '10.9.0.1',
          undefined,
          undefined,
        ),
    ],
    [
      'a malformed %-escape in the path (the router refuses it before any hook)',
      () =>
        new FuzzRequest(
          'regression',
          'GET',
          '/api/users/deactivated/%zz',
          as('admin'),
          '10.9.0.1',
          undefined,
          undefined,
        ),
    ],
    [
      'a multipart upload without a boundary',
      () =>
        new FuzzRequest(
          'regression',
          'POST',
          '/api/uploads/forms',
          as('owner'),
          '10.9.0.1',
          'multipart/form-data',
          multipart('contract.pdf', TINY_PDF, true).payload,
        ),
    ],
    [
      'an upload whose body ends inside a later part (the file part arrives already failed)',
      () => {
        const body = multipartPayload({
          parts: [
            { name: 'file', filename: 'contract.pdf', contentType: 'application/pdf', content: TINY_PDF },
            { name: '__proto__', filename: null, contentType: null, content: Buffer.from('x') },
          ],
          boundary: '----fuzz-boundary',
          header: 'ok',
          truncateAt: null,
          closing: false,
          newline: '\r\n',
        });
        return agentUpload(body);
      },
    ],
    [
      'an upload whose only part is skipped and holds more than 16 KiB (the request used to hang)',
      () => {
        const body = multipart('a\nb.pdf', Buffer.concat([TINY_PDF, Buffer.alloc(17 * 1024)]), true);
        return agentUpload(body);
      },
    ],
  ];
  for (const [name, request, says] of cases) {
    it(name, async () => {
      const uploadDir = path.join(TEST_DATA_DIR, 'uploads', 'transactions', world.transaction.id);
      await exercise('regressions', request(), {
        filesIn: uploadDir,
        answer: (response) =>
          response.statusCode === 400
            ? restErrorBody('GET')(response) === undefined || response.body.includes('"httpStatus":400')
              ? says === undefined || response.body.includes(says)
                ? undefined
                : `the 400 does not say ${says}`
              : 'the 400 has no documented error body'
            : `answered ${response.statusCode}, not 400`,
      });
    });
  }
  afterAll(() => void families.delete('regressions'));
});

describe('fuzzing every route family: no 5xx, no row changed by a 4xx, prototypes untouched', () => {
  for (const [tag, routes] of restFamilies) {
    it(`REST ${tag} (${routes.length} routes)`, { timeout: 120_000 }, async () => {
      const requests = fc.oneof(...routes.map((route) => restRequest(route, route.procedurePath)));
      await fuzzFamily(tag, routes.length, requests, (request) => ({
        answer: restErrorBody(request.method),
      }));
    });
  }

  it('uploads (3 multipart routes)', { timeout: 180_000 }, async () => {
    const uploadDir = path.join(TEST_DATA_DIR, 'uploads', 'transactions', world.transaction.id);
    const requests = fc.oneof(uploadRequest('transactions'), uploadRequest('images'), uploadRequest('forms'));
    await fuzzFamily('uploads', 3, requests, (request) => ({
      answer: restErrorBody(request.method),
      ...(request.url.startsWith('/api/uploads/transactions/') ? { filesIn: uploadDir } : {}),
    }));
  });

  it('archives (the zip of a transaction; the verifier, multipart)', { timeout: 120_000 }, async () => {
    await fuzzFamily('archives', 2, archiveRequest(), (request) => ({
      answer: restErrorBody(request.method),
    }));
  });

  it('files (GET /files/<key>?exp=&sig=)', { timeout: 120_000 }, async () => {
    await fuzzFamily('files', 1, fileRequest(), (request) => ({
      answer: ({ statusCode, body }) => {
        // Whatever the path says, the only file that may ever be served is the one that was signed.
        if (statusCode < 300 && request.method === 'GET' && body !== world.fileBytes.toString())
          return `a ${statusCode} served something other than the signed file`;
        return restErrorBody(request.method)({ statusCode, body });
      },
    }));
  });

  it('metrics (GET /metrics without its token)', { timeout: 120_000 }, async () => {
    await fuzzFamily('metrics', 1, metricsRequest(), (request) => ({
      answer: (response) => {
        if (response.statusCode < 400) return `answered ${response.statusCode} without the metrics token`;
        if (response.body.includes('portal_')) return 'a refusal carried metrics';
        return restErrorBody(request.method)(response);
      },
    }));
  });

  it('mail links (one-click unsubscribe, GET and POST; the calendar feed; the signing PDF and certificate)', {
    timeout: 120_000,
  }, async () => {
    await fuzzFamily('mail links', 3, mailLinkRequest(), (request) => ({
      answer: (response) => {
        // A GET only leads to the page (which asks the API): it changes nothing, whatever the token.
        if (response.statusCode === 303)
          return request.method === 'GET' ? undefined : 'a POST was redirected';
        // Only the real secrets may open anything; a bent token is 4xx, never 5xx.
        const real =
          request.url.includes(world.unsubscribeToken) ||
          request.url.includes(world.feedToken) ||
          request.url.includes(world.signature.token) ||
          request.url === '/api/sign/certificate';
        if (response.statusCode < 400 && !real)
          return `answered ${response.statusCode} for a token nobody was given`;
        return restErrorBody(request.method)(response);
      },
    }));
  });

  it('CSV exports (4 routes, hostile query strings)', { timeout: 120_000 }, async () => {
    await fuzzFamily('exports', 4, exportRequest(), (request) => ({
      answer: (response) => {
        if (
          response.statusCode === 200 &&
          request.method === 'GET' &&
          !/^[a-z_]+(,[a-z_]+)+\r\n/.test(response.body)
        )
          return 'a 200 export does not start with its header row';
        return restErrorBody(request.method)(response);
      },
    }));
  });

  it(`tRPC over HTTP (every procedure: ${procedures().length})`, { timeout: 120_000 }, async () => {
    const all = procedures();
    await fuzzFamily('tRPC', all.length, fc.oneof(...all.map(trpcRequest)), () => ({
      innerStatuses: trpcCallStatuses,
    }));
  });

  it('payouts export (hostile ranges of UTC days)', { timeout: 120_000 }, async () => {
    await fuzzFamily('payouts', 1, payoutsRequest(), (request) => ({
      answer: (response) => {
        const { range } = request as FuzzRequest & { range: PayoutsRange | null };
        const admin = ['admin', 'owner'].includes(request.actor.name);
        if (
          admin &&
          range &&
          isDay(range.from) &&
          isDay(range.to) &&
          !(range.from && range.to && range.from > range.to) &&
          response.statusCode !== 200
        )
          return `a well-formed range answered ${response.statusCode}`;
        if (response.statusCode === 200 && !response.body.startsWith('paid_at,cda_id,'))
          return 'a 200 export does not start with its header row';
        return restErrorBody(request.method)(response);
      },
    }));
  });

  it('facts: wrong values and unknown facts on create and both updates (REST and tRPC)', {
    timeout: 180_000,
  }, async () => {
    const requests = factsRequest();
    await fuzzFamily('facts', 6, requests, (request) => ({
      answer: refusedNaming(request as FuzzRequest & Wrong),
    }));
  });

  it('conditionalForms: wrong rules on template insert and update (REST and tRPC)', {
    timeout: 180_000,
  }, async () => {
    await fuzzFamily('conditionalForms', 4, rulesRequest(), (request) => ({
      answer: refusedNaming(request as FuzzRequest & Wrong),
    }));
  });

  it('commission: wrong plans, amounts, rates and referrals (REST and tRPC)', {
    timeout: 180_000,
  }, async () => {
    await fuzzFamily('commission', 8, commissionRequest(), (request) => ({
      answer: refusedNaming(request as FuzzRequest & Wrong),
    }));
  });

  it('passkeys: broken answers to real challenges (sign-in and registration)', {
    timeout: 180_000,
  }, async () => {
    const pools = await passkeyPools(database.db, users.agent.id, 1500);
    const requests = fc
      .record({ answer: hostilePasskeyAnswer(pools), from: remoteAddress })
      .map(({ answer, from }) => {
        const signIn = answer.path.endsWith('/login/verify');
        const request = new FuzzRequest(
          `POST ${answer.path}`,
          'POST',
          answer.path,
          as(signIn ? 'anonymous' : 'agent'),
          from,
          'application/json',
          toJsonText(answer.body),
        );
        return Object.assign(request, { signIn });
      });
    await fuzzFamily('passkey answers', 2, requests, (request) => ({
      answer: (response) => {
        const signIn = (request as FuzzRequest & { signIn: boolean }).signIn;
        // A sign-in answer is signed whole, so any change refuses it; a registration's client data
        // may carry fields WebAuthn allows and the check ignores (tokenBinding), so it may pass.
        const allowed = signIn ? [400, 401, 429] : [201, 400, 401, 409, 429];
        return allowed.includes(response.statusCode)
          ? restErrorBody('POST')(response)
          : `answered ${response.statusCode}, not ${allowed.join(' or ')}`;
      },
    }));
  });

  it('signatures: wrong signers, fields, consent and values (REST and tRPC)', {
    timeout: 180_000,
  }, async () => {
    await fuzzFamily('signature bodies', 3, signaturesRequest(), (request) => ({
      answer: refusedNaming(request as FuzzRequest & Wrong),
    }));
  });

  it('every route and procedure was fuzzed, and every sample names a procedure', () => {
    for (const samplePath of Object.keys(validInputs(world)))
      expect([...ALL_PROCEDURES.keys()]).toContain(samplePath);
    const fuzzed = new Set([...families.values()].flatMap((stats) => [...stats.perTarget.keys()]));
    for (const route of restRoutes) expect(fuzzed).toContain(`${route.method} ${route.path}`);
    for (const procedure of procedures()) expect(fuzzed).toContain(`${procedure.type} ${procedure.path}`);
    // A procedure with input but no valid sample is fuzzed from nothing: its cases would all stop
    // at input validation and never reach the service.
    expect([...proceduresWithoutSample]).toEqual([]);
  });
});
