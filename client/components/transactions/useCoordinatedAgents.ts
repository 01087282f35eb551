import { useQueries } from '@tanstack/react-query';
import type { PublicUser } from '../../../shared/schemas/users';
import { useTRPC } from '../../trpc';

export type AgentChoice = { value: string; label: string };

const fullName = (user: PublicUser) => `${user.firstName} ${user.lastName}`;

/**
 * Whose transactions a coordinator works on: itself first, then each agent it coordinates for,
 * by name (each profile read as the server lets a coordinator read its agents'). Empty for
 * anyone who coordinates for no one.
 */
export function useCoordinatedAgents(viewer: PublicUser | undefined): AgentChoice[] {
  const trpc = useTRPC();
  const ids = viewer?.coordinatesFor ?? [];
  const agents = useQueries({
    queries: ids.map((userId) => trpc.settings.getUser.queryOptions({ userId })),
  });
  if (!viewer?.isCoordinator) return [];
  const named = agents
    .map((query) => query.data)
    .filter((agent): agent is PublicUser => agent !== undefined)
    .map((agent) => ({ value: agent._id, label: fullName(agent) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return [{ value: viewer._id, label: `${fullName(viewer)} (you)` }, ...named];
}
