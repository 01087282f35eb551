import { DEFAULT_PASSWORD } from '../factories';
import { ssoHandoffCode } from '../sso-handoff';
import { freshPasskeyOfA, passkeyRegistration, passkeyRemoval, passkeySignIn } from './passkeys';
import {
  A_OR_ADMINS_BY_ID,
  ADMINS,
  ADMINS_ON_NORTH,
  ANY_USER,
  BROKERAGE,
  DEALS_OF_A,
  type Expected,
  NEW_IN_NORTH,
  NORTH_SETTINGS,
  ONLY_A,
  OPEN_FOR_A,
  OTHER_OFFICE,
  OWNER,
  PERSONAL_OF_A,
  PRIVATE_TO_A,
  PROFILE_OF_A,
  PUBLIC,
} from './rules';
import {
  freshSignableDeal,
  freshSignatureRequest,
  sharedSignatureRequest,
  signatureOf,
  signatureRequestBody,
} from './signatures';
import { enablingCode, freshChallenge, withoutTotp, withTotpOn } from './two-factor';
import type { ActorName } from './world';
import {
  A,
  address,
  bannerDesign,
  clock,
  database,
  emailToken,
  freshAgent,
  freshApiKeyId,
  freshBanner,
  freshCda,
  freshCdaDeal,
  freshCompliantDeal,
  freshDeal,
  freshDealAwaitingReview,
  freshDealWithWaiver,
  freshLibraryItem,
  freshOffice,
  freshPlanId,
  freshTemplate,
  freshWebhook,
  freshWebhookDelivery,
  NEW_PASSWORD,
  newDeal,
  newUser,
  north,
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

/** The reviewed table of the authorization matrix, its tRPC procedures (the policy: ./rules.ts). */

export type ProcedureRow = {
  expect: Expected;
  input?: (actor: ActorName) => unknown;
  /**
   * The route that carries the procedure's input, when JSON cannot: an upload's input holds the
   * body's file, which only its multipart route hands over, so the cell calls the procedure there.
   */
  via?: string;
};

const matrixPlan = () => ({ agentSplit: 70, capCents: 1_800_000, transactionFeeCents: 39_500 });

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
  'oidc.status': { expect: PUBLIC },
  'oidc.exchange': {
    expect: PUBLIC,
    input: async () => ({ code: await ssoHandoffCode(database.db, (await freshAgent()).id, clock.now()) }),
  },
  'auth.confirmPasswordReset': {
    expect: PUBLIC,
    input: async () => ({
      token: await emailToken((await freshAgent()).id, 'reset_password'),
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    }),
  },

  // Two-factor sign-in: every signed-in user's own; the second step of sign-in is public.
  'twoFactor.status': { expect: ANY_USER },
  'twoFactor.totpSetup': { expect: ANY_USER, input: async (actor) => withoutTotp(actor) },
  'twoFactor.totpEnable': { expect: ANY_USER, input: enablingCode },
  'twoFactor.totpDisable': {
    expect: ANY_USER,
    input: async (actor) => {
      await withTotpOn(actor);
      return { password: DEFAULT_PASSWORD };
    },
  },
  'twoFactor.verify': { expect: PUBLIC, input: freshChallenge },
  // The sign-in policy: admins read it, the owner sets it (left off: other rows sign in admins).
  'adminSecurity.get': { expect: ADMINS },
  'adminSecurity.update': { expect: OWNER, input: () => ({ requireTwoFactorForAdmins: false }) },

  // A's profile: A, or an admin; B's attempt names A's id: 403.
  'settings.getUser': { expect: PROFILE_OF_A, input: () => ({ userId: A().id }) },
  'settings.updateUser': { expect: PERSONAL_OF_A, input: () => ({ userId: A().id, ...profileOfA() }) },
  // Needs the current password, which nobody but A should know: admins too are refused.
  'settings.changePassword': { expect: ONLY_A, input: () => ({ userId: A().id, ...passwordChange }) },

  'users.list': { expect: ADMINS, input: () => paging },
  'users.activate': { expect: ADMINS_ON_NORTH, input: async () => ({ id: (await pendingAgent()).id }) },
  'users.create': { expect: NEW_IN_NORTH, input: newUser },
  'users.deactivate': { expect: ADMINS_ON_NORTH, input: async () => ({ id: (await freshAgent()).id }) },
  // A North agent stays in North: a real write, by whoever reaches it.
  'users.update': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshAgent()).id, officeId: north(), coordinatesFor: [] }),
  },

  // Offices: every admin reads those it reaches; only brokerage-wide admins make and change them.
  'offices.list': { expect: ADMINS },
  'offices.create': { expect: BROKERAGE, input: () => ({ name: `Matrix office ${unique()}` }) },
  'offices.update': { expect: NORTH_SETTINGS, input: () => ({ id: north(), reviewTargetHours: 24 }) },
  'offices.delete': { expect: OTHER_OFFICE, input: async () => ({ id: await freshOffice() }) },

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
  'adminTransactions.legalHold': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshDeal()).id, hold: true, reason: 'Subpoena from the county court' }),
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

  // Commission plans: every admin reads them, brokerage-wide admins keep them; a transaction's
  // commission is set by whoever works on the transaction.
  'commission.listPlans': { expect: ADMINS },
  'commission.createPlan': {
    expect: BROKERAGE,
    input: () => ({ ...matrixPlan(), name: `Matrix plan ${unique()}` }),
  },
  'commission.updatePlan': {
    expect: BROKERAGE,
    input: async () => ({ id: await freshPlanId(), ...matrixPlan(), name: `Matrix plan ${unique()}` }),
  },
  'commission.setForTransaction': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => ({ id: (await freshDeal()).id, grossCommissionCents: 1_250_000 }),
  },
  // CDAs: the desk issues and pays them on the files it reaches; whoever sees the file reads them.
  'commission.issueCda': {
    expect: ADMINS_ON_NORTH,
    input: async () => ({ id: (await freshCdaDeal()).id }),
  },
  'commission.listCdas': { expect: A_OR_ADMINS_BY_ID, input: () => ({ id: world.deal.id }) },
  'commission.markCdaPaid': { expect: ADMINS_ON_NORTH, input: () => freshCda() },

  // Signature requests: whoever works on the file; the signing calls are public (the token).
  'signatures.create': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => {
      const deal = await freshSignableDeal();
      return { id: deal.id, ...signatureRequestBody(deal.formId) };
    },
  },
  'signatures.list': { expect: A_OR_ADMINS_BY_ID, input: () => ({ id: world.deal.id }) },
  'signatures.remind': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => {
      const { id, reqId } = await freshSignatureRequest();
      return { id, reqId };
    },
  },
  'signatures.void': {
    expect: A_OR_ADMINS_BY_ID,
    input: async () => {
      const { id, reqId } = await freshSignatureRequest();
      return { id, reqId, reason: 'Matrix' };
    },
  },
  'signatures.view': {
    expect: PUBLIC,
    input: async () => ({ token: (await sharedSignatureRequest()).token }),
  },
  'signatures.sign': {
    expect: PUBLIC,
    input: async () => {
      const request = await freshSignatureRequest();
      return { token: request.token, ...signatureOf(request) };
    },
  },
  'signatures.decline': {
    expect: PUBLIC,
    input: async () => ({ token: (await freshSignatureRequest()).token, reason: 'Matrix' }),
  },

  // Passkeys: everyone's own; signing in with one is public; another's passkey is not there.
  'passkeys.registerOptions': { expect: ANY_USER },
  'passkeys.registerVerify': { expect: ANY_USER, input: passkeyRegistration },
  'passkeys.loginOptions': { expect: PUBLIC },
  'passkeys.loginVerify': { expect: PUBLIC, input: passkeySignIn },
  'passkeys.list': { expect: ANY_USER },
  'passkeys.rename': {
    expect: PRIVATE_TO_A,
    input: async () => ({ id: await freshPasskeyOfA(), name: 'Renamed' }),
  },
  'passkeys.remove': { expect: PRIVATE_TO_A, input: passkeyRemoval },

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
  'exports.payouts': { expect: ADMINS, input: () => ({ from: '2026-11-01', to: '2026-11-30' }) },

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
  'webhooks.get': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook() }) },
  'webhooks.create': {
    expect: BROKERAGE,
    input: () => ({ url: WEBHOOK_URL, events: ['transaction.created'] }),
  },
  'webhooks.update': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook(), active: false }) },
  'webhooks.delete': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook() }) },
  'webhooks.deliveries': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook(), ...paging }) },
  'webhooks.retry': { expect: BROKERAGE, input: freshWebhookDelivery },
  'webhooks.test': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook() }) },
  'webhooks.rotateSecret': { expect: BROKERAGE, input: async () => ({ id: await freshWebhook() }) },
  'webhooks.events': { expect: BROKERAGE, input: () => ({ type: 'ping', limit: 10 }) },

  // The audit trail spans every office: reading it and checking its chain are for brokerage-wide admins.
  'audit.verify': { expect: BROKERAGE },
  'audit.list': { expect: BROKERAGE, input: () => ({ action: 'transaction.create', limit: 5 }) },
  'exports.audit': { expect: BROKERAGE, input: () => ({ from: '2026-11-01', to: '2026-11-30' }) },
  'archives.status': { expect: A_OR_ADMINS_BY_ID, input: () => ({ id: world.deal.id }) },
  'archives.publicKey': { expect: PUBLIC },
  'archives.verify': { expect: ANY_USER, via: 'POST /api/archive/verify' },
};
