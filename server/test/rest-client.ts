import { performance } from 'node:perf_hooks';
import { TINY_PDF } from './api-calls';

/**
 * The REST API over real HTTP (fetch), for runs against a separate server process: every call
 * is timed and never throws, so a fault run can record refused connections and hangs as
 * outcomes instead of losing them in an exception.
 */

export type TimedAnswer = {
  /** The HTTP status; 0 when no answer came (connection refused or reset, or the timeout). */
  status: number;
  body: unknown;
  /** performance.now() when the call was sent and when its answer (or failure) arrived. */
  sentAt: number;
  answeredAt: number;
  ms: number;
  /** Why there was no answer, when status is 0. */
  failure?: string;
};

export type CallOptions = {
  token?: string;
  json?: unknown;
  form?: FormData;
  /** Gives up (status 0) after this long; default 10 s. */
  timeoutMs?: number;
};

export async function timedCall(
  baseUrl: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  options: CallOptions = {},
): Promise<TimedAnswer> {
  const headers: Record<string, string> = {};
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | FormData | undefined;
  if (options.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.form) {
    body = options.form; // fetch writes the multipart boundary itself
  }
  const sentAt = performance.now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body }),
      signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
    });
    const text = await response.text();
    const answeredAt = performance.now();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text, it says what went wrong
    }
    return { status: response.status, body: parsed, sentAt, answeredAt, ms: answeredAt - sentAt };
  } catch (error) {
    const answeredAt = performance.now();
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    const failure = `${(error as Error).name}: ${(error as Error).message}${cause ? ` (${cause})` : ''}`;
    return { status: 0, body: undefined, sentAt, answeredAt, ms: answeredAt - sentAt, failure };
  }
}

/** The call's answer when it has `status`; otherwise an error quoting what did come back. */
export async function expectStatus(answer: Promise<TimedAnswer>, status: number): Promise<unknown> {
  const got = await answer;
  if (got.status !== status) {
    throw new Error(`expected ${status}, got ${got.status}: ${got.failure ?? JSON.stringify(got.body)}`);
  }
  return got.body;
}

export type SignedIn = { id: string; token: string; email: string };

/** POST /api/auth/login; the user id comes from the token's subject. */
export async function signIn(baseUrl: string, email: string, password: string): Promise<SignedIn> {
  const session = (await expectStatus(
    timedCall(baseUrl, 'POST', '/api/auth/login', { json: { email, password } }),
    200,
  )) as { token: string };
  const claims = JSON.parse(Buffer.from(session.token.split('.')[1] ?? '', 'base64url').toString()) as {
    sub: string;
  };
  return { id: claims.sub, token: session.token, email };
}

/** The password createAgents gives every agent it makes. */
export const AGENT_PASSWORD = 'Agent-password-1';

/** Agents (role user) added by an admin through POST /api/users, each then signed in. */
export async function createAgents(
  baseUrl: string,
  admin: SignedIn,
  count: number,
  emailPrefix: string,
): Promise<SignedIn[]> {
  const agents: SignedIn[] = [];
  for (let i = 1; i <= count; i++) {
    const email = `${emailPrefix}${i}@agents.test`;
    await expectStatus(
      timedCall(baseUrl, 'POST', '/api/users', {
        token: admin.token,
        json: {
          firstName: `Agent${i}`,
          lastName: 'Load',
          email,
          phoneNumber: `555-010-${String(i).padStart(4, '0')}`,
          company: 'Resilience Realty',
          password: AGENT_PASSWORD,
          role: 'user',
        },
      }),
      201,
    );
    agents.push(await signIn(baseUrl, email, AGENT_PASSWORD));
  }
  return agents;
}

export type NewTransaction = {
  streetAddress: string;
  city?: string;
  state?: string;
  zip?: string;
  /** A (type, role) pair with a template; Purchase/Buyer unless given. */
  type?: string;
  role?: string;
};
export type OpenedTransaction = { _id: string; forms: Array<{ _id: string }> };

/** POST /api/transactions as `token`'s agent; an answer other than 201 throws, quoting it. */
export async function openTransaction(
  baseUrl: string,
  token: string,
  {
    streetAddress,
    city = 'Portland',
    state = 'OR',
    zip = '97201',
    type = 'Purchase',
    role = 'Buyer',
  }: NewTransaction,
): Promise<OpenedTransaction> {
  return (await expectStatus(
    timedCall(baseUrl, 'POST', '/api/transactions', {
      token,
      json: { streetAddress, city, state, zip, type, role },
    }),
    201,
  )) as OpenedTransaction;
}

export function pdfForm(fileName: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([TINY_PDF], { type: 'application/pdf' }), fileName);
  return form;
}
