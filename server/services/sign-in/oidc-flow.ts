import * as openid from 'openid-client';
import { oidcMessages } from '../../../shared/oidc-messages';
import { AppError } from '../../errors';
import type { OidcSettings } from '../../oidc-config';
import { createSealer, type Sealer } from '../../security/sealing';
import { hashSecretToken, newSecretToken } from '../../security/secret-tokens';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { accountForIdentity, type SsoIdentity } from './oidc-accounts';
import { secondFactorOfAmr } from './oidc-amr';
import { firstLineOf, providerConfiguration, unavailable } from './oidc-discovery';
import { type HandoffOutcome, handOff } from './oidc-handoff';

/**
 * Single sign-on with an OpenID provider: the authorization code flow with PKCE (S256), state
 * and nonce (openid-client checks the ID token: signature, issuer, audience, expiry, nonce).
 *
 * start: the verifier, nonce and return path are stored (oidc_flows) under the state's hash, for
 *   FLOW_TTL_MS, bound to the browser by a random key the browser keeps in an HttpOnly cookie
 *   (the plugin sets it); the browser goes to the provider.
 * callback: the row is taken (deleted) once, the browser's key must match, the code is
 *   exchanged and the ID token validated; the verified e-mail picks the account
 *   (oidc-accounts.ts). Every outcome, success or refusal, is handed to the browser through a
 *   one-time code (oidc-handoff.ts), so the sign-in page shows what happened.
 */

export const FLOW_TTL_MS = 10 * 60 * 1000;
export const CALLBACK_PATH = '/api/auth/oidc/callback';
const SCOPE = 'openid email profile';
const RETURN_TO_MAX = 2000;

export function settingsOf(ctx: ServiceContext): OidcSettings {
  const settings = ctx.deps.config.oidc;
  if (!settings) throw new AppError('NOT_FOUND', oidcMessages.notEnabled);
  return settings;
}

/** What the sign-in page needs to show the button; never asks the provider. */
export function ssoStatus(ctx: ServiceContext): { enabled: boolean; name: string } {
  const settings = ctx.deps.config.oidc;
  return { enabled: settings !== undefined, name: settings?.name ?? '' };
}

async function takeLimit(ctx: ServiceContext, step: string): Promise<void> {
  if (await ctx.deps.limits.take(['ssoPerIp', ctx.ip])) return;
  ctx.log.warn({ event: 'sign-in', method: 'sso', outcome: 'rate-limited', step }, 'sign-in refused');
  throw await ctx.deps.limits.refused(['ssoPerIp', ctx.ip]);
}

const redirectUri = (ctx: ServiceContext) => `${ctx.deps.config.appUrl}${CALLBACK_PATH}`;
const sealers = new Map<string, Sealer>();
/** The PKCE verifier is sealed at rest with a key of its own, derived once per secret. */
function verifierSealer(ctx: ServiceContext): Sealer {
  const secret = ctx.deps.config.jwtSecret ?? '';
  let sealer = sealers.get(secret);
  if (!sealer) {
    sealer = createSealer(secret, 'oidc-flow-v1');
    sealers.set(secret, sealer);
  }
  return sealer;
}

/** A path of this site to return to after sign-in, or null; anything that could leave it is refused. */
export function safeReturnTo(raw: string | undefined): string | null | 'invalid' {
  if (raw === undefined || raw === '') return null;
  if (raw.length > RETURN_TO_MAX || !raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\'))
    return 'invalid';
  if ([...raw].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f))
    return 'invalid';
  const base = 'https://portal.invalid';
  if (!URL.canParse(raw, base) || new URL(raw, base).origin !== base) return 'invalid';
  return raw;
}

export type StartedSignIn = { location: string; browserKey: string };

