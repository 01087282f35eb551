import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, skipToken, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { auditLabels } from '../../../shared/audit-messages';
import { useTRPC } from '../../trpc';

type UserFilterProps = {
  value: string | undefined;
  onChange: (userId: string | undefined) => void;
};

const nameOf = (user: { firstName: string; lastName: string; email: string }) =>
  `${user.firstName} ${user.lastName} (${user.email})`;

/** Whose events: a user found by name or e-mail, as the users list searches them. */
export function UserFilter({ value, onChange }: UserFilterProps) {
  const trpc = useTRPC();
  const [typed, setTyped] = useState('');
  const [term] = useDebouncedValue(typed.trim(), 250);
  const found = useQuery({
    ...trpc.users.list.queryOptions({ page: 1, limit: 20, ...(term ? { query: term } : {}) }),
    placeholderData: keepPreviousData,
  });
  // The chosen user, named even when the search no longer lists them (a shared link).
  const chosen = useQuery(trpc.settings.getUser.queryOptions(value ? { userId: value } : skipToken));
  const options = new Map<string, string>();
  if (chosen.data) options.set(chosen.data._id, nameOf(chosen.data));
  for (const user of found.data?.users ?? []) options.set(user._id, nameOf(user));
  return (
    <Select
      label={auditLabels.user}
      placeholder={auditLabels.userPlaceholder}
      searchable
      clearable
      // The server searches; the options shown are its answer, whatever was typed.
      filter={({ options: all }) => all}
      data={[...options].map(([id, label]) => ({ value: id, label }))}
      value={value ?? null}
      searchValue={typed}
      onSearchChange={setTyped}
      onChange={(id) => onChange(id ?? undefined)}
      nothingFoundMessage="No user found"
      w={{ base: '100%', sm: 260 }}
    />
  );
}
