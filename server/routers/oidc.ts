import { sessionAnswer } from '../../shared/schemas/auth';
import { ssoExchangeInput, ssoStatusAnswer } from '../../shared/schemas/oidc';
import { ssoStatus } from '../services/sign-in/oidc-flow';
import { exchangeHandoff } from '../services/sign-in/oidc-handoff';
import { publicProcedure, router } from '../trpc/init';
import examples from './oidc.examples.json';

/**
 * Single sign-on's JSON paths (the redirects are server/plugins/oidc.ts). Every rule lives in
 * services/sign-in/oidc-*.ts.
 */
export const oidcRouter = router({
  status: publicProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/auth/oidc',
        summary: 'Whether single sign-on is set up, and the name its button shows',
        tag: 'auth',
        scope: 'personal',
        examples: examples.status,
      },
    })
    .output(ssoStatusAnswer)
    .query(({ ctx }) => ssoStatus(ctx)),

  exchange: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/oidc/exchange',
        summary:
          "Trade single sign-on's one-time code for the login answer, or its refusal (403 `No account for <email>`)",
        tag: 'auth',
        scope: 'personal',
        errors: [401, 403],
        examples: examples.exchange,
      },
    })
    .input(ssoExchangeInput)
    .output(sessionAnswer)
    .mutation(({ ctx, input }) => exchangeHandoff(ctx, input)),
});
