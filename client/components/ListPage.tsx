import { Container, Group, Stack, Title } from '@mantine/core';
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from 'react';
import { QuickSearch } from './QuickSearch';

type ListPageProps = {
  title: string;
  /** The page's own button beside the heading (an Add button), if the viewer may use one. */
  action?: ReactNode;
  /**
   * What an empty list offers instead of a blank table (its first Add, for a viewer who may add).
   * Worded apart from `action`, so the page never holds two buttons of the same name.
   */
  emptyAction?: ReactNode;
  /** What the page shows between its heading and the Quick Search box (the agent's attention strip). */
  intro?: ReactNode;
  /** A new search from the Quick Search box, as typed; without it the page has no Quick Search. */
  onSearch?: (text: string) => void;
  /** The table and its pager. */
  children: ReactNode;
};

type ListPageState = {
  /** The search the list shows, trimmed; empty for the plain list. */
  term: string;
  /** Empties the Quick Search box and goes back to the plain list. */
  clearSearch: () => void;
  emptyAction: ReactNode;
};

// Outside a ListPage (a table rendered on its own) there is no search to clear and nothing to add.
const ListPageContext = createContext<ListPageState>({ term: '', clearSearch: () => {}, emptyAction: null });

/** The list page around a table: what its empty state may offer. */
export function useListPage(): ListPageState {
  return useContext(ListPageContext);
}

/** The frame of every list page: heading, Quick Search, then the table. */
export function ListPage({ title, action, emptyAction = null, intro, onSearch, children }: ListPageProps) {
  // The list's own term, as the page's useListSearch trims it, so the empty state knows whether
  // it answers a search (offer to clear it) or is the plain list (offer to add).
  const [term, setTerm] = useState('');
  // A new key empties the box: QuickSearch keeps what is typed in its own state.
  const [searchBox, setSearchBox] = useState(0);
  const searchArea = useRef<HTMLDivElement>(null);

  const search = (text: string) => {
    setTerm(text.trim());
    onSearch?.(text);
  };

  const context: ListPageState = {
    term,
    clearSearch: () => {
      setTerm('');
      setSearchBox((key) => key + 1);
      onSearch?.('');
    },
    emptyAction,
  };

  // The Clear search button goes with the results it cleared: the keyboard lands in the emptied
  // box, not at the top of the document.
  useEffect(() => {
    if (searchBox > 0) searchArea.current?.querySelector('input')?.focus();
  }, [searchBox]);

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>{title}</Title>
          {action}
        </Group>
        {intro}
        {onSearch && (
          <div ref={searchArea}>
            <QuickSearch key={searchBox} onSearch={search} />
          </div>
        )}
        <ListPageContext.Provider value={context}>{children}</ListPageContext.Provider>
      </Stack>
    </Container>
  );
}
