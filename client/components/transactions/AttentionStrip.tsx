import { Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCircleCheck } from '@tabler/icons-react';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link } from 'wouter';
import type { AttentionAnswer } from '../../../shared/schemas/dashboard';
import { PHONE_QUERY } from '../../breakpoints';
import { routeTo } from '../../paths';
import { useTRPC } from '../../trpc';
import { checklistAnchor, KEY_DATES_ANCHOR } from './anchors';
import { DeskSummary } from './DeskSummary';
import { dayState, shortDay, today } from './key-dates';

export const NOTHING_NEEDS_ATTENTION = 'Nothing needs your attention.';
/** On a phone each group shows this many items until 'Show all': three screens of links otherwise. */
export const PHONE_ATTENTION_ITEMS = 3;

type Place = AttentionAnswer['rejected']['items'][number];

const addressOf = (place: Pick<Place, 'streetAddress' | 'city' | 'state' | 'zip'>) =>
  `${place.streetAddress}, ${place.city}, ${place.state} ${place.zip}`;

/**
 * The top of /home: for an admin, what waits for the desk; then 'Needs your attention', the
 * user's own rejected documents to replace, required documents still to upload, and key dates
 * overdue or within 7 days, each a link to its place on the transaction page. A calm line when
 * an agent has nothing to do (an admin's desk summary already says what there is).
 */
export function AttentionStrip() {
  const trpc = useTRPC();
  const query = useQuery(trpc.dashboard.attention.queryOptions());
  const desk = query.data?.desk ?? null;
  if (!desk) return <OwnAttention query={query} />;
  return (
    <Stack gap="md">
      <DeskSummary desk={desk} />
      <OwnAttention query={query} quietWhenClear />
    </Stack>
  );
}

type OwnAttentionProps = {
  query: UseQueryResult<AttentionAnswer, unknown>;
  /** Say nothing when nothing is to do (an admin, whose own files are rarely any). */
  quietWhenClear?: boolean;
};

function OwnAttention({ query, quietWhenClear = false }: OwnAttentionProps) {
  // Nothing until the answer: a strip that appears and then says 'nothing' would only flicker.
  if (query.isPending) return null;
  if (query.isError) {
    // The list below is what the page is for; this stays a quiet line with its own retry.
    return (
      <Group gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          What needs your attention could not be loaded.
        </Text>
        <Button size="compact-sm" variant="subtle" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </Group>
    );
  }

  const { rejected, missing, deadlines } = query.data;
  if (rejected.total + missing.total + deadlines.total === 0) {
    if (quietWhenClear) return null;
    return (
      <Group gap="xs" wrap="nowrap" data-testid="attention-clear">
        <IconCircleCheck size={18} color="var(--mantine-color-green-8)" aria-hidden="true" />
        <Text size="sm">{NOTHING_NEEDS_ATTENTION}</Text>
      </Group>
    );
  }

  const reference = today();
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="attention-heading">
      <Stack gap="sm">
        <Title order={2} size="h4" id="attention-heading">
          Needs your attention
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg" verticalSpacing="md">
          <AttentionGroup
            title="Rejected documents"
            total={rejected.total}
            shown={rejected.items.length}
            none="No rejected documents."
          >
            {documentItems(rejected.items)}
          </AttentionGroup>
          <AttentionGroup
            title="Missing documents"
            total={missing.total}
            shown={missing.items.length}
            none="Every required document is uploaded."
          >
            {documentItems(missing.items)}
          </AttentionGroup>
          <AttentionGroup
            title="Deadlines this week"
            total={deadlines.total}
            shown={deadlines.items.length}
            none="No deadline in the next 7 days."
          >
            {deadlines.items.map((item) => {
              const state = dayState(item.date, false, reference);
              return (
                <AttentionItem
                  key={`${item.transactionId}-${item.kind}-${item.label}-${item.date}`}
                  href={`${routeTo.transaction(item.transactionId)}#${KEY_DATES_ANCHOR}`}
                  label={`${item.label} · ${shortDay(item.date, reference)}`}
                  place={item}
                  flag={
                    item.overdue ? (
                      <Badge color="red" variant="light" tt="none" size="sm">
                        Overdue
                      </Badge>
                    ) : (
                      <Text span size="xs" c={state.color} fw={state.state === 'today' ? 700 : 400}>
                        {state.text}
                      </Text>
                    )
                  }
                />
              );
            })}
          </AttentionGroup>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}

type AttentionGroupProps = {
  title: string;
  total: number;
  /** How many items the answer lists (at most ATTENTION_ITEMS). */
  shown: number;
  none: string;
  /** One element per item, in order. */
  children: ReactNode[];
};

/** Checklist items (rejected or missing), each linking to its card on the transaction page. */
function documentItems(items: AttentionAnswer['rejected']['items']) {
  return items.map((item) => (
    <AttentionItem
      key={`${item.transactionId}-${item.formId}`}
      href={`${routeTo.transaction(item.transactionId)}#${checklistAnchor(item.formId)}`}
      label={item.label}
      place={item}
    />
  ));
}

function AttentionGroup({ title, total, shown, none, children }: AttentionGroupProps) {
  const phone = useMediaQuery(PHONE_QUERY);
  const [expanded, setExpanded] = useState(false);
  const collapsed = Boolean(phone) && !expanded && children.length > PHONE_ATTENTION_ITEMS;
  return (
    <Stack gap={6} style={{ minWidth: 0 }}>
      <Title order={3} size="h6">
        {title} ({total})
      </Title>
      {total === 0 ? (
        <Text size="sm" c="dimmed">
          {none}
        </Text>
      ) : (
        <>
          <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {collapsed ? children.slice(0, PHONE_ATTENTION_ITEMS) : children}
          </Stack>
          {collapsed && (
            <Group>
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() => setExpanded(true)}
                aria-label={`Show all ${shown} ${title.toLowerCase()}`}
              >
                Show all {shown}
              </Button>
            </Group>
          )}
          {!collapsed && total > shown && (
            <Text size="xs" c="dimmed">
              Showing {shown} of {total}.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

type AttentionItemProps = {
  href: string;
  label: string;
  place: Pick<Place, 'streetAddress' | 'city' | 'state' | 'zip'>;
  flag?: ReactNode;
};

function AttentionItem({ href, label, place, flag }: AttentionItemProps) {
  return (
    <li style={{ overflowWrap: 'anywhere' }}>
      <Group gap={6} wrap="wrap" align="baseline">
        {/* Named with its address: several files may each have a 'Purchase Agreement'. */}
        <Anchor component={Link} href={href} size="sm" fw={500} aria-label={`${label}, ${addressOf(place)}`}>
          {label}
        </Anchor>
        {flag}
      </Group>
      <Text size="xs" c="dimmed">
        {addressOf(place)}
      </Text>
    </li>
  );
}
