import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet, { type HelmetOptions } from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeadersOf } from './security-headers';

/** What helmet's own middleware sets on a real Node response, by lower-case name. */
function helmetOnRealResponse(options: HelmetOptions): Record<string, unknown> {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  res.setHeader('X-Powered-By', 'something'); // helmet removes it
  helmet(options)(req, res, (error?: unknown) => {
    if (error) throw error;
  });
  return res.getHeaders();
}

const OPTIONS: HelmetOptions[] = [
  {},
  {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'https://files.example.com'],
        frameAncestors: ["'none'"],
        upgradeInsecureRequests: [],
      },
    },
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: true },
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  },
  { contentSecurityPolicy: false, strictTransportSecurity: false, xFrameOptions: false },
];

describe('securityHeadersOf', () => {
  it('gives exactly the headers helmet sets on a response, computed once', () => {
    for (const options of OPTIONS) {
      const once = securityHeadersOf(options);
      expect(once).toEqual(helmetOnRealResponse(options));
      expect(once['x-powered-by']).toBeUndefined();
    }
    expect(securityHeadersOf(OPTIONS[1] as HelmetOptions)).toMatchObject({
      'content-security-policy':
        "default-src 'self';img-src 'self' data: https://files.example.com;frame-ancestors 'none';upgrade-insecure-requests",
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
    });
  });

  it('refuses a directive computed per request, which one set of headers cannot carry', () => {
    const perRequest: HelmetOptions = {
      contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-abc'"] } },
    };
    expect(() => securityHeadersOf(perRequest)).toThrow(/scriptSrc is computed per request/);
  });

  it('refuses options helmet refuses', () => {
    expect(() =>
      securityHeadersOf({ contentSecurityPolicy: { directives: { defaultSrc: ['self'] } } }),
    ).toThrow();
  });
});
