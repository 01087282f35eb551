import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Transaction, TransactionForm } from '../../shared/schemas/transactions';
import type { Clock } from '../clock';
import { bearer, injectUpload, TINY_PDF } from './api-calls';
import { accessTokenFor } from './factories';

/**
 * The call/ok/refused helpers of the REST-level tests (the style of
 * services/transactions/compliance.test.ts), for files that share them: each call signs a fresh
 * token on the test's clock, so moving the clock never expires a caller.
 */

export type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export function restCalls(appOf: () => FastifyInstance, clock: Clock) {
  async function call(method: Method, url: string, who?: Actor, payload?: unknown) {
    const token = who ? await accessTokenFor(who, { now: clock.now() }) : undefined;
    return appOf().inject({
      method,
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
      headers: bearer(token),
    });
  }

  /** Answers `status`, and its JSON. */
  async function ok<T>(status: number, method: Method, url: string, who: Actor, payload?: unknown) {
    const res = await call(method, url, who, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    return res.json() as T;
  }

  /** Answers `status` with exactly this message. */
  async function refused(
    status: number,
    message: string,
    method: Method,
    url: string,
    who: Actor | undefined,
    payload?: unknown,
  ) {
    const res = await call(method, url, who, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(status);
    expect(res.json().message).toBe(message);
    return res.json() as { message: string; code: string; issues?: { path: string; message: string }[] };
  }

  /** The id of the transaction's checklist item with this label. */
  function formOf(t: Pick<Transaction, 'forms'>, label: string): string {
    const form = t.forms.find((f) => f.label === label);
    if (!form) throw new Error(`no item ${label}`);
    return form._id;
  }

  /** Uploads a PDF no one else uploads and attaches it to the item, as the client does. */
  async function attach(who: Actor, t: Pick<Transaction, '_id' | 'forms'>, label: string) {
    const bytes = Buffer.concat([TINY_PDF, Buffer.from(`% ${randomUUID()}\n`)]);
    const token = await accessTokenFor(who, { now: clock.now() });
    const uploaded = await injectUpload(appOf(), `/api/uploads/transactions/${t._id}`, token, bytes);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    return ok<TransactionForm>(200, 'PUT', `/api/transactions/${t._id}/forms/${formOf(t, label)}`, who, {
      url: (uploaded.json() as { url: string }).url,
    });
  }

  return { call, ok, refused, formOf, attach };
}
