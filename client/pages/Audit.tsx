import { Button, Group, Stack, Table } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { auditLabels } from '../../shared/audit-messages';
import { PAGE_SIZE } from '../../shared/constants';
import { serverMessageOf } from '../api/errors';
import { AuditFilterBar } from '../components/audit/AuditFilterBar';
import { ChainCard } from '../components/audit/ChainCard';
import { type AuditRow, actorOf, EventDetails } from '../components/audit/EventDetails';
import { useAuditFilters } from '../components/audit/useAuditFilters';
import { ExportButton, exportPath } from '../components/ExportButton';
import { ListPage } from '../components/ListPage';
import { isListLoading, ListTable } from '../components/ListTable';
import { formatDateTime } from '../dates';
import { useTRPC } from '../trpc';

const COLUMNS = [
  auditLabels.when,
  auditLabels.who,
  auditLabels.what,
  auditLabels.record,
  auditLabels.seq,
  'Actions',
];

/**
 * The audit trail (/admin/audit, brokerage-wide admins): the hash chain's state on demand, then
 * every event newest first, filtered by who, record type, action and UTC days (in the address),
 * a page at a time by the server's cursor, each event's details in a dialog, and the same events
 * as CSV.
 */
export function Audit() {
  const trpc = useTRPC();
  const [filters, setFilters] = useAuditFilters();
  // The cursors of the pages before this one, so Newer goes back; reset by any new filter.
  const [cursors, setCursors] = useState<string[]>([]);
  const [shown, setShown] = useState<AuditRow | null>(null);
  const cursor = cursors.at(-1);
  const list = useQuery({
    ...trpc.audit.list.queryOptions({ ...filters, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) }),
    placeholderData: keepPreviousData,
    retry: false,
  });
  const refilter = (next: typeof filters) => {
    setCursors([]);
    setFilters(next);
  };
  const nextCursor = list.data?.nextCursor ?? null;

  return (
    <ListPage
      title={auditLabels.title}
      action={<ExportButton path={exportPath('/api/admin/audit.csv', filters)} filename="audit.csv" />}
    >
      <ChainCard />
      <AuditFilterBar filters={filters} onChange={refilter} />
      <Stack gap="sm">
        <ListTable<AuditRow>
          columns={COLUMNS}
          minWidth={760}
          rows={list.data?.items}
          loading={isListLoading(list)}
          failure={list.isError ? `${auditLabels.loadFailed} ${serverMessageOf(list.error)}` : null}
          empty={auditLabels.empty}
          renderRow={(event) => (
            <Table.Tr key={event._id}>
              <Table.Td>{formatDateTime(event.createdAt)}</Table.Td>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{actorOf(event)}</Table.Td>
              <Table.Td>{event.action}</Table.Td>
              <Table.Td
                style={{ overflowWrap: 'anywhere' }}
              >{`${event.entity} ${event.entityId.slice(0, 8)}`}</Table.Td>
              <Table.Td>{event.seq}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="default"
                  onClick={() => setShown(event)}
                  aria-label={`${auditLabels.details}: ${event.action}, ${formatDateTime(event.createdAt)}`}
                >
                  {auditLabels.details}
                </Button>
              </Table.Td>
            </Table.Tr>
          )}
        />
        <Group justify="flex-end" gap="xs" component="nav" aria-label="Pages">
          <Button
            variant="default"
            size="xs"
            disabled={cursors.length === 0}
            onClick={() => setCursors((before) => before.slice(0, -1))}
          >
            {auditLabels.newer}
          </Button>
          <Button
            variant="default"
            size="xs"
            disabled={nextCursor === null || list.isPlaceholderData}
            onClick={() => nextCursor && setCursors((before) => [...before, nextCursor])}
          >
            {auditLabels.older}
          </Button>
        </Group>
      </Stack>
      <EventDetails event={shown} onClose={() => setShown(null)} />
    </ListPage>
  );
}
