// The charts' styles load with this page only: the sign-in screens and the other pages never need them.
import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { BarChart } from '@mantine/charts';
import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { ui } from '../../shared/messages';
import { AT_RISK_DAYS, type DashboardAnswer } from '../../shared/schemas/dashboard';
import { httpStatusOf, serverMessageOf } from '../api/errors';
import { ChartFigure, type FigureColumn, FigureTable } from '../components/dashboard/FigureTable';
import {
  type CustomRangeErrors,
  customRangeErrors,
  type DashboardRange,
  dayLabel,
  durationText,
  inputOfRange,
  monthLabel,
  PRESET_DAYS,
  percentText,
  rangeFromSearch,
  searchOfRange,
  shareOf,
  utcToday,
} from '../components/dashboard/figures';
import { CLEAR_DATE_BUTTON_PROPS, DATE_PICKER_STYLES, dayState } from '../components/transactions/key-dates';
import { paths, routeTo } from '../paths';
import { useTRPC } from '../trpc';

type Figures = DashboardAnswer;
type Reviewer = Figures['turnaround']['byReviewer'][number];
type DocumentRejections = Figures['rejections']['byDocument'][number];
type AgentRejections = Figures['rejections']['byAgent'][number];
type Reason = Figures['rejections']['topReasons'][number];
type Month = Figures['compliance']['byMonth'][number];
type AtRisk = Figures['atRisk'][number];

const fullName = (user: { firstName: string; lastName: string }) => `${user.firstName} ${user.lastName}`;
const addressOf = (place: { streetAddress: string; city: string; state: string; zip: string }) =>
  `${place.streetAddress}, ${place.city}, ${place.state} ${place.zip}`;

/**
 * /admin/dashboard (issue 21, DESIGN.md 12.4): how the compliance desk is doing. The review queue
 * now, then over a range (7, 30 or 90 days, or two chosen days, kept in the address so a reload
 * or a shared link shows the same): turnaround, rejections, compliance at close; and the files
 * closing within a week that are not compliant. Every table can be saved as CSV, and each chart
 * has a table beside it with the same figures.
 */
export function Dashboard() {
  const trpc = useTRPC();
  const search = useSearch();
  const [, navigate] = useLocation();
  const range = useMemo(() => rangeFromSearch(search), [search]);
  // Fixed for the visit: a page left open past midnight keeps its range rather than refetching.
  const [today] = useState(utcToday);
  const input = inputOfRange(range, today);
  const figures = useQuery({
    ...trpc.dashboard.figures.queryOptions(input),
    placeholderData: keepPreviousData,
  });
  const data = figures.data;
  const choose = (next: DashboardRange) =>
    navigate(`${paths.dashboard}?${searchOfRange(next)}`, { replace: true });

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Dashboard</Title>
        <RangePicker key={searchOfRange(range)} range={range} shown={input} onChange={choose} />
        {figures.error ? (
          <LoadFailure error={figures.error} onRetry={() => void figures.refetch()} />
        ) : (
          data && (
            <Text size="sm" c="dimmed" aria-live="polite">
              Figures from {dayLabel(data.from)} to {dayLabel(data.to)} (days in UTC)
              {figures.isPlaceholderData ? '. Updating...' : ''}
            </Text>
          )
        )}
        {data ? (
          <Stack gap="xl" aria-busy={figures.isPlaceholderData}>
            <QueueSection queue={data.queue} />
            <TurnaroundSection turnaround={data.turnaround} />
            <RejectionsSection rejections={data.rejections} />
            <ComplianceSection compliance={data.compliance} />
            <AtRiskSection atRisk={data.atRisk} today={today} />
          </Stack>
        ) : (
          figures.isPending && <Text c="dimmed">{ui.loading}</Text>
        )}
      </Stack>
    </Container>
  );
}

