import { BarChart } from '@mantine/charts';
import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { ChartFigure, type FigureColumn, FigureTable } from './FigureTable';
import { durationText, fullName } from './figures';
import { Section, Stat, Stats } from './Section';

type Turnaround = DashboardAnswer['turnaround'];
type Reviewer = Turnaround['byReviewer'][number];

const REVIEWER_COLUMNS: FigureColumn<Reviewer>[] = [
  { header: 'Reviewer', value: (row) => fullName(row.user) },
  { header: 'Reviewed', value: (row) => row.reviewed },
  { header: 'Median turnaround', value: (row) => durationText(row.medianSeconds) },
];

/** A desk that decides within the hour is charted in minutes: in hours its bars would not show. */
function turnaroundUnit(byReviewer: readonly Reviewer[]): { name: 'minutes' | 'hours'; seconds: number } {
  const longest = Math.max(0, ...byReviewer.map((row) => row.medianSeconds ?? 0));
  return longest < 2 * 3_600 ? { name: 'minutes', seconds: 60 } : { name: 'hours', seconds: 3_600 };
}

/** How long the desk takes from upload to decision, overall and per reviewer. */
export function TurnaroundSection({ turnaround }: { turnaround: Turnaround }) {
  const unit = turnaroundUnit(turnaround.byReviewer);
  const chart = turnaround.byReviewer.map((row) => ({
    reviewer: fullName(row.user),
    median: Math.round(((row.medianSeconds ?? 0) / unit.seconds) * 10) / 10,
    // The bar's label, from the exact seconds as the table writes them (not the rounded bar).
    label: durationText(row.medianSeconds),
  }));
  return (
    <Section id="turnaround-heading" title="Turnaround">
      <Stats>
        <Stat label="Decisions" value={String(turnaround.reviewed)} hint="From upload to decision" />
        <Stat label="Median turnaround" value={durationText(turnaround.medianSeconds)} />
        <Stat
          label="90th percentile"
          value={durationText(turnaround.p90Seconds)}
          hint="9 in 10 were faster"
        />
      </Stats>
      {chart.length > 0 && (
        <ChartFigure
          label={`Bar chart of the median turnaround of each reviewer, in ${unit.name}. The table below gives the same figures.`}
        >
          <BarChart
            h={Math.max(160, chart.length * 44)}
            data={chart}
            dataKey="reviewer"
            orientation="vertical"
            series={[{ name: 'median', label: `Median turnaround (${unit.name})`, color: 'indigo.6' }]}
            valueFormatter={(value) => durationText(Math.round(value * unit.seconds))}
            // Each bar says its figure and the axis its unit: one reviewer's lone bar said nothing.
            withBarValueLabel
            valueLabelProps={{ position: 'right', dataKey: 'label', formatter: (label) => label }}
            xAxisLabel={`Median turnaround (${unit.name})`}
            yAxisProps={{ width: 120 }}
            gridAxis="y"
            accessibilityLayer={false}
          />
        </ChartFigure>
      )}
      <FigureTable
        title="By reviewer"
        name="Turnaround by reviewer"
        filename="turnaround-by-reviewer.csv"
        columns={REVIEWER_COLUMNS}
        rows={turnaround.byReviewer}
        rowKey={(row) => row.user._id}
        empty="No decisions in this range."
      />
    </Section>
  );
}