export async function startSignIn(
  ctx: ServiceContext,
  input: { returnTo?: string | undefined },
): Promise<StartedSignIn> {
  const settings = settingsOf(ctx);
  await takeLimit(ctx, 'start');
  const returnTo = safeReturnTo(input.returnTo);
  if (returnTo === 'invalid')
    throw new AppError('BAD_REQUEST', oidcMessages.invalidReturnTo, [
      { path: 'returnTo', message: oidcMessages.invalidReturnTo },
    ]);
  const configuration = await providerConfiguration(ctx, settings);

  const codeVerifier = openid.randomPKCECodeVerifier();
  const state = openid.randomState();
  const nonce = openid.randomNonce();
  const browserKey = newSecretToken();
  const now = ctx.deps.clock.now();
  await ctx.db.$transaction(async (tx) => {
    await tx.oidcFlow.deleteMany({ where: { expiresAt: { lte: now } } });
    await tx.oidcFlow.create({
      data: {
        stateHash: hashSecretToken(state),
        browserHash: hashSecretToken(browserKey),
        codeVerifier: verifierSealer(ctx).seal(codeVerifier),
        nonce,
        returnTo,
        expiresAt: new Date(now.getTime() + FLOW_TTL_MS),
      },
    });
  });
  const url = openid.buildAuthorizationUrl(configuration, {
    redirect_uri: redirectUri(ctx),
    scope: SCOPE,
    code_challenge: await openid.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  return { location: url.href, browserKey };
}

type Refusal = {
  code: 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN' | 'SERVICE_UNAVAILABLE';
  message: string;
};

class SignInRefused extends Error {
  constructor(
    readonly refusal: Refusal,
    readonly outcome: string,
  ) {
    super(refusal.message);
  }
}

const refuse = (outcome: string, code: Refusal['code'], message: string) =>
  new SignInRefused({ code, message }, outcome);

/**
 * The provider sent the browser back. `query` is the callback's query string as received (the
 * code, state, iss or an error). Answers where the browser goes next: always the landing page
 * with a one-time code, whose exchange gives the session or says why not.
 */
export async function finishSignIn(
  ctx: ServiceContext,
  input: { query: string; browserKey: string | undefined },
): Promise<string> {
  const settings = settingsOf(ctx);
  await takeLimit(ctx, 'callback');
  const now = ctx.deps.clock.now();
  const params = new URLSearchParams(input.query);
  let returnTo: string | null = null;
  let outcome: HandoffOutcome;
  let audit: { userId: string; secondFactor: string | null; amr: string[] } | null = null;
  try {
    const flow = await takeFlow(ctx, params.get('state'), input.browserKey, now);
    returnTo = flow.returnTo;
    const providerError = params.get('error');
    if (providerError !== null) {
      ctx.log.warn({ event: 'sso-callback', providerError: providerError.slice(0, 100) }, 'provider refused');
      throw refuse('provider-refused', 'UNAUTHORIZED', oidcMessages.refusedByProvider(settings.name));
    }
    const { identity, amr } = await verifiedIdentity(ctx, settings, input.query, flow);
    const account = await accountForIdentity(ctx, settings, identity);
    if ('refusal' in account)
      throw refuse(account.refusal.outcome, account.refusal.code, account.refusal.message);
    const secondFactor = secondFactorOfAmr(amr);
    outcome = { userId: account.userId, secondFactor };
    audit = {
      userId: account.userId,
      secondFactor,
      amr: amr
        .filter((v) => typeof v === 'string')
        .slice(0, 10)
        .map((v) => v.slice(0, 20)),
    };
    ctx.log.info(
      { event: 'sign-in', method: 'sso', outcome: 'provider-verified', userId: account.userId, secondFactor },
      'single sign-on verified; session opens at the exchange',
    );
  } catch (error) {
    if (!(error instanceof SignInRefused)) throw error;
    ctx.log.warn({ event: 'sign-in', method: 'sso', outcome: error.outcome }, 'sign-in refused');
    outcome = { error: error.refusal };
  }
  const done = outcome;
  return ctx.db.$transaction(async (tx) => {
    if (audit) {
      await recordAudit(tx, {
        actorId: audit.userId,
        action: 'user.sso-sign-in',
        entity: 'User',
        entityId: audit.userId,
        after: { provider: settings.name, secondFactor: audit.secondFactor, amr: audit.amr },
      });
    }
    return handOff(tx, now, done, returnTo);
  });
}

type Flow = { codeVerifier: string; nonce: string; state: string; returnTo: string | null };

/** The flow this state began, taken once; refused when unknown, used, expired or another browser's. */
async function takeFlow(
  ctx: ServiceContext,
  state: string | null,
  browserKey: string | undefined,
  now: Date,
): Promise<Flow> {
  const expired = () => refuse('flow-expired', 'BAD_REQUEST', oidcMessages.flowExpired);
  if (!state || state.length > 500) throw expired();
  const stateHash = hashSecretToken(state);
  const rows = await ctx.db.oidcFlow.findMany({ where: { stateHash }, take: 1 });
  const row = rows[0];
  if (!row) throw expired();
  const taken = await ctx.db.oidcFlow.deleteMany({ where: { stateHash } });
  if (taken.count !== 1 || row.expiresAt <= now) throw expired();
  if (!browserKey || hashSecretToken(browserKey) !== row.browserHash) {
    ctx.log.warn({ event: 'sso-callback' }, 'callback from a browser that did not start this sign-in');
    throw expired();
  }
  let codeVerifier: string;
  try {
    codeVerifier = verifierSealer(ctx).open(row.codeVerifier);
  } catch {
    throw expired();
  }
  return { codeVerifier, nonce: row.nonce, state, returnTo: row.returnTo };
}

/** Whether the provider could not be reached (then 503), as opposed to an answer we refused. */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'AbortError' || error.name === 'TimeoutError') return true;
  if (error instanceof TypeError && /fetch failed/i.test(error.message)) return true;
  const cause = (error as { cause?: unknown }).cause;
  return cause !== undefined && cause !== error && isUnreachable(cause);
}

