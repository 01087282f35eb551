import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { auditLabels } from '../../../shared/audit-messages';
import { UserFilter } from './UserFilter';
import type { AuditFilters } from './useAuditFilters';
import { AUDIT_ACTIONS, AUDIT_ENTITIES } from './vocabulary';

type AuditFilterBarProps = {
  filters: AuditFilters;
  onChange: (next: AuditFilters) => void;
};

/** A name the lists do not offer (typed into the address) stays selectable, so it shows. */
const choices = (known: readonly string[], current: string | undefined) => [
  { value: '', label: auditLabels.any },
  ...(current && !known.includes(current) ? [current] : []),
  ...known,
];

/** Who, which record type, which action and which UTC days: each applied at once. */
export function AuditFilterBar({ filters, onChange }: AuditFilterBarProps) {
  const set = (key: keyof AuditFilters, value: string | undefined) =>
    onChange({ ...filters, [key]: value || undefined });
  const hasAny = Object.values(filters).some(Boolean);
  return (
    <Group gap="sm" wrap="wrap" align="flex-end" component="section" aria-label={auditLabels.filtersHeading}>
      <UserFilter value={filters.actorId} onChange={(id) => set('actorId', id)} />
      <NativeSelect
        label={auditLabels.entity}
        data={choices(AUDIT_ENTITIES, filters.entity)}
        value={filters.entity ?? ''}
        onChange={(event) => set('entity', event.currentTarget.value)}
        w={{ base: '100%', xs: 200 }}
      />
      <NativeSelect
        label={auditLabels.action}
        data={choices(AUDIT_ACTIONS, filters.action)}
        value={filters.action ?? ''}
        onChange={(event) => set('action', event.currentTarget.value)}
        w={{ base: '100%', xs: 240 }}
      />
      <TextInput
        type="date"
        label={auditLabels.from}
        value={filters.from ?? ''}
        onChange={(event) => set('from', event.currentTarget.value)}
        w={{ base: '100%', xs: 170 }}
      />
      <TextInput
        type="date"
        label={auditLabels.to}
        value={filters.to ?? ''}
        onChange={(event) => set('to', event.currentTarget.value)}
        w={{ base: '100%', xs: 170 }}
      />
      {hasAny && (
        <Button variant="subtle" onClick={() => onChange({})}>
          {auditLabels.clearFilters}
        </Button>
      )}
    </Group>
  );
}
