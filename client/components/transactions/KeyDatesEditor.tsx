import '@mantine/dates/styles.css';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { randomId } from '@mantine/hooks';
import { IconCalendarPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { keyDateMessages, toasts } from '../../../shared/messages';
import {
  type KeyDateInput,
  type KeyDateKind,
  type KeyDatesAnswer,
  MAX_KEY_DATES,
} from '../../../shared/schemas/key-dates';
import { serverMessageOf } from '../../api/errors';
import { notifyError, notifySuccess } from '../../notify';
import { useTRPC } from '../../trpc';
import { SubmitButton } from '../SubmitButton';
import { KEY_DATES_ANCHOR, SCROLL_MARGIN } from './anchors';
import {
  CLEAR_DATE_BUTTON_PROPS,
  DATE_PICKER_STYLES,
  dayState,
  KIND_OPTIONS,
  kindLabel,
  today,
} from './key-dates';

/**
 * A transaction's key dates, on both detail pages: kind, label, day, done, and
 * where each stands ('in 3 days', 'today', 'overdue'). The template's suggested kinds show as
 * empty rows to fill; a row left without a day is not sent. One Save replaces them all.
 */

type Row = {
  key: string;
  kind: KeyDateKind;
  label: string;
  date: string | null;
  done: boolean;
  /** An empty row the template suggested: dropped on save while it has no day. */
  suggested: boolean;
};

type RowErrors = { label?: string; date?: string };

export const DATE_REQUIRED = 'Pick a date, or remove this row';

function rowsOf(answer: KeyDatesAnswer, closed: boolean): Row[] {
  const dated: Row[] = answer.dates.map((date) => ({
    key: date._id,
    kind: date.kind,
    label: date.kind === 'custom' ? date.label : '',
    date: date.date,
    done: date.done,
    suggested: false,
  }));
  // A closed file changes no more: nothing to fill in.
  if (closed) return dated;
  const suggested: Row[] = answer.suggestedKinds.map((kind) => ({
    key: randomId(),
    kind,
    label: '',
    date: null,
    done: false,
    suggested: true,
  }));
  return [...dated, ...suggested];
}

/** What the row list sends, or the errors that stop it. */
function validate(rows: Row[]): { dates: KeyDateInput[] } | { errors: Record<string, RowErrors> } {
  const errors: Record<string, RowErrors> = {};
  const dates: KeyDateInput[] = [];
  for (const row of rows) {
    const label = row.label.trim();
    if (row.date === null) {
      if (row.suggested && !label) continue;
      errors[row.key] = { date: DATE_REQUIRED };
    }
    if (row.kind === 'custom' && !label) {
      errors[row.key] = { ...errors[row.key], label: keyDateMessages.customLabelRequired };
    }
    if (row.date !== null && !errors[row.key]) {
      dates.push({
        kind: row.kind,
        ...(row.kind === 'custom' ? { label } : {}),
        date: row.date,
        done: row.done,
      });
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { dates };
}

type KeyDatesEditorProps = {
  transactionId: string;
  /** A closed transaction's dates are shown, not changed (the server answers 409). */
  closed: boolean;
};

export function KeyDatesEditor({ transactionId, closed }: KeyDatesEditorProps) {
  const trpc = useTRPC();
  const query = useQuery(trpc.keyDates.list.queryOptions({ id: transactionId }));
  return (
    <Paper
      withBorder
      p="lg"
      radius="md"
      component="section"
      aria-labelledby="key-dates-heading"
      // The agent's 'Needs your attention' links a deadline here (AttentionStrip.tsx).
      id={KEY_DATES_ANCHOR}
      style={{ scrollMarginTop: SCROLL_MARGIN }}
    >
      <Stack gap="md">
        <Title order={2} size="h4" id="key-dates-heading">
          Key dates
        </Title>
        {query.data ? (
          // Keyed by the answer and the file's state, so a saved or refetched list, or a file
          // closed or reopened, starts the rows afresh.
          <KeyDatesForm
            key={`${query.dataUpdatedAt}-${closed}`}
            transactionId={transactionId}
            answer={query.data}
            closed={closed}
          />
        ) : (
          <Text size="sm" c="dimmed">
            {query.isError ? 'The key dates could not be loaded.' : 'Loading...'}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

type KeyDatesFormProps = KeyDatesEditorProps & { answer: KeyDatesAnswer };

function KeyDatesForm({ transactionId, answer, closed }: KeyDatesFormProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [rows, setRows] = useState(() => rowsOf(answer, closed));
  const [errors, setErrors] = useState<Record<string, RowErrors>>({});
  const replace = useMutation(trpc.keyDates.replace.mutationOptions());
  const reference = today();

  const change = (key: string, patch: Partial<Row>) => {
    setRows((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  const add = () => {
    const used = new Set(rows.map((row) => row.kind));
    const kind = KIND_OPTIONS.find((option) => option.value !== 'custom' && !used.has(option.value))?.value;
    setRows((current) => [
      ...current,
      { key: randomId(), kind: kind ?? 'custom', label: '', date: null, done: false, suggested: false },
    ]);
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    const result = validate(rows);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    replace.mutate(
      { id: transactionId, dates: result.dates },
      {
        onSuccess: async (saved) => {
          notifySuccess(keyDateMessages.saved);
          queryClient.setQueryData(trpc.keyDates.list.queryKey({ id: transactionId }), saved);
          // The transaction's next deadline and closing day, the lists' and the calendar's.
          await Promise.all([
            queryClient.invalidateQueries(trpc.transactions.pathFilter()),
            queryClient.invalidateQueries(trpc.adminTransactions.pathFilter()),
            queryClient.invalidateQueries(trpc.calendar.list.pathFilter()),
          ]);
        },
        onError: (error) => notifyError(toasts.updateFailed, serverMessageOf(error)),
      },
    );
  };

  if (closed && rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No key dates were set for this transaction.
      </Text>
    );
  }

  return (
    <form onSubmit={save} noValidate aria-label="Key dates">
      <Stack gap="sm">
        {closed && (
          <Text size="sm" c="dimmed">
            This transaction is closed: its key dates can no longer be changed.
          </Text>
        )}
        {rows.length === 0 && (
          <Text size="sm" c="dimmed">
            No key dates yet. Add the contract's deadlines to be reminded of them.
          </Text>
        )}
        {rows.map((row, index) => (
          <KeyDateRow
            key={row.key}
            row={row}
            index={index}
            errors={errors[row.key]}
            closed={closed}
            reference={reference}
            onChange={(patch) => change(row.key, patch)}
            onRemove={() => setRows((current) => current.filter((other) => other.key !== row.key))}
          />
        ))}
        {!closed && (
          <Group justify="space-between">
            <Button
              variant="light"
              leftSection={<IconCalendarPlus size={16} aria-hidden="true" />}
              disabled={rows.length >= MAX_KEY_DATES}
              onClick={add}
            >
              Add date
            </Button>
            <SubmitButton pending={replace.isPending}>Save key dates</SubmitButton>
          </Group>
        )}
      </Stack>
    </form>
  );
}

type KeyDateRowProps = {
  row: Row;
  index: number;
  errors: RowErrors | undefined;
  closed: boolean;
  reference: string;
  onChange: (patch: Partial<Row>) => void;
  onRemove: () => void;
};

function KeyDateRow({ row, index, errors, closed, reference, onChange, onRemove }: KeyDateRowProps) {
  const name = row.kind === 'custom' ? row.label.trim() || `Custom date ${index + 1}` : kindLabel(row.kind);
  const state = row.date ? dayState(row.date, row.done, reference) : null;
  return (
    <Paper
      withBorder
      p="sm"
      radius="sm"
      role="group"
      aria-label={name}
      data-testid="key-date-row"
      data-state={state?.state}
    >
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NativeSelect
          label="Kind"
          data={KIND_OPTIONS}
          value={row.kind}
          disabled={closed}
          w={{ base: '100%', xs: 210 }}
          onChange={(event) => onChange({ kind: event.currentTarget.value as KeyDateKind })}
        />
        {row.kind === 'custom' && (
          <TextInput
            label="Label"
            withAsterisk
            value={row.label}
            readOnly={closed}
            error={errors?.label}
            maxLength={100}
            w={{ base: '100%', xs: 200 }}
            onChange={(event) => onChange({ label: event.currentTarget.value })}
          />
        )}
        <DatePickerInput
          label="Date"
          placeholder="Pick a date"
          styles={DATE_PICKER_STYLES}
          clearButtonProps={CLEAR_DATE_BUTTON_PROPS}
          value={row.date}
          readOnly={closed}
          error={errors?.date}
          clearable={!closed}
          valueFormat="MMM D, YYYY"
          w={{ base: '100%', xs: 170 }}
          onChange={(value) => onChange({ date: value })}
        />
        <Checkbox
          label="Done"
          checked={row.done}
          disabled={closed || row.date === null}
          mb={8}
          onChange={(event) => onChange({ done: event.currentTarget.checked })}
        />
        {state && (
          <Text
            size="sm"
            c={state.color}
            fw={state.state === 'overdue' || state.state === 'today' ? 700 : 500}
            mb={8}
            data-testid="key-date-state"
          >
            {state.text}
          </Text>
        )}
        {!closed && (
          <ActionIcon
            variant="subtle"
            color="red"
            mb={6}
            ml="auto"
            aria-label={`Remove ${name}`}
            onClick={onRemove}
          >
            <IconTrash size={18} aria-hidden="true" />
          </ActionIcon>
        )}
      </Group>
    </Paper>
  );
}
