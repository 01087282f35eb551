import { Anchor } from '@mantine/core';
import { Link } from 'wouter';
import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { paths } from '../../paths';
import { durationText } from './figures';
import { Section, Stat, Stats } from './Section';

/** The review queue as it stands now, whatever the range. */
export function QueueSection({ queue }: { queue: DashboardAnswer['queue'] }) {
  return (
    <Section id="queue-heading" title="Review queue now">
      <Stats>
        <Stat label="Waiting for review" value={String(queue.size)} />
        <Stat label="Oldest wait" value={durationText(queue.oldestWaitingSeconds)} />
        <Stat label="Median wait" value={durationText(queue.medianWaitingSeconds)} />
      </Stats>
      <Anchor component={Link} href={paths.reviewQueue} size="sm">
        Open the review queue
      </Anchor>
    </Section>
  );
}