async function verifiedIdentity(
  ctx: ServiceContext,
  settings: OidcSettings,
  query: string,
  flow: Flow,
): Promise<{ identity: SsoIdentity; amr: unknown[] }> {
  let configuration: openid.Configuration;
  try {
    configuration = await providerConfiguration(ctx, settings);
  } catch (error) {
    throw refuse('provider-unavailable', 'SERVICE_UNAVAILABLE', (error as Error).message);
  }
  try {
    const tokens = await openid.authorizationCodeGrant(
      configuration,
      new URL(`${redirectUri(ctx)}?${query}`),
      {
        pkceCodeVerifier: flow.codeVerifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      },
    );
    const claims = tokens.claims();
    if (!claims) throw new Error('no ID token');
    // Providers that follow the core spec's rule put e-mail only in the userinfo answer (which
    // openid-client checks is about the ID token's subject).
    const source =
      typeof claims.email === 'string' && typeof claims.email_verified === 'boolean'
        ? claims
        : await openid.fetchUserInfo(configuration, tokens.access_token, claims.sub);
    if (typeof source.email !== 'string' || source.email.length > 254 || !source.email.includes('@'))
      throw refuse('no-email', 'FORBIDDEN', oidcMessages.noEmail(settings.name));
    if (source.email_verified !== true)
      throw refuse('email-unverified', 'FORBIDDEN', oidcMessages.emailUnverified(settings.name));
    const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
    return {
      identity: {
        email: source.email.trim(),
        givenName: text(source.given_name),
        familyName: text(source.family_name),
        name: text(source.name),
      },
      amr: Array.isArray(claims.amr) ? claims.amr : [],
    };
  } catch (error) {
    if (error instanceof SignInRefused) throw error;
    ctx.log.warn({ event: 'sso-callback', error: firstLineOf(error) }, 'single sign-on not completed');
    if (isUnreachable(error))
      throw refuse('provider-unavailable', 'SERVICE_UNAVAILABLE', unavailable().message);
    throw refuse('provider-error', 'UNAUTHORIZED', oidcMessages.failed);
  }
}
