import type { DashboardAnswer } from '../../shared/schemas/dashboard';
import { utcToday } from '../components/dashboard/figures';
import { addDays } from '../components/transactions/key-dates';
import { agent, reviewer, uuid } from './transactions';

/** Answers shaped as the dashboard's procedures give them (shared/schemas/dashboard.ts). */

export const seller = { _id: uuid(501), firstName: 'Sam', lastName: 'Seller' };

/** 1,350,000 cents in the range's first month and the rest (2,868,750) in its last, or all in one. */
function moneyByMonth(from: string, to: string) {
  const [first, last] = [from.slice(0, 7), to.slice(0, 7)];
  if (first === last) return [{ month: first, grossCents: 4_218_750 }];
  return [
    { month: first, grossCents: 1_350_000 },
    { month: last, grossCents: 2_868_750 },
  ];
}

/** The figures of the last 30 days up to `today`: four items waiting, one file at risk. */
export function dashboardFigures(
  overrides: Partial<DashboardAnswer> = {},
  today: string = utcToday(),
): DashboardAnswer {
  return {
    offices: [],
    from: addDays(today, -29),
    to: today,
    queue: {
      size: 4,
      oldestWaitingSeconds: 2 * 86_400 + 4 * 3_600 + 59,
      medianWaitingSeconds: 3 * 3_600 + 1_200,
    },
    turnaround: {
      reviewed: 12,
      medianSeconds: 5 * 3_600,
      p90Seconds: 86_400 + 2 * 3_600,
      byReviewer: [{ user: reviewer, reviewed: 12, medianSeconds: 5 * 3_600 }],
    },
    rejections: {
      rate: 0.25,
      byDocument: [
        { label: 'Purchase Agreement', reviewed: 8, rejected: 2, rate: 0.25 },
        { label: '=HYPERLINK("x")', reviewed: 4, rejected: 1, rate: 0.25 },
      ],
      byAgent: [
        { user: agent, reviewed: 8, rejected: 3, rate: 0.375 },
        { user: seller, reviewed: 4, rejected: 0, rate: 0 },
      ],
      topReasons: [{ code: 'missing-signature', label: 'Missing signature', count: 3 }],
    },
    compliance: {
      closed: 5,
      compliantAtClose: 4,
      byMonth: [{ month: today.slice(0, 7), closed: 5, compliantAtClose: 4 }],
    },
    atRisk: [
      {
        transaction: {
          _id: uuid(77),
          streetAddress: '9 Harbor Road',
          city: 'Augusta',
          state: 'ME',
          zip: '04330',
          type: 'Sale',
          role: 'Buyer',
          user: agent,
        },
        closingDate: addDays(today, 3),
        missing: 2,
        rejected: 1,
        awaitingReview: 0,
      },
    ],
    money: {
      grossCents: 4_218_750,
      brokerageCents: 1_265_625,
      agentCents: 2_853_125,
      pendingCents: 975_000,
      byMonth: moneyByMonth(addDays(today, -29), today),
    },
    ...overrides,
  };
}
