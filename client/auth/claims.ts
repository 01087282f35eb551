import type { ROLES } from '../../shared/constants';
import { getAccessToken } from './session';

export type Role = (typeof ROLES)[number];

/**
 * The payload of a JWT, read without verifying it: the client only uses the role to choose which
 * navigation to show; every permission is enforced by the server, which does verify the token.
 */
function decodePayload(token: string): unknown {
  const payload = token.split('.')[1];
  if (!payload) throw new Error('not a JWT');
  const base64 = payload.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const binary = window.atob(padded);
  // atob yields one character per byte; TextDecoder turns the bytes back into UTF-8 text.
  const bytes = Uint8Array.from(binary, (character) => character.charCodeAt(0));
  return JSON.parse(new TextDecoder().decode(bytes));
}

// The shell reads the role on every render; one bad token is worth one log line, not hundreds.
let lastUnreadableToken: string | null = null;

/** `admin` only when the token says so; a missing or unreadable token means the plain user view. */
export function roleFromToken(token: string | null): Role {
  if (!token) return 'user';
  try {
    const payload = decodePayload(token);
    if (typeof payload === 'object' && payload !== null && 'role' in payload && payload.role === 'admin') {
      return 'admin';
    }
    return 'user';
  } catch {
    // A failed decode is logged only, never shown to the user.
    if (token !== lastUnreadableToken) {
      lastUnreadableToken = token;
      console.warn('The stored access token could not be decoded; showing the user navigation.');
    }
    return 'user';
  }
}

export function storedRole(): Role {
  return roleFromToken(getAccessToken());
}
