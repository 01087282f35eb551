import type { Meta, RestFacts, RestMethod } from '../trpc/init';

/**
 * The meta of a test procedure mounted at a REST path: the summary is the path, no example, and
 * no API key may call it ('personal'), unless `extra` says otherwise.
 */
export function testRest(method: RestMethod, path: string, extra: Partial<RestFacts> = {}): Meta {
  return { rest: { method, path, summary: path, tag: 'test', scope: 'personal', examples: {}, ...extra } };
}
