import { startTestProvider } from '../../server/test/oidc-provider';

/**
 * The OpenID provider of the browser journeys (playwright.config.ts starts it beside the portal):
 * `npx tsx e2e/support/oidc-provider-server.ts <port> <the portal's callback URL>`. A spec names
 * who signs in next by POSTing the account to its CONTROL_PATH (e2e/sso.spec.ts).
 */
const [port, redirectUri] = process.argv.slice(2);
if (!port || !redirectUri) throw new Error('usage: oidc-provider-server.ts <port> <redirect URI>');
const provider = await startTestProvider(redirectUri, Number(port));
console.warn(`OpenID provider for the browser journeys at ${provider.issuer}`);
