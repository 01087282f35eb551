import { Anchor, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'wouter';
import type { DeskSummary as Desk } from '../../../shared/schemas/dashboard';
import { paths, routeTo } from '../../paths';
import { dayLabel, durationText } from '../dashboard/figures';

const plural = (count: number, one: string, many: string) =>
  `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/** '57 items wait for review, the oldest for 3 d 4 h.' or that the queue is empty. */
export function queueSentence({ size, oldestWaitingSeconds }: Desk['queue']): string {
  if (size === 0) return 'Nothing waits for review.';
  const waits = size === 1 ? 'waits' : 'wait';
  const oldest =
    oldestWaitingSeconds === null ? '' : `, the oldest for ${durationText(oldestWaitingSeconds)}`;
  return `${plural(size, 'item', 'items')} ${waits} for review${oldest}.`;
}

/** '2 files at risk: closing within 7 days and not compliant.' or that none is. */
export function atRiskSentence(total: number): string {
  if (total === 0) return 'No file closing within 7 days is missing anything.';
  return `${plural(total, 'file', 'files')} at risk: closing within 7 days and not compliant.`;
}

/**
 * An admin's /home, above their own list: what waits for the compliance desk (the review queue
 * and the files at risk, as the dashboard counts them), with the way to each. Without it an
 * admin landed on "Nothing needs your attention" while dozens of documents waited.
 */
export function DeskSummary({ desk }: { desk: Desk }) {
  const { queue, atRisk } = desk;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-labelledby="desk-heading"
      data-testid="desk-summary"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="desk-heading">
          Waiting for the desk
        </Title>
        <Text size="sm" fw={queue.size > 0 ? 600 : 400}>
          {queueSentence(queue)}
        </Text>
        <Stack gap={4}>
          <Text size="sm" fw={atRisk.total > 0 ? 600 : 400}>
            {atRiskSentence(atRisk.total)}
          </Text>
          {atRisk.items.length > 0 && (
            <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {atRisk.items.map((file) => (
                <li key={file.transaction._id} style={{ overflowWrap: 'anywhere' }}>
                  <Anchor component={Link} href={routeTo.adminTransaction(file.transaction._id)} size="sm">
                    {file.transaction.streetAddress}, {file.transaction.city}
                  </Anchor>
                  <Text span size="xs" c="dimmed">
                    {' '}
                    · closes {dayLabel(file.closingDate)} · {missingText(file)}
                  </Text>
                </li>
              ))}
            </Stack>
          )}
        </Stack>
        <Group gap="xs" wrap="wrap">
          <Button component={Link} href={paths.reviewQueue} size="xs">
            Open the review queue
          </Button>
          <Button component={Link} href={paths.dashboard} size="xs" variant="default">
            Open the dashboard
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function missingText(file: Desk['atRisk']['items'][number]): string {
  const parts = [
    file.missing > 0 ? `${file.missing} missing` : null,
    file.rejected > 0 ? `${file.rejected} rejected` : null,
    file.awaitingReview > 0 ? `${file.awaitingReview} awaiting review` : null,
  ].filter((part) => part !== null);
  return parts.join(', ') || 'not compliant';
}
