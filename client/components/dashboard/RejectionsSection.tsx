import { BarChart } from '@mantine/charts';
import type { DashboardAnswer } from '../../../shared/schemas/dashboard';
import { ChartFigure, type FigureColumn, FigureTable } from './FigureTable';
import { fullName, percentText } from './figures';
import { Section, Stat, Stats } from './Section';

type Rejections = DashboardAnswer['rejections'];
type DocumentRejections = Rejections['byDocument'][number];
type AgentRejections = Rejections['byAgent'][number];
type Reason = Rejections['topReasons'][number];

const DOCUMENT_COLUMNS: FigureColumn<DocumentRejections>[] = [
  { header: 'Document', value: (row) => row.label },
  { header: 'Reviewed', value: (row) => row.reviewed },
  { header: 'Rejected', value: (row) => row.rejected },
  { header: 'Rejection rate', value: (row) => percentText(row.rate) },
];

const AGENT_COLUMNS: FigureColumn<AgentRejections>[] = [
  { header: 'Agent', value: (row) => fullName(row.user) },
  { header: 'Reviewed', value: (row) => row.reviewed },
  { header: 'Rejected', value: (row) => row.rejected },
  { header: 'Rejection rate', value: (row) => percentText(row.rate) },
];

const REASON_COLUMNS: FigureColumn<Reason>[] = [
  { header: 'Reason', value: (row) => row.label },
  { header: 'Rejections', value: (row) => row.count },
];

/** The chart shows the documents rejected most; the table lists them all. */
const CHART_BARS = 10;

/** How often documents are sent back, by document, by agent, and why. */
export function RejectionsSection({ rejections }: { rejections: Rejections }) {
  const chart = [...rejections.byDocument]
    .filter((row) => row.rate !== null)
    .sort((a, b) => (b.rate ?? 0) - (a.rate ?? 0))
    .slice(0, CHART_BARS)
    .map((row) => ({ document: row.label, rate: Math.round((row.rate ?? 0) * 1000) / 10 }));
  return (
    <Section id="rejections-heading" title="Rejections">
      <Stats>
        <Stat
          label="Rejection rate"
          value={percentText(rejections.rate)}
          hint="Of the decisions in this range"
        />
      </Stats>
      {chart.length > 0 && (
        <ChartFigure
          label={`Bar chart of the rejection rate of the ${chart.length === 1 ? 'document' : `${chart.length} documents`} rejected most, in percent. The table below gives the same figures.`}
        >
          <BarChart
            h={Math.max(160, chart.length * 40)}
            data={chart}
            dataKey="document"
            orientation="vertical"
            series={[{ name: 'rate', label: 'Rejection rate (%)', color: 'red.6' }]}
            valueFormatter={(value) => `${value}%`}
            yAxisProps={{ width: 140 }}
            xAxisProps={{ domain: [0, 100] }}
            gridAxis="y"
            accessibilityLayer={false}
          />
        </ChartFigure>
      )}
      <FigureTable
        title="By document"
        name="Rejections by document"
        filename="rejections-by-document.csv"
        columns={DOCUMENT_COLUMNS}
        rows={rejections.byDocument}
        rowKey={(row) => row.label}
        empty="No documents were decided in this range."
      />
      <FigureTable
        title="By agent"
        name="Rejections by agent"
        filename="rejections-by-agent.csv"
        columns={AGENT_COLUMNS}
        rows={rejections.byAgent}
        rowKey={(row) => row.user._id}
        empty="No agent's documents were decided in this range."
      />
      <FigureTable
        title="Top reasons"
        name="Top rejection reasons"
        filename="rejection-reasons.csv"
        columns={REASON_COLUMNS}
        rows={rejections.topReasons}
        rowKey={(row) => row.code}
        empty="No rejections in this range."
        minWidth={360}
      />
    </Section>
  );
}
