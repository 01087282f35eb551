import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { paths } from '../../paths';
import { useTRPC } from '../../trpc';
import { OFFICE_PARAM, officeInput } from '../offices/scope';
import { type DashboardRange, inputOfRange, rangeFromSearch, searchOfRange, utcToday } from './figures';

/**
 * The dashboard's figures for the range in the address, so a reload or a shared link shows the
 * same. While a new range loads, the previous figures stay on screen (marked as placeholder data).
 */
export function useDashboardFigures() {
  const trpc = useTRPC();
  const search = useSearch();
  const [, navigate] = useLocation();
  const range = useMemo(() => rangeFromSearch(search), [search]);
  // Fixed for the visit: a page left open past midnight keeps its range rather than refetching.
  const [today] = useState(utcToday);
  // A brokerage-wide admin's office filter shares the address with the range.
  const officeId = new URLSearchParams(search).get(OFFICE_PARAM) ?? '';
  const input = { ...inputOfRange(range, today), ...officeInput(officeId) };
  const figures = useQuery({
    ...trpc.dashboard.figures.queryOptions(input),
    placeholderData: keepPreviousData,
  });
  // Replaces the address rather than pushing it: Back leaves the dashboard, not the last range.
  const choose = (next: DashboardRange) => {
    const query = new URLSearchParams(searchOfRange(next));
    if (officeId) query.set(OFFICE_PARAM, officeId);
    navigate(`${paths.dashboard}?${query}`, { replace: true });
  };
  return { range, today, input, figures, choose };
}
