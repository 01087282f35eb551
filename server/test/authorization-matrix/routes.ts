import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import { DEFAULT_PASSWORD } from '../factories';
import { ssoHandoffCode } from '../sso-handoff';
import { sharedArchivedDeal } from './archives';
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
  uniform,
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
  clock,
  database,
  emailToken,
  freshAgent,
  freshApiKeyId,
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
 * The reviewed table of the authorization matrix, its HTTP routes: every one the app registers but
 * /trpc (the policy: ./rules.ts).
 */

/** `upload`: a multipart body with a tiny PDF (true), a photo ('photo') or a zip ('zip') in its `file` part. */
export type RouteRequest = { url: string; payload?: unknown; upload?: true | 'photo' | 'zip' };
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
  'GET /api/auth/2fa': { expect: ANY_USER, request: get('/api/auth/2fa') },
  'POST /api/auth/2fa/totp/setup': {
    expect: ANY_USER,
    request: async (actor) => {
      await withoutTotp(actor);
      return { url: '/api/auth/2fa/totp/setup' };
    },
  },
  'POST /api/auth/2fa/totp/enable': {
    expect: ANY_USER,
    request: async (actor) => ({ url: '/api/auth/2fa/totp/enable', payload: await enablingCode(actor) }),
  },
  'POST /api/auth/2fa/totp/disable': {
    expect: ANY_USER,
    request: async (actor) => {
      await withTotpOn(actor);
      return { url: '/api/auth/2fa/totp/disable', payload: { password: DEFAULT_PASSWORD } };
    },
  },
  'POST /api/auth/2fa/verify': {
    expect: PUBLIC,
    request: async () => ({ url: '/api/auth/2fa/verify', payload: await freshChallenge() }),
  },
  'GET /api/admin/security': { expect: ADMINS, request: get('/api/admin/security') },
  'PUT /api/admin/security': {
    expect: OWNER,
    request: () => ({ url: '/api/admin/security', payload: { requireTwoFactorForAdmins: false } }),
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

  // Single sign-on: public. The matrix's app has no provider set up, so the redirects answer 404
  // there (server/services/sign-in/oidc.test.ts drives them against a real provider).
  'GET /api/auth/oidc': { expect: PUBLIC, request: get('/api/auth/oidc') },
  'POST /api/auth/oidc/exchange': {
    expect: PUBLIC,
    request: async () => ({
      url: '/api/auth/oidc/exchange',
      payload: { code: await ssoHandoffCode(database.db, (await freshAgent()).id, clock.now()) },
    }),
  },
  'GET /api/auth/oidc/start': { expect: uniform(404), request: get('/api/auth/oidc/start') },
  'GET /api/auth/oidc/callback': {
    expect: uniform(404),
    request: get('/api/auth/oidc/callback?code=c&state=s'),
  },

  'GET /api/settings/getUser/:userId': {
    expect: PROFILE_OF_A,
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
  'POST /api/users': { expect: NEW_IN_NORTH, request: () => ({ url: '/api/users', payload: newUser() }) },
  'PUT /api/users/:id': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({ url: `/api/users/${(await freshAgent()).id}`, payload: { officeId: north() } }),
  },
  'GET /api/admin/offices': { expect: ADMINS, request: get('/api/admin/offices') },
  'POST /api/admin/offices': {
    expect: BROKERAGE,
    request: () => ({ url: '/api/admin/offices', payload: { name: `Matrix office ${unique()}` } }),
  },
  'PUT /api/admin/offices/:id': {
    expect: NORTH_SETTINGS,
    request: () => ({ url: `/api/admin/offices/${north()}`, payload: { retentionYears: 7 } }),
  },
  'DELETE /api/admin/offices/:id': {
    expect: OTHER_OFFICE,
    request: async () => ({ url: `/api/admin/offices/${await freshOffice()}` }),
  },
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
  'PUT /api/admin/transactions/:id/legal-hold': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({
      url: `/api/admin/transactions/${(await freshDeal()).id}/legal-hold`,
      payload: { hold: true, reason: 'Subpoena from the county court' },
    }),
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
  'GET /api/admin/commission-plans': { expect: ADMINS, request: get('/api/admin/commission-plans') },
  'POST /api/admin/commission-plans': {
    expect: BROKERAGE,
    request: () => ({
      url: '/api/admin/commission-plans',
      payload: { name: `Matrix plan ${unique()}`, agentSplit: 80, capCents: null },
    }),
  },
  'PUT /api/admin/commission-plans/:id': {
    expect: BROKERAGE,
    request: async () => ({
      url: `/api/admin/commission-plans/${await freshPlanId()}`,
      payload: {
        name: `Matrix plan ${unique()}`,
        agentSplit: 75,
        capCents: 1_600_000,
        transactionFeeCents: 0,
      },
    }),
  },
  'PUT /api/transactions/:id/commission': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => ({
      url: `/api/transactions/${(await freshDeal()).id}/commission`,
      payload: { grossCommissionCents: 1_250_000, referral: { name: 'Harbor Referrals LLC', percent: 25 } },
    }),
  },
  'POST /api/admin/transactions/:id/cda': {
    expect: ADMINS_ON_NORTH,
    request: async () => ({ url: `/api/admin/transactions/${(await freshCdaDeal()).id}/cda`, payload: {} }),
  },
  'GET /api/transactions/:id/cda': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({ url: `/api/transactions/${world.deal.id}/cda` }),
  },
  'POST /api/admin/transactions/:id/cda/:cdaId/paid': {
    expect: ADMINS_ON_NORTH,
    request: async () => {
      const { id, cdaId } = await freshCda();
      return { url: `/api/admin/transactions/${id}/cda/${cdaId}/paid`, payload: {} };
    },
  },
  // Signature requests: whoever works on the file sends, lists, reminds and voids them; the
  // signing paths are public, the link's token being the only credential.
  'POST /api/transactions/:id/signature-requests': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => {
      const deal = await freshSignableDeal();
      return {
        url: `/api/transactions/${deal.id}/signature-requests`,
        payload: signatureRequestBody(deal.formId),
      };
    },
  },
  'GET /api/transactions/:id/signature-requests': {
    expect: A_OR_ADMINS_BY_ID,
    request: () => ({ url: `/api/transactions/${world.deal.id}/signature-requests` }),
  },
  'POST /api/transactions/:id/signature-requests/:reqId/remind': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => {
      const { id, reqId } = await freshSignatureRequest();
      return { url: `/api/transactions/${id}/signature-requests/${reqId}/remind`, payload: {} };
    },
  },
  'POST /api/transactions/:id/signature-requests/:reqId/void': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => {
      const { id, reqId } = await freshSignatureRequest();
      return {
        url: `/api/transactions/${id}/signature-requests/${reqId}/void`,
        payload: { reason: 'Matrix' },
      };
    },
  },
  'GET /api/sign/:token': {
    expect: PUBLIC,
    request: async () => ({ url: `/api/sign/${(await sharedSignatureRequest()).token}` }),
  },
  'GET /api/sign/:token/document': {
    expect: PUBLIC,
    request: async () => ({ url: `/api/sign/${(await sharedSignatureRequest()).token}/document` }),
  },
  'GET /api/sign/certificate': { expect: PUBLIC, request: get('/api/sign/certificate') },
  'POST /api/sign/:token': {
    expect: PUBLIC,
    request: async () => {
      const request = await freshSignatureRequest();
      return { url: `/api/sign/${request.token}`, payload: signatureOf(request) };
    },
  },
  'POST /api/sign/:token/decline': {
    expect: PUBLIC,
    request: async () => ({
      url: `/api/sign/${(await freshSignatureRequest()).token}/decline`,
      payload: { reason: 'Matrix' },
    }),
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

  'POST /api/auth/passkeys/register/options': {
    expect: ANY_USER,
    request: () => ({ url: '/api/auth/passkeys/register/options', payload: {} }),
  },
  'POST /api/auth/passkeys/register/verify': {
    expect: ANY_USER,
    request: async (actor) => ({
      url: '/api/auth/passkeys/register/verify',
      payload: await passkeyRegistration(actor),
    }),
  },
  'POST /api/auth/passkeys/login/options': {
    expect: PUBLIC,
    request: () => ({ url: '/api/auth/passkeys/login/options', payload: {} }),
  },
  'POST /api/auth/passkeys/login/verify': {
    expect: PUBLIC,
    request: async () => ({ url: '/api/auth/passkeys/login/verify', payload: await passkeySignIn() }),
  },
  'GET /api/auth/passkeys': { expect: ANY_USER, request: get('/api/auth/passkeys') },
  'PUT /api/auth/passkeys/:id': {
    expect: PRIVATE_TO_A,
    request: async () => ({
      url: `/api/auth/passkeys/${await freshPasskeyOfA()}`,
      payload: { name: 'Renamed' },
    }),
  },
  'DELETE /api/auth/passkeys/:id': {
    expect: PRIVATE_TO_A,
    request: async () => {
      const { id, password } = await passkeyRemoval();
      return { url: `/api/auth/passkeys/${id}`, payload: { password } };
    },
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

  'GET /api/admin/audit/verify': { expect: BROKERAGE, request: get('/api/admin/audit/verify') },
  'GET /api/admin/audit': { expect: BROKERAGE, request: get('/api/admin/audit?action=transaction.create') },
  'GET /api/admin/audit.csv': { expect: BROKERAGE, request: get('/api/admin/audit.csv?from=2026-11-01') },
  'GET /api/admin/webhooks': { expect: BROKERAGE, request: get('/api/admin/webhooks') },
  'POST /api/admin/webhooks': {
    expect: BROKERAGE,
    request: () => ({
      url: '/api/admin/webhooks',
      payload: { url: WEBHOOK_URL, events: ['user.registered'] },
    }),
  },
  'GET /api/admin/webhooks/:id': {
    expect: BROKERAGE,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}` }),
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
  'POST /api/admin/webhooks/:id/rotate-secret': {
    expect: BROKERAGE,
    request: async () => ({ url: `/api/admin/webhooks/${await freshWebhook()}/rotate-secret`, payload: {} }),
  },
  'GET /api/admin/events': { expect: BROKERAGE, request: get('/api/admin/events?type=ping&limit=10') },
  // CSV exports: admins only, as their procedures say (EXPORT_ROUTE_PROCEDURES).
  'GET /api/admin/transactions.csv': {
    expect: ADMINS,
    request: get('/api/admin/transactions.csv?status=missing&query=Harbor'),
  },
  'GET /api/admin/review-queue.csv': { expect: ADMINS, request: get('/api/admin/review-queue.csv') },
  'GET /api/users.csv': { expect: ADMINS, request: get('/api/users.csv?query=Agent') },
  'GET /api/admin/payouts.csv': {
    expect: ADMINS,
    request: get('/api/admin/payouts.csv?from=2026-11-01&to=2026-11-30'),
  },

  // Archives: the zip for whom the file reaches (archives.status decides), the key for anyone,
  // the verifier for anyone signed in.
  'GET /api/transactions/:id/archive': {
    expect: A_OR_ADMINS_BY_ID,
    request: async () => ({ url: `/api/transactions/${(await sharedArchivedDeal()).id}/archive` }),
  },
  'GET /api/archive/public-key': { expect: PUBLIC, request: get('/api/archive/public-key') },
  'POST /api/archive/verify': {
    expect: ANY_USER,
    request: () => ({ url: '/api/archive/verify', upload: 'zip' }),
  },

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
  'POST /api/archive/verify': 'archives.verify',
};
/** The CSV exports likewise call one procedure each before sending a byte (server/plugins/exports.ts). */
export const EXPORT_ROUTE_PROCEDURES: Record<string, string> = {
  'GET /api/admin/transactions.csv': 'exports.transactions',
  'GET /api/admin/review-queue.csv': 'exports.reviewQueue',
  'GET /api/users.csv': 'exports.users',
  'GET /api/admin/payouts.csv': 'exports.payouts',
  'GET /api/admin/audit.csv': 'exports.audit',
  // Not CSV, but the same shape: a stream sent once its procedure has let the caller through.
  'GET /api/transactions/:id/archive': 'archives.status',
};
