import { skipToken, useQuery } from '@tanstack/react-query';
import { useTRPC } from '../trpc';
import { getUserId } from './session';

/**
 * Whether the signed-in account is the owner, the one "designated admin".
 * Only mirrors the server, which refuses the owner's actions to everyone else.
 */
export function useIsOwner(): boolean {
  const trpc = useTRPC();
  const userId = getUserId();
  const { data } = useQuery(trpc.settings.getUser.queryOptions(userId ? { userId } : skipToken));
  return data?.isOwner === true;
}
