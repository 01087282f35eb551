import { TRPCClientError } from '@trpc/client';
import { apiMessages } from '../../shared/messages';
import { RestError } from './rest';

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
 * The text to show for a failed call: the server's own message (built to be shown: it never
 * carries internals), or a general one when the request never got an answer.
 */
export function serverMessageOf(error: unknown): string {
  if (httpStatusOf(error) !== undefined && error instanceof Error && error.message) return error.message;
  return apiMessages.serviceUnavailable;
}
