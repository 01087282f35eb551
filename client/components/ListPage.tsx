import { Container, Group, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { QuickSearch } from './QuickSearch';

type ListPageProps = {
  title: string;
  /** The page's own button beside the heading (an Add button), if the viewer may use one. */
  action?: ReactNode;
  /** A new search from the Quick Search box, as typed. */
  onSearch: (text: string) => void;
  /** The table and its pager. */
  children: ReactNode;
};

/** The frame of every list page of spec section 2: heading, Quick Search, then the table. */
export function ListPage({ title, action, onSearch, children }: ListPageProps) {
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1}>{title}</Title>
          {action}
        </Group>
        <QuickSearch onSearch={onSearch} />
        {children}
      </Stack>
    </Container>
  );
}
