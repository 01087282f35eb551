import { BarChart } from '@mantine/charts';
import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { ChartFigure, type FigureColumn, FigureTable } from './FigureTable';
import { monthLabel, percentText, shareOf } from './figures';
import { Section, Stat, Stats } from './Section';

type Compliance = DashboardAnswer['compliance'];
type Month = Compliance['byMonth'][number];

const MONTH_COLUMNS: FigureColumn<Month>[] = [
  { header: 'Month', value: (row) => monthLabel(row.month) },
  { header: 'Closed', value: (row) => row.closed },
  { header: 'Compliant at close', value: (row) => row.compliantAtClose },
  { header: 'Share compliant', value: (row) => percentText(shareOf(row.compliantAtClose, row.closed)) },
];

/** The files that closed in the range, and how many had every document in order by then. */
export function ComplianceSection({ compliance }: { compliance: Compliance }) {
  const chart = compliance.byMonth.map((row) => ({
    month: monthLabel(row.month),
    closed: row.closed,
    compliant: row.compliantAtClose,
  }));
  return (
    <Section id="compliance-heading" title="Compliance at close">
      <Stats>
        <Stat label="Closed" value={String(compliance.closed)} hint="Closing dates in this range" />
        <Stat label="Compliant at close" value={String(compliance.compliantAtClose)} />
        <Stat
          label="Share compliant"
          value={percentText(shareOf(compliance.compliantAtClose, compliance.closed))}
        />
      </Stats>
      {chart.length > 0 && (
        <ChartFigure label="Bar chart of the files closed each month and how many of them were compliant at close. The table below gives the same figures.">
          <BarChart
            h={240}
            data={chart}
            dataKey="month"
            series={[
              { name: 'closed', label: 'Closed', color: 'indigo.6' },
              { name: 'compliant', label: 'Compliant at close', color: 'teal.7' },
            ]}
            withLegend
            yAxisProps={{ allowDecimals: false }}
            accessibilityLayer={false}
          />
        </ChartFigure>
      )}
      <FigureTable
        title="By month"
        name="Compliance at close by month"
        filename="compliance-by-month.csv"
        columns={MONTH_COLUMNS}
        rows={compliance.byMonth}
        rowKey={(row) => row.month}
        empty="No file closed in this range."
      />
    </Section>
  );
}
