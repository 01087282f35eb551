import { Group, Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTRPC } from '../../trpc';

type QueueFiltersProps = {
  type: string | null;
  agentId: string | null;
  onType: (value: string | null) => void;
  onAgent: (value: string | null) => void;
};

/** Type (the templates' types) and Agent (searched among the users), both sent to the queue. */
export function QueueFilters({ type, agentId, onType, onAgent }: QueueFiltersProps) {
  const trpc = useTRPC();
  const templates = useQuery(trpc.templates.all.queryOptions());
  const types = useMemo(
    () => [...new Set((templates.data ?? []).map((template) => template.type))].sort(),
    [templates.data],
  );

  const [search, setSearch] = useState('');
  const [chosenAgent, setChosenAgent] = useState<{ value: string; label: string } | null>(null);
  const [debounced] = useDebouncedValue(search, 250);
  // Once an agent is chosen the box shows their name: that is not a new search.
  const term = chosenAgent && debounced === chosenAgent.label ? '' : debounced.trim();
  const users = useQuery({
    ...trpc.users.list.queryOptions({ page: 1, limit: 100, ...(term ? { query: term } : {}) }),
    placeholderData: keepPreviousData,
  });
  // A Select shows its value only while it is among the options, whatever the search found.
  const agents = useMemo(() => {
    const options = (users.data?.users ?? [])
      .filter((user) => user.role === 'user')
      .map((user) => ({ value: user._id, label: `${user.firstName} ${user.lastName}` }));
    if (chosenAgent && !options.some((option) => option.value === chosenAgent.value))
      options.unshift(chosenAgent);
    return options;
  }, [users.data, chosenAgent]);

  return (
    <Group gap="sm" wrap="wrap" align="flex-end">
      <Select label="Type" placeholder="All types" data={types} value={type} onChange={onType} clearable />
      <Select
        label="Agent"
        placeholder="All agents"
        data={agents}
        value={agentId}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        nothingFoundMessage="No agent found"
        onChange={(value, option) => {
          setChosenAgent(value && option ? { value, label: option.label } : null);
          onAgent(value);
        }}
      />
    </Group>
  );
}
