/**
 * An example of every request and answer body, by operationId (server/rest/openapi.ts attaches
 * them; server/rest/openapi.test.ts validates each against its operation's schema and names any
 * operation that lacks one).
 */
export type OperationExamples = { request?: unknown; response?: unknown };

export const restExamples: Record<string, OperationExamples> = {};
