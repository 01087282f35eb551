import { Combobox, InputBase, useCombobox } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { normalizeTypeName } from '../../shared/schemas/templates';
import { useTRPC } from '../trpc';

/** The option that adds the typed text as a new type. */
const CREATE_TYPE = '\u0000create';

const sameType = (a: string, b: string) =>
  normalizeTypeName(a).toLowerCase() === normalizeTypeName(b).toLowerCase();

type TypeFieldProps = {
  /** The types the templates have now. */
  types: string[];
  defaultValue: string;
  error: ReactNode;
  onChange: (type: string) => void;
};

/**
 * The Type of a template: each type is an entry in every agent's menu, so it is chosen
 * from the existing types, and a new one is added only by picking "Create type" explicitly. Text
 * that only differs from an existing type in case or spacing is that type; other text left
 * without a choice goes back to the type chosen before.
 */
export function TypeField({ types, defaultValue, error, onChange }: TypeFieldProps) {
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [value, setValue] = useState(defaultValue);
  const [search, setSearch] = useState(defaultValue);
  const choose = (type: string) => {
    setValue(type);
    setSearch(type);
    onChange(type);
  };

  const typed = normalizeTypeName(search);
  const existing = typed ? types.find((type) => sameType(type, typed)) : undefined;
  // The whole list until the user types something else than the chosen type.
  const shown =
    search === value ? types : types.filter((type) => type.toLowerCase().includes(typed.toLowerCase()));

  return (
    <Combobox
      store={combobox}
      onOptionSubmit={(option) => {
        choose(option === CREATE_TYPE ? typed : option);
        combobox.closeDropdown();
      }}
    >
      <Combobox.Target withExpandedAttribute>
        <InputBase
          label="Type"
          withAsterisk
          description='Pick an existing type, or type a new one and choose "Create type"'
          value={search}
          error={error}
          rightSection={<Combobox.Chevron />}
          rightSectionPointerEvents="none"
          onChange={(event) => {
            combobox.openDropdown();
            combobox.updateSelectedOptionIndex();
            setSearch(event.currentTarget.value);
          }}
          onClick={() => combobox.openDropdown()}
          onFocus={() => combobox.openDropdown()}
          onBlur={() => {
            combobox.closeDropdown();
            if (existing) choose(existing);
            else if (!typed) choose('');
            else setSearch(value);
          }}
        />
      </Combobox.Target>
      <Combobox.Dropdown>
        <Combobox.Options>
          {shown.map((type) => (
            <Combobox.Option value={type} key={type} active={type === value}>
              {type}
            </Combobox.Option>
          ))}
          {typed && !existing && (
            <Combobox.Option value={CREATE_TYPE}>+ Create type "{typed}"</Combobox.Option>
          )}
          {shown.length === 0 && !typed && <Combobox.Empty>No types yet: type the first one</Combobox.Empty>}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}

/** The distinct types of every template, in the order of the list. */
export function useTemplateTypes(): string[] {
  const trpc = useTRPC();
  const all = useQuery(trpc.templates.all.queryOptions());
  return useMemo(() => [...new Set((all.data ?? []).map((template) => template.type))], [all.data]);
}
