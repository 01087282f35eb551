import {
  Button,
  Chip,
  Group,
  NumberInput,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { notificationSettingsMessages } from '../../../shared/messages';
import {
  type Delivery,
  EVENT_LABELS,
  MAX_REMINDER_DAY,
  MAX_REMINDER_DAYS,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
  type NotificationSettings,
} from '../../../shared/schemas/notification-settings';
import { serverMessageOf } from '../../api/errors';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';

/**
 * The 'Notifications' section of /settings: how each event reaches the user, how
 * many days before a key date the reminders come, and the zone their 08:00 and the digest's 07:00
 * are read in. Only the events this account receives are offered (the server's answer lists them).
 */

export const DELIVERY_OPTIONS: { value: Delivery; label: string }[] = [
  { value: 'in-app', label: 'In-app' },
  { value: 'email', label: 'Email' },
  { value: 'digest', label: 'Daily digest' },
];

/** The days offered as chips; any other day up to MAX_REMINDER_DAY is typed in. */
const QUICK_DAYS = Array.from({ length: 14 }, (_, index) => index + 1);

/** Every zone this browser knows, with the user's own even if it is not among them ('UTC'). */
function timezoneOptions(current: string): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(current) ? zones : [current, ...zones];
}

type NotificationSettingsFormProps = { userId: string; settings: NotificationSettings };

export function NotificationSettingsForm({ userId, settings }: NotificationSettingsFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.notificationSettings.update.mutationOptions());
  const ids = useId();
  const events = NOTIFICATION_EVENTS.filter((event) => settings.events[event] !== undefined);
  const [deliveries, setDeliveries] = useState(settings.events);
  const [days, setDays] = useState<number[]>(settings.reminderDays);
  const [otherDay, setOtherDay] = useState<string | number>('');
  const [timezone, setTimezone] = useState<string | null>(settings.timezone);
  const zones = useMemo(() => timezoneOptions(settings.timezone), [settings.timezone]);
  const full = days.length >= MAX_REMINDER_DAYS;
  // Days beyond the chips (a typed 21) show as chips of their own, so they can be taken off.
  const shownDays = [...new Set([...QUICK_DAYS, ...days])].sort((a, b) => a - b);

  const toggleDay = (values: string[]) => {
    setDays(values.map(Number).slice(0, MAX_REMINDER_DAYS));
  };
  const otherDayValid =
    typeof otherDay === 'number' &&
    Number.isInteger(otherDay) &&
    otherDay >= 1 &&
    otherDay <= MAX_REMINDER_DAY;
  const addOtherDay = () => {
    if (!otherDayValid || full) return;
    setDays((current) => (current.includes(otherDay) ? current : [...current, otherDay]));
    setOtherDay('');
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!timezone) return;
    update.mutate(
      { userId, timezone, reminderDays: [...days].sort((a, b) => b - a), events: deliveries },
      {
        onSuccess: (saved) => {
          notifySuccess(notificationSettingsMessages.saved);
          queryClient.setQueryData(trpc.notificationSettings.get.queryKey({ userId }), saved);
        },
        onError: (error) => notifyError(serverMessageOf(error)),
      },
    );
  };

  return (
    <form onSubmit={save} noValidate aria-label="Notifications">
      <Stack gap="lg">
        <Stack gap="sm">
          <Title order={3} size="h5">
            How you hear of each event
          </Title>
          <Text size="sm" c="dimmed">
            Every notification shows in the portal. Email also mails it at once; Daily digest mails one
            summary each morning at 07:00.
          </Text>
          {events.map((event: NotificationEvent) => (
            <Group key={event} justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" fw={500} id={`${ids}-${event}`}>
                {EVENT_LABELS[event]}
              </Text>
              <SegmentedControl
                aria-labelledby={`${ids}-${event}`}
                data={DELIVERY_OPTIONS}
                value={deliveries[event]}
                onChange={(value) => setDeliveries((current) => ({ ...current, [event]: value as Delivery }))}
              />
            </Group>
          ))}
        </Stack>

        <Stack gap="xs" role="group" aria-labelledby={`${ids}-days`}>
          <Text size="sm" fw={500} id={`${ids}-days`}>
            Key date reminders (days before)
          </Text>
          <Text size="xs" c="dimmed" id={`${ids}-days-hint`}>
            A reminder comes at 08:00 on each chosen day before a key date, and on the day itself. Up to{' '}
            {MAX_REMINDER_DAYS} days.
          </Text>
          <Chip.Group multiple value={days.map(String)} onChange={toggleDay}>
            <Group gap={6}>
              {shownDays.map((day) => (
                <Chip
                  key={day}
                  value={String(day)}
                  size="xs"
                  disabled={full && !days.includes(day)}
                  aria-label={`${day} ${day === 1 ? 'day' : 'days'} before`}
                >
                  {day}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          <Group align="flex-end" gap="xs">
            <NumberInput
              label="Another day"
              description={`1 to ${MAX_REMINDER_DAY}`}
              min={1}
              max={MAX_REMINDER_DAY}
              allowDecimal={false}
              allowNegative={false}
              w={140}
              value={otherDay}
              disabled={full}
              onChange={setOtherDay}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  addOtherDay();
                }
              }}
            />
            <Button variant="light" disabled={full || !otherDayValid} onClick={addOtherDay}>
              Add day
            </Button>
          </Group>
        </Stack>

        <Select
          label="Timezone"
          description="Reminders and the digest follow this zone."
          searchable
          withAsterisk
          data={zones}
          value={timezone}
          onChange={setTimezone}
          limit={50}
          nothingFoundMessage="No such zone"
          error={timezone ? undefined : notificationSettingsMessages.timezoneInvalid}
          maw={360}
        />

        <Group justify="flex-end">
          <SubmitButton pending={update.isPending} disabled={!timezone}>
            Save notifications
          </SubmitButton>
        </Group>
      </Stack>
    </form>
  );
}
