import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { webhookMessages } from '../../shared/webhook-messages';

/**
 * Where a webhook may be sent: only to public unicast addresses, so an admin (or a
 * stolen admin session, or an API key) cannot make the server call into its own network: the
 * database, the cloud's metadata service at 169.254.169.254, an internal admin page. The check
 * runs when a URL is saved and again before every delivery on the addresses the name resolves to
 * then, and the connection goes to the address that was checked (see http.ts), so a name that
 * resolves to a public address at the check and a private one a moment later (DNS rebinding)
 * gains nothing.
 */

export type ResolvedAddress = { address: string; family: 4 | 6 };

/**
 * Public means ipaddr.js's `unicast` range: not loopback, private (10/8, 172.16/12, 192.168/16,
 * fc00::/7), link-local (169.254/16, fe80::/10), multicast, carrier-grade NAT, unspecified,
 * broadcast or reserved, nor an IPv6 form that embeds an IPv4 address (6to4, Teredo, NAT64);
 * an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 address it maps.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

/** The host of a URL as DNS or the socket wants it: IPv6 literals without their brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** ipaddr.js's ranges as an admin reads them; anything else not public is "reserved". */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  linkLocal: 'link-local',
  multicast: 'multicast',
  carrierGradeNat: 'carrier-grade NAT',
  unspecified: 'unspecified',
  broadcast: 'broadcast',
};

/** What kind of address this is, in words; null for a public one. */
export function nonPublicKind(address: string): string | null {
  if (isPublicAddress(address)) return null;
  if (!ipaddr.isValid(address)) return 'invalid';
  return RANGE_WORDS[ipaddr.process(address).range()] ?? 'reserved';
}

/**
 * Why a URL may not be called: not http(s), a name that does not resolve, or an address that is
 * not public. The message is the one an admin reads (the API's 400, a delivery's last error).
 */
export class AddressRefused extends Error {
  constructor(
    readonly reason: 'scheme' | 'unresolved' | 'not-public',
    message: string,
  ) {
    super(message);
    this.name = 'AddressRefused';
  }
}

const unresolved = (host: string) => new AddressRefused('unresolved', webhookMessages.urlNotResolved(host));

/**
 * Every address the URL's host stands for, each checked: one private address among public ones
 * refuses the whole name (the socket could be steered to it). A name that does not resolve is
 * refused too. With `allowPrivate` (WEBHOOK_ALLOW_PRIVATE) nothing is refused but the scheme and
 * a name that does not resolve.
 */
export async function resolveWebhookAddresses(
  url: URL,
  options: { allowPrivate: boolean },
): Promise<ResolvedAddress[]> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new AddressRefused('scheme', webhookMessages.urlNotPublic);
  const host = hostOf(url);
  let addresses: ResolvedAddress[];
  const family = isIP(host);
  if (family === 4 || family === 6) addresses = [{ address: host, family }];
  else {
    try {
      const found = await lookup(host, { all: true, verbatim: true });
      addresses = found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
    } catch {
      throw unresolved(host);
    }
  }
  if (addresses.length === 0) throw unresolved(host);
  if (options.allowPrivate) return addresses;
  for (const { address } of addresses) {
    const kind = nonPublicKind(address);
    if (kind)
      throw new AddressRefused('not-public', webhookMessages.urlNotPublicAddress(host, address, kind));
  }
  return addresses;
}
