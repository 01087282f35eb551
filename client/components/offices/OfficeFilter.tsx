import { NativeSelect } from '@mantine/core';
import type { OfficesAnswer } from '../../../shared/schemas/offices';

export const ALL_OFFICES = 'All offices';

type OfficeFilterProps = {
  /** The offices to choose from (useOfficeFilterChoices); nothing shows without them. */
  offices: OfficesAnswer | null;
  /** '' for every office. */
  value: string;
  onChange: (officeId: string) => void;
};

/**
 * Narrows a brokerage-wide admin's list to one office. An office admin never sees it: its lists
 * always hold its own office alone, which the server decides.
 */
export function OfficeFilter({ offices, value, onChange }: OfficeFilterProps) {
  if (!offices) return null;
  // An address naming an office no longer listed (deleted since) shows as every office.
  const known = offices.some((office) => office._id === value) ? value : '';
  return (
    <NativeSelect
      label="Office"
      w={{ base: '100%', xs: 240 }}
      value={known}
      onChange={(event) => onChange(event.currentTarget.value)}
      data={[
        { value: '', label: ALL_OFFICES },
        ...offices.map((office) => ({ value: office._id, label: office.name })),
      ]}
    />
  );
}