/** A failed load: the server's reason (a bad range says what is wrong with it), and a retry. */
function LoadFailure({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const badRange = httpStatusOf(error) === 400;
  return (
    <Alert
      color="red"
      role="alert"
      title={badRange ? 'These dates cannot be shown' : 'The figures could not be loaded'}
    >
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{serverMessageOf(error)}</Text>
        {badRange ? (
          <Text size="sm">Choose another range above.</Text>
        ) : (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            Retry
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

const SEGMENTS = [
  ...PRESET_DAYS.map((days) => ({ value: String(days), label: `${days} days` })),
  { value: 'custom', label: 'Custom' },
];

type RangePickerProps = {
  range: DashboardRange;
  /** The days the figures cover now: where a new custom range starts from. */
  shown: { from: string; to: string };
  onChange: (range: DashboardRange) => void;
};

/** 7 / 30 / 90 days / Custom; a custom range is two days, applied once both are valid. */
function RangePicker({ range, shown, onChange }: RangePickerProps) {
  const [segment, setSegment] = useState(range.kind === 'custom' ? 'custom' : String(range.days));
  const [from, setFrom] = useState<string | null>(shown.from);
  const [to, setTo] = useState<string | null>(shown.to);
  const [errors, setErrors] = useState<CustomRangeErrors>({});

  const pick = (value: string) => {
    setSegment(value);
    const days = PRESET_DAYS.find((choice) => String(choice) === value);
    if (days) onChange({ kind: 'preset', days });
  };

  const apply = (event: FormEvent) => {
    event.preventDefault();
    const found = customRangeErrors(from, to);
    setErrors(found);
    if (from && to && !found.from && !found.to) onChange({ kind: 'custom', from, to });
  };

  return (
    <Stack gap="sm">
      <SegmentedControl
        data={SEGMENTS}
        value={segment}
        onChange={pick}
        aria-label="Range"
        style={{ alignSelf: 'flex-start' }}
      />
      {segment === 'custom' && (
        <form onSubmit={apply} noValidate aria-label="Custom range">
          <Group align="flex-start" gap="sm" wrap="wrap">
            <RangeDay label="From" value={from} error={errors.from} onChange={setFrom} />
            <RangeDay label="To" value={to} error={errors.to} onChange={setTo} />
            {/* Lined up with the fields, below their labels. */}
            <Button type="submit" mt={{ base: 0, xs: 25 }}>
              Show figures
            </Button>
          </Group>
        </form>
      )}
    </Stack>
  );
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <Stack gap="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function Stat({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={26} fw={700} lh={1.3} data-testid={`stat-${label}`}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

function Stats({ children }: { children: ReactNode }) {
  return <SimpleGrid cols={{ base: 1, xs: 3 }}>{children}</SimpleGrid>;
}

function QueueSection({ queue }: { queue: Figures['queue'] }) {
  return (
    <Section id="queue-heading" title="Review queue now">
      <Stats>
        <Stat label="Waiting for review" value={String(queue.size)} />
        <Stat label="Oldest wait" value={durationText(queue.oldestWaitingSeconds)} />
        <Stat label="Median wait" value={durationText(queue.medianWaitingSeconds)} />
      </Stats>
      <Anchor component={Link} href={paths.reviewQueue} size="sm">
        Open the review queue
      </Anchor>
    </Section>
  );
}

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

function TurnaroundSection({ turnaround }: { turnaround: Figures['turnaround'] }) {
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

function RejectionsSection({ rejections }: { rejections: Figures['rejections'] }) {
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

const MONTH_COLUMNS: FigureColumn<Month>[] = [
  { header: 'Month', value: (row) => monthLabel(row.month) },
  { header: 'Closed', value: (row) => row.closed },
  { header: 'Compliant at close', value: (row) => row.compliantAtClose },
  { header: 'Share compliant', value: (row) => percentText(shareOf(row.compliantAtClose, row.closed)) },
];

function ComplianceSection({ compliance }: { compliance: Figures['compliance'] }) {
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

function atRiskColumns(today: string): FigureColumn<AtRisk>[] {
  return [
    {
      header: 'Transaction',
      value: (row) => addressOf(row.transaction),
      render: (row) => (
        <Anchor component={Link} href={routeTo.adminTransaction(row.transaction._id)} size="sm">
          {addressOf(row.transaction)}
        </Anchor>
      ),
    },
    { header: 'Agent', value: (row) => fullName(row.transaction.user) },
    {
      header: 'Closing date',
      value: (row) => `${dayLabel(row.closingDate)} (${dayState(row.closingDate, false, today).text})`,
    },
    { header: 'Missing', value: (row) => row.missing },
    { header: 'Rejected', value: (row) => row.rejected },
    { header: 'Awaiting review', value: (row) => row.awaitingReview },
  ];
}

function AtRiskSection({ atRisk, today }: { atRisk: Figures['atRisk']; today: string }) {
  const columns = useMemo(() => atRiskColumns(today), [today]);
  return (
    <Section id="at-risk-heading" title="Files at risk">
      <Text size="sm" c="dimmed">
        Open files closing within {AT_RISK_DAYS} days that are not compliant, soonest first.
      </Text>
      <FigureTable
        title={`Closing within ${AT_RISK_DAYS} days`}
        name="Files at risk"
        filename="files-at-risk.csv"
        columns={columns}
        rows={atRisk}
        rowKey={(row) => row.transaction._id}
        empty={`Nothing at risk: every open file closing within ${AT_RISK_DAYS} days is compliant.`}
        minWidth={820}
      />
    </Section>
  );
}

type RangeDayProps = {
  label: string;
  value: string | null;
  error: string | undefined;
  onChange: (value: string | null) => void;
};

/** One end of the custom range. */
function RangeDay({ label, value, error, onChange }: RangeDayProps) {
  return (
    <DatePickerInput
      label={label}
      placeholder="Pick a day"
      valueFormat="MMM D, YYYY"
      styles={DATE_PICKER_STYLES}
      clearButtonProps={CLEAR_DATE_BUTTON_PROPS}
      clearable
      value={value}
      error={error}
      onChange={onChange}
      w={{ base: '100%', xs: 180 }}
    />
  );
}
