import { apiMessages } from '../../shared/messages';
import { AppError } from '../errors';
import type { Caller } from './context';

/**
 * Paths such as /api/settings/getUser/{userId} name a user: it must be the caller unless the
 * caller is an admin. Decided before any lookup, so the answer reveals nothing.
 */
export function assertSelfOrAdmin(caller: Caller, userId: string): void {
  if (caller.id !== userId && caller.role !== 'admin') throw new AppError('FORBIDDEN', apiMessages.forbidden);
}

/** Only the user themself: what needs their own secret (the current password), not an admin's say. */
export function assertSelf(caller: Caller, userId: string): void {
  if (caller.id !== userId) throw new AppError('FORBIDDEN', apiMessages.forbidden);
}

/** The owner account only (an admin who is the owner): what the owner procedure admits. */
export function assertOwner(caller: Caller): void {
  if (caller.role !== 'admin' || !caller.isOwner) throw new AppError('FORBIDDEN', apiMessages.forbidden);
}
