import { NativeSelect } from '@mantine/core';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useLocation, useSearch } from 'wouter';
import { idSchema } from '../../../shared/schemas/common';
import type { OfficesAnswer } from '../../../shared/schemas/offices';
import type { PublicUser } from '../../../shared/schemas/users';
import { getUserId } from '../../auth/session';
import { useTRPC } from '../../trpc';

/*
 * Who the signed-in viewer is, and the offices it reads: the owner's controls, the office fields
 * of the Users page and the office filter of the admin lists, the queue and the dashboard. One
 * module on purpose: the pages that share it load it as one chunk, and every chunk's name is
 * part of the first download.
 */

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

/**
 * Whether the signed-in account is the owner, the one "designated admin".
 * Only mirrors the server, which refuses the owner's actions to everyone else.
 */
export function useIsOwner(): boolean {
  return useViewer()?.isOwner === true;
}

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

export const ALL_OFFICES = 'All offices';

type OfficeFilterProps = {
  /** The offices to choose from (useOfficeFilterChoices); nothing shows without them. */
  offices: OfficesAnswer | null;
  /** '' for every office. */
  value: string;
  onChange: (officeId: string) => void;
};

/**
 * Narrows a brokerage-wide admin's list to one office. An office admin never sees it: its lists
 * always hold its own office alone, which the server decides.
 */
export function OfficeFilter({ offices, value, onChange }: OfficeFilterProps) {
  if (!offices) return null;
  // An address naming an office no longer listed (deleted since) shows as every office.
  const known = offices.some((office) => office._id === value) ? value : '';
  return (
    <NativeSelect
      label="Office"
      w={{ base: '100%', xs: 240 }}
      value={known}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[
        { value: '', label: ALL_OFFICES },
        ...offices.map((office) => ({ value: office._id, label: office.name })),
      ]}
    />
  );
}
