import { useQuery } from '@tanstack/react-query';
import type { PublicUser } from '../../../shared/schemas/users';
import { useTRPC, useTRPCClient } from '../../trpc';

export type AgentChoice = { value: string; label: string };

const fullName = (user: PublicUser) => `${user.firstName} ${user.lastName}`;

/**
 * Whose transactions a coordinator works on: itself first, then each agent it coordinates for,
 * by name (each profile read as the server lets a coordinator read its agents'). Empty for
 * anyone who coordinates for no one. One query for them all (useQueries would bring its observer
 * into the first download of every visit).
 */
export function useCoordinatedAgents(viewer: PublicUser | undefined): AgentChoice[] {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const ids = viewer?.coordinatesFor ?? [];
  const agents = useQuery({
    queryKey: [...trpc.settings.getUser.pathKey(), 'agents', ids],
    queryFn: () => Promise.all(ids.map((userId) => client.settings.getUser.query({ userId }))),
    enabled: ids.length > 0,
  });
  if (!viewer?.isCoordinator) return [];
  const named = (agents.data ?? [])
    .map((agent) => ({ value: agent._id, label: fullName(agent) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return [{ value: viewer._id, label: `${fullName(viewer)} (you)` }, ...named];
}
