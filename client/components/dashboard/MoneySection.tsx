import { BarChart } from '@mantine/charts';
import { formatCents } from '../../../shared/money';
import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { ChartFigure, type FigureColumn, FigureTable } from './FigureTable';
import { monthLabel } from './figures';
import { Section, Stat, Stats } from './Section';

type Money = DashboardAnswer['money'];
type Month = Money['byMonth'][number];

const MONTH_COLUMNS: FigureColumn<Month>[] = [
  { header: 'Month', value: (row) => monthLabel(row.month) },
  { header: 'Gross commission', value: (row) => formatCents(row.grossCents) },
];

/**
 * The commissions of the range: each file's current CDA, counted when it was paid or, unpaid,
 * when its file closed. The chart is in cents, labelled as dollars, so no figure passes a float.
 */
export function MoneySection({ money }: { money: Money }) {
  const chart = money.byMonth.map((row) => ({ month: monthLabel(row.month), gross: row.grossCents }));
  const anyMoney = money.byMonth.some((row) => row.grossCents > 0);
  return (
    <Section id="money-heading" title="Money">
      <Stats>
        <Stat
          label="Gross commission"
          value={formatCents(money.grossCents)}
          hint="Paid, or closed and not paid yet"
        />
        <Stat
          label="Brokerage"
          value={formatCents(money.brokerageCents)}
          hint="Its share and transaction fees"
        />
        <Stat label="Agents" value={formatCents(money.agentCents)} />
        <Stat
          label="Not paid yet"
          value={formatCents(money.pendingCents)}
          hint="Closed files awaiting payment"
        />
      </Stats>
      {anyMoney && (
        <ChartFigure label="Bar chart of the gross commission of each month. The table below gives the same figures.">
          <BarChart
            h={240}
            data={chart}
            dataKey="month"
            series={[{ name: 'gross', label: 'Gross commission', color: 'indigo.6' }]}
            valueFormatter={formatCents}
            yAxisProps={{ allowDecimals: false, width: 110 }}
            accessibilityLayer={false}
          />
        </ChartFigure>
      )}
      <FigureTable
        title="By month"
        name="Money by month"
        filename="money-by-month.csv"
        columns={MONTH_COLUMNS}
        rows={money.byMonth}
        rowKey={(row) => row.month}
        empty="No month in this range."
      />
    </Section>
  );
}
