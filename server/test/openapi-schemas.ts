import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { operationsOf } from '../rest/openapi';

/**
 * Validation against the served OpenAPI document (3.1: its schema objects are JSON Schema 2020-12),
 * with its `#/components/schemas/...` references resolved inside the document.
 */

export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, unknown>; responses: Record<string, OpenApiResponse> };
} & Record<string, unknown>;
export type OpenApiMedia = { schema?: Record<string, unknown>; example?: unknown };
export type OpenApiResponse = {
  description?: string;
  content?: Record<string, OpenApiMedia>;
  headers?: Record<string, unknown>;
  $ref?: string;
};
export type OpenApiOperation = {
  operationId?: string;
  requestBody?: { content: Record<string, OpenApiMedia> };
  responses: Record<string, OpenApiResponse>;
  security?: unknown[];
} & Record<string, unknown>;

const BASE = 'https://portal.invalid/openapi.json';

export function documentValidator(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormats as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addSchema({ $id: BASE, components: { schemas: document.components.schemas } });
  const cache = new Map<string, ValidateFunction>();

  function validatorOf(schema: Record<string, unknown>): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = cache.get(key);
    if (!validate) {
      const absolute = JSON.parse(key.replaceAll('"#/components/schemas/', `"${BASE}#/components/schemas/`));
      validate = ajv.compile(absolute);
      cache.set(key, validate);
    }
    return validate;
  }

  /** Null when `value` matches `schema`; otherwise what ajv says is wrong. */
  function problems(schema: Record<string, unknown>, value: unknown): string | null {
    const validate = validatorOf(schema);
    return validate(value) ? null : ajv.errorsText(validate.errors, { separator: '; ' });
  }

  /** Null when `value` matches `schema`; otherwise the first thing ajv says is wrong. */
  function firstProblem(schema: Record<string, unknown>, value: unknown): string | null {
    const validate = validatorOf(schema);
    return validate(value) ? null : ajv.errorsText(validate.errors?.slice(0, 1));
  }

  /** An operation's answer for `status`, following a reference to components.responses. */
  function response(operation: OpenApiOperation, status: string): OpenApiResponse | undefined {
    const answer = operation.responses[status];
    if (answer?.$ref) return document.components.responses[answer.$ref.split('/').pop() ?? ''];
    return answer;
  }

  return { problems, firstProblem, response };
}

export function documentOperations(document: OpenApiDocument) {
  return operationsOf(document) as Array<{ path: string; method: string; operation: OpenApiOperation }>;
}
