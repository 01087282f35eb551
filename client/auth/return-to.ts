import { paths } from '../paths';

/**
 * Where a signed-out visitor was going, carried through sign-in as `/auth/login?next=<path>`: an
 * e-mailed `/home/transactions/<id>` opened while signed out lands on that transaction after
 * sign-in, not on /home. Only a path of this site is ever followed: `next` comes from the
 * address bar, so anything that could leave the origin (`//host`, `/\host`, `https:`,
 * `javascript:`) is dropped and sign-in goes to /home as before.
 */

const NEXT_PARAM = 'next';
/** A stand-in origin for parsing: only whether the result stays on it matters. */
const SAME_ORIGIN = 'https://portal.invalid';

/** The path, query and hash of `raw` when it is a page of this site worth returning to; else null. */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw?.startsWith('/') || raw.includes('\\') || hasControlCharacter(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, SAME_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== SAME_ORIGIN) return null;
  // Back to a sign-in screen, or to / (which only redirects), is no destination.
  if (url.pathname === paths.root || url.pathname.startsWith('/auth/')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A tab or line break would be dropped by the URL parser, turning `/\n/host` into `//host`. */
const hasControlCharacter = (text: string) => [...text].some((character) => character.charCodeAt(0) < 0x20);

/** The sign-in page that returns to `target` afterwards (plain sign-in when there is none). */
export function loginPathFor(target: string | null | undefined): string {
  const next = safeReturnPath(target);
  if (next === null || next === paths.home) return paths.login;
  return `${paths.login}?${new URLSearchParams({ [NEXT_PARAM]: next })}`;
}

/** Where sign-in goes: the `next` of the sign-in page's query when it is safe, else /home. */
export function afterSignInPath(search: string): string {
  return safeReturnPath(new URLSearchParams(search).get(NEXT_PARAM)) ?? paths.home;
}

/** The page the browser is on now, with its query and hash (for the 401 that ends a session). */
export function currentPagePath(): string {
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}
