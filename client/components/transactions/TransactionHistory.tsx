import { Stack, Table, Text, Title } from '@mantine/core';
import { type ReactNode, useId } from 'react';
import { type ChecklistChange, checklistChangeInWords } from '../../../shared/checklist-rules';
import { ui } from '../../../shared/messages';
import type { HistoryEntry } from '../../../shared/schemas/transactions';
import { formatDateTime } from '../../dates';

/** An audit event as tRPC hands it over: `unknown` snapshots arrive typed as optional. */
type HistoryRow = Omit<HistoryEntry, 'before' | 'after'> & { before?: unknown; after?: unknown };

/** The fields a 'transaction.update' event may change, by the names the form shows. */
const FIELD_LABELS: Record<string, string> = {
  streetAddress: 'Street Address',
  city: 'City',
  state: 'State',
  zip: 'Zip',
  isTransactionCoordinator: 'Transaction Coordinator',
  isTitleReport: 'Title Report',
  isNaturalHazardDisclosure: 'Natural Hazard Disclosure',
};

// before/after are free-form snapshots; read them defensively, never trusting a shape.
function field(snapshot: unknown, name: string): unknown {
  return typeof snapshot === 'object' && snapshot !== null
    ? (snapshot as Record<string, unknown>)[name]
    : undefined;
}

function text(snapshot: unknown, name: string): string | undefined {
  const value = field(snapshot, name);
  return typeof value === 'string' && value ? value : undefined;
}

/** The document an event concerns: form events carry `label`, comment events `form`. */
function documentOf(entry: HistoryRow): string {
  const label = text(entry.after, 'label') ?? text(entry.after, 'form') ?? text(entry.before, 'label');
  return label ? ` "${label}"` : ' a document';
}

/** One audit event in words (the actions the server records for a transaction). */
export function describeHistoryEntry(entry: HistoryRow): string {
  switch (entry.action) {
    case 'transaction.create':
      return 'Created the transaction';
    case 'transaction.update': {
      const changed = Object.keys(FIELD_LABELS).filter(
        (name) => field(entry.before, name) !== field(entry.after, name),
      );
      const labels = changed.map((name) => FIELD_LABELS[name]);
      if (JSON.stringify(field(entry.before, 'facts')) !== JSON.stringify(field(entry.after, 'facts')))
        labels.push('Facts');
      const updated =
        labels.length > 0 ? `Updated the transaction (${labels.join(', ')})` : 'Updated the transaction';
      const checklist = checklistChangeInWords(field(entry.after, 'checklist') as ChecklistChange | null);
      return checklist ? `${updated}; the checklist ${checklist}` : updated;
    }
    case 'transaction.checklist': {
      const checklist = checklistChangeInWords(field(entry.after, 'checklist') as ChecklistChange | null);
      return `The template's rules changed the checklist${checklist ? `: it ${checklist}` : ''}`;
    }
    case 'transaction.delete':
      return 'Deleted the transaction';
    case 'transaction.legal-hold':
      return `Placed a legal hold: ${text(entry.after, 'reason') ?? ''}`;
    case 'transaction.legal-hold-release':
      return 'Released the legal hold';
    case 'transaction.purge':
      return 'Purged the stored documents (retention ended)';
    case 'form.upload':
      return `Uploaded a file for${documentOf(entry)}`;
    case 'form.review': {
      const status = field(entry.after, 'status');
      const verb = status === 'accepted' ? 'Accepted' : status === 'rejected' ? 'Rejected' : 'Reviewed';
      return `${verb}${documentOf(entry)}`;
    }
    case 'comment.create':
      return `Commented on${documentOf(entry)}`;
    case 'transaction.commission':
      return 'Set the commission';
    case 'cda.issued': {
      const version = field(entry.after, 'version');
      const override = field(field(entry.after, 'override'), 'reason');
      const issued = `Issued the CDA${typeof version === 'number' ? `, version ${version}` : ''}`;
      return typeof override === 'string' ? `${issued}, overriding compliance: ${override}` : issued;
    }
    case 'cda.paid':
      return 'Marked the CDA paid';
    default:
      return entry.action;
  }
}

type TransactionHistoryProps = {
  entries: HistoryRow[] | undefined;
  failed: boolean;
};

/** The admin's compact audit trail of one transaction, newest first. */
export function TransactionHistory({ entries, failed }: TransactionHistoryProps) {
  const headingId = useId();
  let body: ReactNode;
  if (entries && entries.length > 0) {
    body = (
      <Table verticalSpacing={4} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>What</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry._id}>
              {/* May wrap: on a phone a one-line date pushed the table past the screen's edge. */}
              <Table.Td>{formatDateTime(entry.createdAt)}</Table.Td>
              <Table.Td>
                {entry.actor ? `${entry.actor.firstName} ${entry.actor.lastName}` : 'System'}
                {entry.onBehalfOf ? ` for ${entry.onBehalfOf.firstName} ${entry.onBehalfOf.lastName}` : ''}
                {entry.apiKey ? ` (API key "${entry.apiKey.name}")` : ''}
              </Table.Td>
              <Table.Td>{describeHistoryEntry(entry)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    );
  } else if (entries) {
    body = (
      <Text c="dimmed" size="sm">
        Nothing recorded yet.
      </Text>
    );
  } else if (failed) {
    body = (
      <Text c="dimmed" size="sm">
        The history could not be loaded.
      </Text>
    );
  } else {
    body = (
      <Text c="dimmed" size="sm">
        {ui.loading}
      </Text>
    );
  }
  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h3" id={headingId}>
        History
      </Title>
      {body}
    </Stack>
  );
}
