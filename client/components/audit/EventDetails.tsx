import { Code, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { auditLabels } from '../../../shared/audit-messages';
import type { AuditLogEvent } from '../../../shared/schemas/audit';
import { formatDateTime } from '../../dates';
import { routeTo } from '../../paths';

/** An event as tRPC hands it over: `unknown` snapshots arrive typed as optional. */
export type AuditRow = Omit<AuditLogEvent, 'before' | 'after'> & { before?: unknown; after?: unknown };

export const actorOf = (event: AuditRow) =>
  event.actor ? `${event.actor.name} (${event.actor.email})` : auditLabels.system;

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

/** A snapshot as indented JSON; long lines wrap rather than push the dialog past a phone's edge. */
function Snapshot({ label, value }: { label: string; value: unknown }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {label}
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {value === null || value === undefined ? auditLabels.none : JSON.stringify(value, null, 2)}
      </Code>
    </Stack>
  );
}

type EventDetailsProps = { event: AuditRow | null; onClose: () => void };

/** One event whole: who, the record, its place in the chain, and the record before and after. */
export function EventDetails({ event, onClose }: EventDetailsProps) {
  return (
    <Modal opened={event !== null} onClose={onClose} title={event ? event.action : ''} size="lg">
      {event && (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Fact label={auditLabels.when}>{formatDateTime(event.createdAt)}</Fact>
            <Fact label={auditLabels.who}>{actorOf(event)}</Fact>
            <Fact label={auditLabels.record}>{`${event.entity} ${event.entityId}`}</Fact>
            <Fact label={auditLabels.transaction}>
              {event.transactionId ? (
                <Link href={routeTo.adminTransaction(event.transactionId)}>{event.transactionId}</Link>
              ) : (
                auditLabels.none
              )}
            </Fact>
            <Fact label={auditLabels.apiKey}>{event.apiKeyId ?? auditLabels.none}</Fact>
            <Fact label={auditLabels.onBehalfOf}>{event.onBehalfOf ?? auditLabels.none}</Fact>
            <Fact label={auditLabels.seq}>{event.seq}</Fact>
            <Fact label={auditLabels.hash}>{event.hash}</Fact>
            <Fact label={auditLabels.prevHash}>{event.prevHash}</Fact>
          </SimpleGrid>
          <Snapshot label={auditLabels.before} value={event.before} />
          <Snapshot label={auditLabels.after} value={event.after} />
        </Stack>
      )}
    </Modal>
  );
}
