import { z } from 'zod';

/** Single sign-on with an OpenID provider (docs/API.md, "Single sign-on"). */

/** Whether the sign-in page shows the button, and what it names. */
export const ssoStatusAnswer = z.object({ enabled: z.boolean(), name: z.string() });
export type SsoStatusAnswer = z.infer<typeof ssoStatusAnswer>;

/** The one-time code the callback put in the landing page's fragment (32 random bytes, base64url). */
export const ssoExchangeInput = z.object({
  code: z
    .string({ error: 'Code is required' })
    .trim()
    .min(1, { error: 'Code is required' })
    .max(200, { error: 'Invalid code' }),
});
export type SsoExchangeInput = z.infer<typeof ssoExchangeInput>;
