import * as openid from 'openid-client';
import { oidcMessages } from '../../../shared/oidc-messages';
import { AppError } from '../../errors';
import { isLoopbackHost, type OidcSettings } from '../../oidc-config';
import type { ServiceContext } from '../context';

/**
 * The provider's configuration (its discovery document and keys), read lazily at the first
 * sign-in rather than at start-up, so the portal starts and serves passwords while the provider
 * is down. A success is kept for the process's life (openid-client refetches the keys when a
 * token names an unknown one); a failure is kept for RETRY_AFTER_MS only, so a provider that
 * comes back is used again without a restart, and a provider that is down is not asked on
 * every click. Meanwhile sign-ins answer 503 with a clear message.
 */

/** How long a failed discovery is remembered before the next sign-in asks again. */
export const RETRY_AFTER_MS = 5_000;
/** Every request to the provider gives up after this long (openid-client's timeout, seconds). */
const PROVIDER_TIMEOUT_SECONDS = 5;

type Cached =
  | { kind: 'pending'; promise: Promise<openid.Configuration> }
  | { kind: 'ready'; configuration: openid.Configuration }
  | { kind: 'failed'; at: number };

/** Per settings object: each app's configuration is its own (tests build several). */
const cache = new WeakMap<OidcSettings, Cached>();

export function unavailable(cause?: unknown): AppError {
  const error = new AppError('SERVICE_UNAVAILABLE', oidcMessages.unavailable);
  if (cause !== undefined) error.cause = cause;
  return error;
}

/** Plain http only for a provider on this machine (config.ts refuses any other http issuer). */
function allowsHttp(settings: OidcSettings): boolean {
  const url = new URL(settings.issuer);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

async function discover(settings: OidcSettings): Promise<openid.Configuration> {
  const configuration = await openid.discovery(
    new URL(settings.issuer),
    settings.clientId,
    { client_secret: settings.clientSecret },
    openid.ClientSecretBasic(settings.clientSecret),
    {
      timeout: PROVIDER_TIMEOUT_SECONDS,
      ...(allowsHttp(settings) ? { execute: [openid.allowInsecureRequests] } : {}),
    },
  );
  configuration.timeout = PROVIDER_TIMEOUT_SECONDS;
  return configuration;
}

/** The provider's configuration, or 503 (the provider could not be reached or answered nonsense). */
export async function providerConfiguration(
  ctx: ServiceContext,
  settings: OidcSettings,
): Promise<openid.Configuration> {
  const now = ctx.deps.clock.now().getTime();
  const cached = cache.get(settings);
  if (cached?.kind === 'ready') return cached.configuration;
  if (cached?.kind === 'failed' && now - cached.at < RETRY_AFTER_MS) throw unavailable();
  if (cached?.kind === 'pending') return cached.promise.catch((cause) => Promise.reject(unavailable(cause)));

  const promise = discover(settings);
  cache.set(settings, { kind: 'pending', promise });
  try {
    const configuration = await promise;
    cache.set(settings, { kind: 'ready', configuration });
    return configuration;
  } catch (cause) {
    cache.set(settings, { kind: 'failed', at: now });
    ctx.log.warn(
      { event: 'sso-discovery', error: firstLineOf(cause) },
      'single sign-on provider unavailable; retried at a later sign-in',
    );
    throw unavailable(cause);
  }
}

/** What a provider failure may say in our log: its kind and first line, never a token or a stack. */
export function firstLineOf(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown error';
  const code = (error as { code?: unknown }).code;
  const line = error.message.split('\n', 1)[0]?.slice(0, 200) ?? '';
  return `${error.name}${typeof code === 'string' ? ` ${code}` : ''}: ${line}`;
}
