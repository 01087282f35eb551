import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { ResolvedAddress } from './addresses';

/**
 * One POST of a webhook to an address checked beforehand (addresses.ts): the socket
 * connects to that address, whatever DNS says by now, while the Host header and TLS (SNI and the
 * certificate check) still use the URL's name. No redirect is followed (a 3xx is a failure: it
 * could point anywhere), no connection is reused, and the whole exchange has `timeoutMs`.
 */

export type WebhookResponse = { status: number };

const MAX_RESPONSE_BYTES = 64 * 1024;

export function postWebhook(
  url: URL,
  address: ResolvedAddress,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<WebhookResponse> {
  const pinned: LookupFunction = (_host, options, callback) => {
    // Node asks for every address when it races IPv4 and IPv6 (autoSelectFamily): answer the one.
    if ((options as { all?: boolean }).all)
      (callback as unknown as (e: null, list: { address: string; family: number }[]) => void)(null, [
        { address: address.address, family: address.family },
      ]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        signal: AbortSignal.timeout(timeoutMs),
        headers: {
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
          'user-agent': 'BrokeragePortal-Webhooks/1',
          ...headers,
        },
      },
      (response) => {
        // The answer's body is not kept; read a little of it so the socket closes cleanly.
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('end', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('close', () => resolve({ status: response.statusCode ?? 0 }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
