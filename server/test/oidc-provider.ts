import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { CONTROL_PATH, type ProviderAccount } from './oidc-provider-control';

/**
 * A real OpenID provider (oidc-provider) on a loopback port, for the single sign-on tests: one
 * confidential client whose redirect URI is the portal's callback, an in-memory adapter (the
 * library's default), and a minimal interaction of our own: the next sign-in is whoever the
 * test named with `signInAs`, with the methods (`amr`) it says were used. Consent is granted at
 * once. `stop()` closes it, so a test can take the provider down.
 */

export type { ProviderAccount };

export const TEST_CLIENT = { clientId: 'portal', clientSecret: 'portal-client-secret-for-tests' };

export type TestProvider = {
  issuer: string;
  signInAs(account: ProviderAccount): void;
  stop(): Promise<void>;
};

export async function startTestProvider(redirectUri: string, port = 0): Promise<TestProvider> {
  let current: ProviderAccount = { sub: 'nobody' };
  const accounts = new Map<string, ProviderAccount>();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.clientId,
        client_secret: TEST_CLIENT.clientSecret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    // oidc-provider puts in the ID token only claims a scope names: `amr` rides with openid, as
    // providers that report it (Okta, Entra ID) send it in every ID token.
    claims: {
      acr: null,
      amr: null,
      auth_time: null,
      sid: null,
      iss: null,
      openid: ['sub', 'amr'],
      email: ['email', 'email_verified'],
      profile: ['given_name', 'family_name', 'name'],
    },
    // The core spec's rule: with an access token for userinfo, the ID token carries no scope
    // claims; the portal must then read the e-mail from userinfo.
    conformIdTokenClaims: true,
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => {
          const { amr: _amr, ...claims } = account;
          return claims;
        },
      };
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-provider-cookie-key-0123456789'] },
    pkce: { required: () => true },
  });
  // A test of refusals provokes errors on purpose; the provider's own console lines are noise.
  provider.on('server_error', () => {});

  const providerCallback = provider.callback();
  server.on('request', async (req, res) => {
    // The browser journey's spec names the next account from outside the process.
    if (req.method === 'POST' && req.url === CONTROL_PATH) {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      current = JSON.parse(body) as ProviderAccount;
      res.statusCode = 204;
      return res.end();
    }
    if (!req.url?.startsWith('/interaction/')) return providerCallback(req, res);
    try {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        const account = current;
        accounts.set(account.sub, account);
        return await provider.interactionFinished(
          req,
          res,
          { login: { accountId: account.sub, ...(account.amr ? { amr: account.amr } : {}) } },
          { mergeWithLastSubmission: false },
        );
      }
      const grant = new provider.Grant({
        accountId: details.session?.accountId ?? current.sub,
        clientId: TEST_CLIENT.clientId,
      });
      grant.addOIDCScope('openid email profile');
      return await provider.interactionFinished(
        req,
        res,
        { consent: { grantId: await grant.save() } },
        { mergeWithLastSubmission: true },
      );
    } catch (error) {
      res.statusCode = 500;
      res.end(String(error));
    }
  });

  return {
    issuer,
    signInAs(account) {
      current = account;
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
