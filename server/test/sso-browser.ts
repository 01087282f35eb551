import type { FastifyInstance } from 'fastify';

/**
 * A browser's part of single sign-on in plain HTTP, for tests: the portal through app.inject, the
 * provider through fetch with a cookie jar, every redirect followed by hand until the provider
 * sends the browser back to the portal's callback.
 */

export const CALLBACK = '/api/auth/oidc/callback';

/** GET /api/auth/oidc/start: the provider's address and the cookie that binds the sign-in. */
export async function startAt(app: FastifyInstance, returnTo?: string) {
  const query = returnTo === undefined ? '' : `?${new URLSearchParams({ returnTo })}`;
  const res = await app.inject({ method: 'GET', url: `/api/auth/oidc/start${query}` });
  const setCookie = String(res.headers['set-cookie'] ?? '');
  return {
    res,
    location: String(res.headers.location ?? ''),
    cookie: setCookie.split(';', 1)[0] ?? '',
    setCookie,
  };
}

/** Follows the provider's redirects (its sign-in and consent included) to the portal's callback URL. */
export async function authorizeAtProvider(authorizeUrl: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(authorizeUrl);
  for (let hop = 0; hop < 20; hop++) {
    if (url.pathname === CALLBACK) return url;
    const res = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';', 1);
      const at = pair.indexOf('=');
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = res.headers.get('location');
    if (!location)
      throw new Error(`the provider stopped at ${url.pathname} with ${res.status}: ${await res.text()}`);
    url = new URL(location, url);
  }
  throw new Error('too many redirects at the provider');
}

/** The callback as the browser calls it: where it is sent next (the landing page with its code). */
export async function callBack(app: FastifyInstance, callbackUrl: URL, cookie: string | null) {
  const res = await app.inject({
    method: 'GET',
    url: `${callbackUrl.pathname}${callbackUrl.search}`,
    headers: cookie ? { cookie } : {},
  });
  const location = String(res.headers.location ?? '');
  const fragment = new URLSearchParams(location.split('#')[1] ?? '');
  return { res, location, code: fragment.get('code') ?? '', next: fragment.get('next') };
}

/** POST /api/auth/oidc/exchange. */
export function exchange(app: FastifyInstance, code: string) {
  return app.inject({ method: 'POST', url: '/api/auth/oidc/exchange', payload: { code } });
}

/** The whole way: start, the provider, the callback, the exchange. */
export async function signInThroughProvider(app: FastifyInstance, returnTo?: string) {
  const started = await startAt(app, returnTo);
  if (started.res.statusCode !== 302)
    throw new Error(`start answered ${started.res.statusCode}: ${started.res.body}`);
  const callbackUrl = await authorizeAtProvider(started.location);
  const landed = await callBack(app, callbackUrl, started.cookie);
  return { started, callbackUrl, landed, answer: await exchange(app, landed.code) };
}
