// The charts' styles load with this page only: the sign-in screens and the other pages never need them.
import '@mantine/charts/styles.css';
import '@mantine/dates/styles.css';
import { Container, Stack, Text, Title } from '@mantine/core';
import { ui } from '../../shared/messages';
import { AtRiskSection } from '../components/dashboard/AtRiskSection';
import { ComplianceSection } from '../components/dashboard/ComplianceSection';
import { dayLabel, searchOfRange } from '../components/dashboard/figures';
import { LoadFailure } from '../components/dashboard/LoadFailure';
import { MoneySection } from '../components/dashboard/MoneySection';
import { OfficesSection } from '../components/dashboard/OfficesSection';
import { QueueSection } from '../components/dashboard/QueueSection';
import { RangePicker } from '../components/dashboard/RangePicker';
import { RejectionsSection } from '../components/dashboard/RejectionsSection';
import { TurnaroundSection } from '../components/dashboard/TurnaroundSection';
import { useDashboardFigures } from '../components/dashboard/useDashboardFigures';
import { OfficeFilter, useOfficeFilterChoices, useOfficeParam } from '../components/offices/scope';

/**
 * /admin/dashboard: how the compliance desk is doing. The review queue now, then over a range
 * (7, 30 or 90 days, or two chosen days, kept in the address so a reload or a shared link shows
 * the same): turnaround, rejections, compliance at close, the money of the CDAs; and the files closing within a week
 * that are not compliant. Every table can be saved as CSV, and each chart has a table beside it
 * with the same figures. The charts (recharts) are imported by this page's panels only, so they
 * stay in this page's lazily loaded chunk.
 */
export function Dashboard() {
  const { range, today, input, figures, choose } = useDashboardFigures();
  const data = figures.data;
  const offices = useOfficeFilterChoices();
  const [officeId, setOfficeId] = useOfficeParam();

  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Title order={1}>Dashboard</Title>
        <RangePicker key={searchOfRange(range)} range={range} shown={input} onChange={choose} />
        <OfficeFilter offices={offices} value={officeId} onChange={setOfficeId} />
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
            <OfficesSection offices={data.offices} />
            <TurnaroundSection turnaround={data.turnaround} />
            <RejectionsSection rejections={data.rejections} />
            <ComplianceSection compliance={data.compliance} />
            <MoneySection money={data.money} />
            <AtRiskSection atRisk={data.atRisk} today={today} />
          </Stack>
        ) : (
          figures.isPending && <Text c="dimmed">{ui.loading}</Text>
        )}
      </Stack>
    </Container>
  );
}
