import { Anchor, Text } from '@mantine/core';
import { useMemo } from 'react';
import { Link } from 'wouter';
import { AT_RISK_DAYS, type DashboardAnswer } from '../../../shared/schemas/dashboard';
import { routeTo } from '../../paths';
import { dayState } from '../transactions/key-dates';
import { type FigureColumn, FigureTable } from './FigureTable';
import { dayLabel, fullName } from './figures';
import { Section } from './Section';

type AtRisk = DashboardAnswer['atRisk'][number];

const addressOf = (place: { streetAddress: string; city: string; state: string; zip: string }) =>
  `${place.streetAddress}, ${place.city}, ${place.state} ${place.zip}`;

/** The closing date says how far off it is, counted from `today`. */
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

/** Open files closing soon that are not compliant: what the desk should chase first. */
export function AtRiskSection({ atRisk, today }: { atRisk: DashboardAnswer['atRisk']; today: string }) {
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
