import { z } from 'zod';

/**
 * Zod compiles object parsers with `new Function` and probes for it when schemas are built. In
 * the browser our CSP (script-src 'self', no 'unsafe-eval') forbids that, and every probe is
 * reported as a violation even though Zod recovers. This module is imported by common.ts, which
 * every schema module imports, so it runs before any schema exists in whichever bundle chunk the
 * schemas land. The server keeps Zod's faster compiled parsers.
 */
if (typeof window !== 'undefined') z.config({ jitless: true });
