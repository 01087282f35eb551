import { Box, Button, Group, Stack, Table, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { type CsvCell, csvText } from '../../../shared/csv';
import { ListTable } from '../ListTable';

export type FigureColumn<Row> = {
  header: string;
  /** The cell as text: what the table shows, and what the CSV file holds. */
  value: (row: Row) => CsvCell;
  /** What the table shows instead of the text (a link), when it is more than text. */
  render?: (row: Row) => ReactNode;
};

/** Saves `text` as a CSV file named `filename`, from the browser: the rows are already here. */
export function saveCsv(filename: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the blob once the click is handled; later, so a slow one still has it.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** The CSV of the rows a table shows: its headers, then each row's cells as shown. */
export function csvOf<Row>(columns: readonly FigureColumn<Row>[], rows: readonly Row[]): string {
  return csvText(
    columns.map((column) => column.header),
    rows.map((row) => columns.map((column) => column.value(row))),
  );
}

type FigureTableProps<Row> = {
  /** The heading above the table. */
  title: string;
  /** The table's accessible name, and the CSV button's: says which table on the page it is. */
  name: string;
  filename: string;
  columns: readonly FigureColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** The one line shown when there are no rows. */
  empty: string;
  /** Below this width a wide screen scrolls the table within its box; a phone shows cards. */
  minWidth?: number;
};

/**
 * One of the dashboard's tables: a heading, an 'Export CSV' button that saves the rows shown, and
 * the rows (cards on a phone, as every list). The tables are also the charts' text alternative.
 */
export function FigureTable<Row>({
  title,
  name,
  filename,
  columns,
  rows,
  rowKey,
  empty,
  minWidth = 560,
}: FigureTableProps<Row>) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center" wrap="wrap" gap="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} aria-hidden="true" />}
          // The visible words first, so speech input ('click Export CSV') still finds it.
          aria-label={`Export CSV: ${name}`}
          onClick={() => saveCsv(filename, csvOf(columns, rows))}
        >
          Export CSV
        </Button>
      </Group>
      <ListTable
        columns={columns.map((column) => column.header)}
        minWidth={minWidth}
        rows={rows}
        loading={false}
        failure={null}
        empty={empty}
        label={name}
        renderRow={(row) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((column) => (
              <Table.Td key={column.header}>
                {column.render ? column.render(row) : column.value(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        )}
      />
    </Stack>
  );
}

/**
 * A chart as one image to assistive technology, named by `label`: the table beside it holds the
 * same figures as text. The chart's own keyboard layer is off, so nothing inside takes focus.
 */
export function ChartFigure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box role="img" aria-label={label} style={{ minWidth: 0 }}>
      {children}
    </Box>
  );
}
