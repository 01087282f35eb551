import { Button, Group, Text } from '@mantine/core';

type PagerProps = {
  /** 1-based. */
  page: number;
  pageSize: number;
  /** How many rows the list has; undefined until its first answer, and then nothing shows. */
  total: number | undefined;
  onChange: (page: number) => void;
};

/** How many numbered buttons at most; the rest collapse around the current page. */
const MAX_NUMBERED = 7;

/** The numbered pages to show: all of them when few, else a window around the current one. */
export function visiblePages(page: number, totalPages: number): number[] {
  if (totalPages <= MAX_NUMBERED) return Array.from({ length: totalPages }, (_, i) => i + 1);
  const half = Math.floor(MAX_NUMBERED / 2);
  const start = Math.min(Math.max(1, page - half), totalPages - MAX_NUMBERED + 1);
  return Array.from({ length: MAX_NUMBERED }, (_, i) => start + i);
}

/**
 * The pager: 'Showing X to Y of Z results', previous/next, numbered pages.
 * Until the list has answered there is no count to give: a first load shows no pager rather than
 * 'Showing 0 to 0 of 0 results' (a page change keeps the previous answer, and its pager).
 */
export function Pager({ page, pageSize, total, onChange }: PagerProps) {
  if (total === undefined) return null;
  const totalPages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = Math.min(page * pageSize, total);
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Text size="sm" c="dimmed" data-testid="pager-summary">
        Showing {from} to {to} of {total} results
      </Text>
      <Group gap={4} component="nav" aria-label="Pages">
        <Button variant="default" size="xs" disabled={page <= 1} onClick={() => onChange(page - 1)}>
          Previous
        </Button>
        {visiblePages(page, totalPages).map((n) => (
          <Button
            key={n}
            size="xs"
            variant={n === page ? 'filled' : 'default'}
            aria-current={n === page ? 'page' : undefined}
            aria-label={`Page ${n}`}
            onClick={() => onChange(n)}
          >
            {n}
          </Button>
        ))}
        <Button variant="default" size="xs" disabled={page >= totalPages} onClick={() => onChange(page + 1)}>
          Next
        </Button>
      </Group>
    </Group>
  );
}
