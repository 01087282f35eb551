import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/**
 * The headers every answer must carry (docs/SECURITY.md, "Browser protections"), checked by
 * server/test/security.test.ts and the 500s of error-mapping.test.ts. HSTS only when the app is served over https.
 */
export function expectProtectiveHeaders(
  res: LightMyRequestResponse,
  label: string,
  { overHttps }: { overHttps: boolean },
): void {
  const csp = String(res.headers['content-security-policy']);
  expect(csp, label).toContain("frame-ancestors 'none'");
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toContain("base-uri 'none'");
  expect(res.headers['x-content-type-options'], label).toBe('nosniff');
  expect(res.headers['referrer-policy'], label).toBe('no-referrer');
  expect(res.headers['strict-transport-security'], label).toBe(
    overHttps ? 'max-age=31536000; includeSubDomains' : undefined,
  );
  expect(res.headers['access-control-allow-origin'], label).toBeUndefined();
  expect(res.headers['access-control-allow-credentials'], label).toBeUndefined();
}
