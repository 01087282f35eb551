import { TRPCClientError } from '@trpc/client';
import { apiMessages } from '../../shared/messages';
import type { ApiErrorId, ApiIssue, MissingItem } from '../../shared/schemas/common';

/** A non-2xx answer of the REST API, carrying its `{message, code, error}` body. */
export class RestError extends Error {
  override readonly name = 'RestError';
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    /** The error id to switch on (docs/API.md, "Errors"). */
    readonly error?: ApiErrorId,
  ) {
    super(message);
  }
}

/** The HTTP status the server answered with, or undefined when no answer arrived (offline). */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof RestError) return error.status;
  if (error instanceof TRPCClientError) {
    const status: unknown = error.data?.httpStatus;
    return typeof status === 'number' ? status : undefined;
  }
  return undefined;
}

/**
 * The server's own message for a failed call (built to be shown: it never carries internals), or
 * `fallback` when there is none: the request never got an answer, or the answer said nothing.
 */
export function answeredMessageOr(error: unknown, fallback: string): string {
  return httpStatusOf(error) !== undefined && error instanceof Error && error.message
    ? error.message
    : fallback;
}

/** The text to show for a failed call: the server's message, or a general one without it. */
export function serverMessageOf(error: unknown): string {
  return answeredMessageOr(error, apiMessages.serviceUnavailable);
}

/** A list the server answered beside a refusal's message (tRPC's `error.data[key]`), its items checked. */
function listOf<Item>(
  error: unknown,
  key: string,
  isItem: (item: Record<string, unknown>) => boolean,
): Item[] {
  if (!(error instanceof TRPCClientError)) return [];
  const list: unknown = error.data?.[key];
  if (!Array.isArray(list)) return [];
  return list.filter(
    (item): item is Item =>
      typeof item === 'object' && item !== null && isItem(item as Record<string, unknown>),
  );
}

/**
 * The fields a refused call named, each `{path, message}` with a dotted path ('facts.yearBuilt',
 * 'conditionalForms.0.when.1.value'); empty when the answer named none.
 */
export function issuesOf(error: unknown): ApiIssue[] {
  return listOf(
    error,
    'issues',
    (issue) => typeof issue.path === 'string' && typeof issue.message === 'string',
  );
}

/**
 * The required items a refusal names (`missing`, beside the message, when a file is not compliant
 * yet); empty for any other failure.
 */
export function missingItemsOf(error: unknown): MissingItem[] {
  return listOf(
    error,
    'missing',
    (item) => typeof item.formId === 'string' && typeof item.label === 'string',
  );
}
