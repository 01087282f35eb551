import { useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { idSchema } from '../../../shared/schemas/common';
import type { OfficesAnswer } from '../../../shared/schemas/offices';
import { isBrokerageWideViewer, useViewer } from '../../auth/useViewer';
import { useTRPC } from '../../trpc';

/**
 * The offices an admin reads (a brokerage-wide admin: all of them; an office admin: its own).
 * Asked only once the viewer is known to be an admin: an agent's call would be refused.
 */
export function useOffices(enabled = true) {
  const trpc = useTRPC();
  const viewer = useViewer();
  return useQuery(
    trpc.offices.list.queryOptions(undefined, { enabled: enabled && viewer?.role === 'admin' }),
  );
}

/** `office=<id>` in the address: the office filter of the admin lists, the queue and the dashboard. */
export const OFFICE_PARAM = 'office';

/**
 * The office a page's lists are narrowed to, kept in the address so a reload or a shared link
 * shows the same; '' is every office. Changing it replaces the address (Back leaves the page, not
 * the last filter) and keeps the address's other parameters (the dashboard's range).
 */
export function useOfficeParam(): [string, (officeId: string) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const officeId = new URLSearchParams(search).get(OFFICE_PARAM) ?? '';
  const choose = (next: string) => {
    const params = new URLSearchParams(search);
    if (next) params.set(OFFICE_PARAM, next);
    else params.delete(OFFICE_PARAM);
    const text = params.toString();
    navigate(text ? `${location}?${text}` : location, { replace: true });
  };
  return [officeId, choose];
}

/** The filter a brokerage-wide admin is offered: the offices, once there is at least one. */
export function useOfficeFilterChoices(): OfficesAnswer | null {
  const viewer = useViewer();
  const brokerageWide = isBrokerageWideViewer(viewer);
  const offices = useOffices(brokerageWide);
  return brokerageWide && offices.data && offices.data.length > 0 ? offices.data : null;
}

/**
 * The `officeId` a list is asked for: the address's, when it is an id at all (a hand-edited
 * address must not make the list fail); {} for every office.
 */
export function officeInput(officeId: string): { officeId?: string } {
  return idSchema.safeParse(officeId).success ? { officeId } : {};
}

export const NO_OFFICE = 'No office';

/**
 * The choices of an Office field on a user: a brokerage-wide admin may put a user in any office
 * or none; an office admin only in its own (the one office it reads), so that is all it is shown.
 */
export function officeChoices(
  offices: OfficesAnswer | undefined,
  brokerageWide: boolean,
): { value: string; label: string }[] {
  const named = (offices ?? []).map((office) => ({ value: office._id, label: office.name }));
  return brokerageWide ? [{ value: '', label: NO_OFFICE }, ...named] : named;
}
