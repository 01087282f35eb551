import { skipToken, useQuery } from '@tanstack/react-query';
import type { PublicUser } from '../../shared/schemas/users';
import { useTRPC } from '../trpc';
import { getUserId } from './session';

/**
 * The signed-in account's own profile (the shell loads it too, so this is the same cached
 * answer): its office and the agents it coordinates for decide which filters a page offers.
 * Only mirrors the server, which holds every caller to what it reaches whatever a page sends.
 */
export function useViewer(): PublicUser | undefined {
  const trpc = useTRPC();
  const userId = getUserId();
  const { data } = useQuery(trpc.settings.getUser.queryOptions(userId ? { userId } : skipToken));
  return data;
}

/** An admin without an office sees the whole brokerage (the owner always does). */
export function isBrokerageWideViewer(viewer: PublicUser | undefined): boolean {
  return viewer?.role === 'admin' && (viewer.isOwner || viewer.officeId === null);
}
