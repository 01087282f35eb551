import { z } from 'zod';

/**
 * Zod compiles object parsers with `new Function` and probes for it when a schema is built. The
 * server's CSP (script-src 'self', no 'unsafe-eval') blocks that and the browser reports every
 * probe as a violation, even though Zod recovers. Imported first by main.tsx, so it runs before
 * any shared schema module is evaluated.
 */
z.config({ jitless: true });
