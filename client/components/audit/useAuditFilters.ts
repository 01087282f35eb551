import { useLocation, useSearch } from 'wouter';

/** The log's filters as the address holds them; absent ones are not in it. */
export type AuditFilters = {
  actorId?: string;
  entity?: string;
  action?: string;
  entityId?: string;
  transactionId?: string;
  from?: string;
  to?: string;
};

const KEYS = ['actorId', 'entity', 'action', 'entityId', 'transactionId', 'from', 'to'] as const;

/**
 * The Audit page's filters, kept in the address so a reload or a shared link shows the same
 * events. A change replaces the address (Back leaves the page, not the last filter).
 */
export function useAuditFilters(): [AuditFilters, (next: AuditFilters) => void] {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  const filters: AuditFilters = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (value) filters[key] = value;
  }
  const choose = (next: AuditFilters) => {
    const query = new URLSearchParams();
    for (const key of KEYS) {
      const value = next[key];
      if (value) query.set(key, value);
    }
    const text = query.toString();
    navigate(text ? `${location}?${text}` : location, { replace: true });
  };
  return [filters, choose];
}
