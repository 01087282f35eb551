import { Badge, Button, Checkbox, Group, Table, Text } from '@mantine/core';
import type { KeyboardEvent } from 'react';
import type { ReviewQueueItem } from '../../../shared/schemas/compliance';
import { addressOf } from './ReviewPanel';

/** How long an item has waited, in its largest whole unit: 'waiting 2 days'. */
export function waitingText(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, name] of units) {
    const count = Math.floor(seconds / size);
    if (count >= 1) return `waiting ${count} ${name}${count === 1 ? '' : 's'}`;
  }
  return 'waiting less than a minute';
}

type QueueRowProps = {
  item: ReviewQueueItem;
  selected: boolean;
  onSelect: (on: boolean) => void;
  onReview: () => void;
};

/** One item of the review queue: Enter on the row, like its Review button, opens it for review. */
export function QueueRow({ item, selected, onSelect, onReview }: QueueRowProps) {
  const { transaction, form, kind } = item;
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.key === 'Enter' && event.target === event.currentTarget) {
      event.preventDefault();
      onReview();
    }
  };
  return (
    <Table.Tr tabIndex={0} onKeyDown={onKeyDown} aria-label={`${form.label}, ${addressOf(transaction)}`}>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {/* Waivers are decided one at a time: only documents can be selected. */}
          {kind === 'document' && (
            <Checkbox
              aria-label={`Select ${form.label} (${transaction.streetAddress})`}
              checked={selected}
              onChange={(event) => onSelect(event.currentTarget.checked)}
            />
          )}
          <Text size="sm" fw={500}>
            {form.label}
          </Text>
          {kind === 'waiver' && (
            <Badge color="grape" variant="light" tt="none">
              Waiver
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>{addressOf(transaction)}</Table.Td>
      <Table.Td>
        {transaction.user.firstName} {transaction.user.lastName}
        {item.office && (
          <Text size="xs" c="dimmed">
            {item.office.name}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{transaction.type}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="wrap">
          {waitingText(item.waitingSeconds)}
          {/* Longer than its office's review target. */}
          {item.overdue && (
            <Badge color="red" variant="light" tt="none">
              Overdue
            </Badge>
          )}
        </Group>
      </Table.Td>
      <Table.Td>
        <Button size="xs" variant="light" onClick={onReview}>
          Review
        </Button>
      </Table.Td>
    </Table.Tr>
  );
}
