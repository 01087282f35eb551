import {
  ActionIcon,
  Anchor,
  Button,
  CopyButton,
  Group,
  Modal,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconRss } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { keyDateMessages } from '../../shared/messages';
import type { CalendarEvent } from '../../shared/schemas/key-dates';
import { serverMessageOf } from '../api/errors';
import { storedRole } from '../auth/claims';
import classes from '../components/calendar/Calendar.module.css';
import {
  eventsByDay,
  monthGrid,
  monthOf,
  monthTitle,
  shiftMonth,
  WEEKDAYS,
} from '../components/calendar/calendar-days';
import { addDays, dayState, longDay, shortDay, today } from '../components/transactions/key-dates';
import { notifyError, notifySuccess, useLoadFailureToast } from '../notify';
import { routeTo } from '../paths';
import { useTRPC } from '../trpc';

/** How far ahead the 'Upcoming' list looks. */
export const UPCOMING_DAYS = 60;

/** Where an event leads: the agent's own detail page, or the admin's. */
function transactionHref(event: CalendarEvent, admin: boolean): string {
  return admin ? routeTo.adminTransaction(event.transactionId) : routeTo.transaction(event.transactionId);
}

/**
 * /calendar: the key dates of the agent's transactions (every agent's for admins, or
 * one agent's) as a month view and the next 60 days, and a feed to subscribe to elsewhere.
 */
export function Calendar() {
  const trpc = useTRPC();
  const admin = storedRole() === 'admin';
  const reference = today();
  const [month, setMonth] = useState(() => monthOf(reference));
  const [agentId, setAgentId] = useState<string | null>(null);
  const agent = agentId ? { agentId } : {};

  const days = useMemo(() => monthGrid(month), [month]);
  const monthQuery = useQuery(
    trpc.calendar.list.queryOptions({ from: days[0] ?? month, to: days.at(-1) ?? month, ...agent }),
  );
  const upcomingQuery = useQuery(
    trpc.calendar.list.queryOptions({ from: reference, to: addDays(reference, UPCOMING_DAYS), ...agent }),
  );
  const failed = monthQuery.error ?? upcomingQuery.error;
  useLoadFailureToast('calendar', 'Could not load the calendar', failed, () =>
    Promise.all([monthQuery.refetch(), upcomingQuery.refetch()]),
  );

  return (
    <Stack gap="lg" py="md">
      <Group justify="space-between" align="center" wrap="wrap">
        <Title order={1}>Calendar</Title>
        <SubscribeButton />
      </Group>
      {admin && <AgentFilter value={agentId} onChange={setAgentId} />}
      <div className={classes.layout}>
        <Paper withBorder p="md" radius="md" component="section" aria-labelledby="month-heading">
          <Stack gap="sm">
            <Group justify="space-between" wrap="nowrap">
              <Title order={2} size="h4" id="month-heading">
                {monthTitle(month)}
              </Title>
              <Group gap={4} wrap="nowrap">
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label="Previous month"
                  onClick={() => setMonth(shiftMonth(month, -1))}
                >
                  <IconChevronLeft size={18} aria-hidden="true" />
                </ActionIcon>
                <Button variant="default" size="sm" onClick={() => setMonth(monthOf(reference))}>
                  Today
                </Button>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label="Next month"
                  onClick={() => setMonth(shiftMonth(month, 1))}
                >
                  <IconChevronRight size={18} aria-hidden="true" />
                </ActionIcon>
              </Group>
            </Group>
            <MonthGrid
              month={month}
              days={days}
              events={monthQuery.data?.events}
              admin={admin}
              reference={reference}
            />
          </Stack>
        </Paper>
        <Paper
          withBorder
          p="md"
          radius="md"
          component="section"
          aria-labelledby="upcoming-heading"
          className={classes.upcoming}
        >
          <Stack gap="sm">
            <Title order={2} size="h4" id="upcoming-heading">
              Upcoming
            </Title>
            <UpcomingList events={upcomingQuery.data?.events} admin={admin} reference={reference} />
          </Stack>
        </Paper>
      </div>
    </Stack>
  );
}

