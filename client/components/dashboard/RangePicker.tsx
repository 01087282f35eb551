import { Button, Group, SegmentedControl, Stack } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { type FormEvent, useState } from 'react';
import { CLEAR_DATE_BUTTON_PROPS, DATE_PICKER_STYLES } from '../transactions/key-dates';
import { type CustomRangeErrors, customRangeErrors, type DashboardRange, PRESET_DAYS } from './figures';

const SEGMENTS = [
  ...PRESET_DAYS.map((days) => ({ value: String(days), label: `${days} days` })),
  { value: 'custom', label: 'Custom' },
];

type RangePickerProps = {
  range: DashboardRange;
  /** The days the figures cover now: where a new custom range starts from. */
  shown: { from: string; to: string };
  onChange: (range: DashboardRange) => void;
};

/** 7 / 30 / 90 days / Custom; a custom range is two days, applied once both are valid. */
export function RangePicker({ range, shown, onChange }: RangePickerProps) {
  const [segment, setSegment] = useState(range.kind === 'custom' ? 'custom' : String(range.days));
  const [from, setFrom] = useState<string | null>(shown.from);
  const [to, setTo] = useState<string | null>(shown.to);
  const [errors, setErrors] = useState<CustomRangeErrors>({});

  const pick = (value: string) => {
    setSegment(value);
    const days = PRESET_DAYS.find((choice) => String(choice) === value);
    if (days) onChange({ kind: 'preset', days });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeErrors(from, to);
    setErrors(found);
    if (from && to && !found.from && !found.to) onChange({ kind: 'custom', from, to });
  };

  return (
    <Stack gap="sm">
      <SegmentedControl
        data={SEGMENTS}
        value={segment}
        onChange={pick}
        aria-label="Range"
        style={{ alignSelf: 'flex-start' }}
      />
      {segment === 'custom' && (
        <form onSubmit={apply} noValidate aria-label="Custom range">
          <Group align="flex-start" gap="sm" wrap="wrap">
            <RangeDay label="From" value={from} error={errors.from} onChange={setFrom} />
            <RangeDay label="To" value={to} error={errors.to} onChange={setTo} />
            {/* Lined up with the fields, below their labels. */}
            <Button type="submit" mt={{ base: 0, xs: 25 }}>
              Show figures
            </Button>
          </Group>
        </form>
      )}
    </Stack>
  );
}

type RangeDayProps = {
  label: string;
  value: string | null;
  error: string | undefined;
  onChange: (value: string | null) => void;
};

/** One end of the custom range. */
function RangeDay({ label, value, error, onChange }: RangeDayProps) {
  return (
    <DatePickerInput
      label={label}
      placeholder="Pick a day"
      valueFormat="MMM D, YYYY"
      styles={DATE_PICKER_STYLES}
      clearButtonProps={CLEAR_DATE_BUTTON_PROPS}
      clearable
      value={value}
      error={error}
      onChange={onChange}
      w={{ base: '100%', xs: 180 }}
    />
  );
}
