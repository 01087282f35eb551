import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { type FigureColumn, FigureTable } from './FigureTable';
import { durationText } from './figures';
import { Section } from './Section';

type OfficeFigures = DashboardAnswer['offices'][number];

const COLUMNS: FigureColumn<OfficeFigures>[] = [
  { header: 'Office', value: (row) => row.office.name },
  { header: 'Waiting for review', value: (row) => row.queueSize },
  { header: 'Overdue', value: (row) => row.overdue },
  { header: 'Median turnaround', value: (row) => durationText(row.medianTurnaroundSeconds) },
  { header: 'Review target', value: (row) => `${row.targetHours} h` },
];

/** Each office's desk side by side: what waits, what waits too long, and how fast it is decided. */
export function OfficesSection({ offices }: { offices: DashboardAnswer['offices'] }) {
  // Without offices there is nothing to compare: the rest of the page is the whole brokerage.
  if (offices.length === 0) return null;
  return (
    <Section id="offices-heading" title="Offices">
      <FigureTable
        title="By office"
        name="Offices"
        filename="offices.csv"
        columns={COLUMNS}
        rows={offices}
        rowKey={(row) => row.office._id}
        empty="No offices."
        minWidth={640}
      />
    </Section>
  );
}