/** The admin's choice of agent: everyone's dates, or one agent's. */
function AgentFilter({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const trpc = useTRPC();
  const users = useQuery(trpc.users.list.queryOptions({ page: 1, limit: 100 }));
  const data = (users.data?.users ?? [])
    .filter((user) => user.role === 'user')
    .map((user) => ({ value: user._id, label: `${user.firstName} ${user.lastName}` }));
  return (
    <Select
      label="Agent"
      placeholder="All agents"
      searchable
      clearable
      data={data}
      value={value}
      onChange={onChange}
      nothingFoundMessage="No such agent"
      maw={320}
    />
  );
}

type MonthGridProps = {
  month: string;
  days: string[];
  events: CalendarEvent[] | undefined;
  admin: boolean;
  reference: string;
};

function MonthGrid({ month, days, events, admin, reference }: MonthGridProps) {
  const byDay = useMemo(() => eventsByDay(events ?? []), [events]);
  const thisMonth = month.slice(0, 7);
  return (
    <div aria-busy={events === undefined}>
      <div className={classes.weekdays} aria-hidden="true">
        {WEEKDAYS.map((weekday) => (
          <div key={weekday}>{weekday}</div>
        ))}
      </div>
      <ol className={classes.grid} aria-label={monthTitle(month)}>
        {days.map((day) => {
          const dayEvents = byDay.get(day) ?? [];
          const isToday = day === reference;
          return (
            <li
              key={day}
              className={classes.day}
              aria-label={`${longDay(day)}${isToday ? ' (today)' : ''}`}
              aria-current={isToday ? 'date' : undefined}
              data-today={isToday || undefined}
              data-outside={!day.startsWith(thisMonth) || undefined}
              data-testid={`day-${day}`}
            >
              <div className={classes.dayNumber} aria-hidden="true">
                {Number(day.slice(8))}
              </div>
              {dayEvents.length > 0 && (
                <ul className={classes.events}>
                  {dayEvents.map((event) => (
                    <li key={`${event.transactionId}-${event.kind}-${event.label}`}>
                      <EventLink event={event} admin={admin} reference={reference} compact />
                    </li>
                  ))}
                </ul>
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

type EventLinkProps = { event: CalendarEvent; admin: boolean; reference: string; compact?: boolean };

function EventLink({ event, admin, reference, compact = false }: EventLinkProps) {
  const state = dayState(event.date, event.done, reference);
  const text = `${event.label} · ${event.streetAddress}`;
  if (compact) {
    return (
      <Link
        href={transactionHref(event, admin)}
        className={classes.event}
        title={text}
        data-overdue={state.state === 'overdue' || undefined}
        data-done={event.done || undefined}
      >
        <span className={classes.dot} aria-hidden="true" />
        <span className={classes.eventText}>{text}</span>
      </Link>
    );
  }
  return (
    <Anchor
      component={Link}
      href={transactionHref(event, admin)}
      size="sm"
      td={event.done ? 'line-through' : undefined}
    >
      {text}
    </Anchor>
  );
}

type UpcomingListProps = { events: CalendarEvent[] | undefined; admin: boolean; reference: string };

/** The next 60 days, day by day, each date saying how far off it is. */
function UpcomingList({ events, admin, reference }: UpcomingListProps) {
  const byDay = useMemo(
    () => [...eventsByDay(events ?? []).entries()].sort(([a], [b]) => a.localeCompare(b)),
    [events],
  );
  if (events === undefined) return <Text size="sm">Loading...</Text>;
  if (byDay.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Nothing due in the next {UPCOMING_DAYS} days.
      </Text>
    );
  }
  return (
    <Stack
      gap="sm"
      component="ol"
      aria-label="Upcoming key dates"
      style={{ listStyle: 'none', padding: 0, margin: 0 }}
    >
      {byDay.map(([day, dayEvents]) => {
        const state = dayState(day, false, reference);
        return (
          <li key={day} aria-label={longDay(day)} data-testid={`upcoming-${day}`}>
            <Group gap="xs" wrap="nowrap">
              <Text size="sm" fw={600}>
                {shortDay(day, reference)}
              </Text>
              <Text
                size="xs"
                c={state.color === 'blue.8' ? 'dimmed' : state.color}
                fw={state.state === 'today' ? 700 : 400}
              >
                {state.text}
              </Text>
            </Group>
            <Stack gap={2} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {dayEvents.map((event) => (
                <li key={`${event.transactionId}-${event.kind}-${event.label}`}>
                  <EventLink event={event} admin={admin} reference={reference} />
                  {event.done && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (done)
                    </Text>
                  )}
                </li>
              ))}
            </Stack>
          </li>
        );
      })}
    </Stack>
  );
}

/**
 * 'Subscribe': a new secret address of the feed (the previous one stops working), shown with a
 * copy button and how to add it to Google Calendar or Outlook.
 */
function SubscribeButton() {
  const trpc = useTRPC();
  const feed = useMutation(trpc.calendar.createFeed.mutationOptions());
  const [url, setUrl] = useState<string | null>(null);
  const create = () =>
    feed.mutate(undefined, {
      onSuccess: (answer) => {
        setUrl(answer.url);
        notifySuccess(keyDateMessages.feedCreated);
      },
      onError: (error) => notifyError('Could not create the calendar link', serverMessageOf(error)),
    });
  return (
    <>
      <Button
        variant="light"
        leftSection={<IconRss size={16} aria-hidden="true" />}
        loading={feed.isPending}
        onClick={create}
      >
        Subscribe
      </Button>
      <Modal
        opened={url !== null}
        onClose={() => setUrl(null)}
        title="Subscribe to your key dates"
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        <Stack gap="sm">
          <Text size="sm">
            Add this address to your calendar app to see every key date there, kept up to date automatically.
            In Google Calendar: Other calendars, +, From URL. In Outlook: Add calendar, Subscribe from web.
          </Text>
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput
              label="Calendar address"
              value={url ?? ''}
              readOnly
              style={{ flex: 1 }}
              onFocus={(event) => event.currentTarget.select()}
            />
            <CopyButton value={url ?? ''}>
              {({ copied, copy }) => (
                <Button
                  variant={copied ? 'filled' : 'default'}
                  color={copied ? 'teal' : undefined}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text size="xs" c="dimmed">
            Keep it private: anyone with the address can read these dates. Subscribing again makes a new
            address and the previous one stops working.
          </Text>
        </Stack>
      </Modal>
    </>
  );
}
