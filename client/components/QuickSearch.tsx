import { Button, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';

type QuickSearchProps = {
  /** Gets the box's text as typed; the list decides what an empty or padded term means. */
  onSearch: (text: string) => void;
};

/**
 * The 'Quick Search' box with its lowercase 'search' button, shared by every
 * list. Enter searches too.
 */
export function QuickSearch({ onSearch }: QuickSearchProps) {
  const [text, setText] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text);
  };
  return (
    // biome-ignore lint/a11y/useSemanticElements: jsdom and older browsers do not know <search> yet
    <form onSubmit={submit} role="search">
      <Group gap="xs" wrap="nowrap">
        <TextInput
          aria-label="Quick Search"
          placeholder="Quick Search"
          leftSection={<IconSearch size={16} aria-hidden="true" />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          style={{ flex: 1, maxWidth: 420 }}
        />
        <Button type="submit" variant="default">
          search
        </Button>
      </Group>
    </form>
  );
}
