import fc from 'fast-check';
import { SALE_PRICE_MAX_CENTS } from '../../shared/schemas/facts';
import { HUGE, hostileStrings, plainText, SHAPES, wrongNumber } from './hostile-facts';

/**
 * fast-check arbitraries of commission bodies that are wrong by construction: a commission plan's
 * fields and a transaction's commission (gross or rate, referral). Each is one part of an
 * otherwise valid body, with the names the 400 must carry (when its value can be read back).
 */

export type BadPart = { part: Record<string, unknown>; names: string[] };

const named = (name: string, value: unknown): BadPart => ({
  part: { [name]: value },
  names: plainText(value) ? [name] : [],
});

/** Whether a number has more than 3 decimals (a percent the portal cannot keep exactly). */
const pastThreeDecimals = (value: number) => Math.abs(value * 1000 - Math.round(value * 1000)) >= 1e-6;

/** A percent that is never one: at or below 0, past `max`, more than 3 decimals, not a number. */
const wrongPercent = (max: number, maxAllowed: boolean): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.double({ min: -1e12, max: 0, noNaN: true }),
    fc.double({ min: max, max: 1e12, noNaN: true }).filter((n) => n > max || !maxAllowed),
    fc.double({ min: 0, max, noNaN: true }).filter((n) => n > 0 && pastThreeDecimals(n)),
    fc.constantFrom(...HUGE, 1e308, 0, -0, 100.0001, 0.0001, 12.3456),
    hostileStrings,
    fc.constantFrom<unknown>(true, false, null, ...SHAPES),
  );

/** A referral that is no referral, or one with a wrong name or percent. */
const wrongReferral: fc.Arbitrary<BadPart> = fc
  .oneof(
    fc.constantFrom<unknown>('Harbor Referrals', 25, true, [], [{ name: 'A', percent: 10 }], ...HUGE),
    wrongPercent(100, false).map((percent) => ({ name: 'Harbor Referrals LLC', percent })),
    fc
      .constantFrom<unknown>('', '   ', 'x'.repeat(101), 7, null, ['A'], { first: 'A' })
      .map((name) => ({ name, percent: 25 })),
    fc.constant({ name: 'Harbor Referrals LLC' }),
    fc.constant({ percent: 25 }),
    fc.constant({ name: 'Harbor Referrals LLC', percent: 25, paidBy: 'brokerage' }),
  )
  .map((referral) => named('referral', referral));

/** Bad parts of PUT /api/transactions/{id}/commission over a body giving a gross amount. */
export const badGrossCommission: fc.Arbitrary<BadPart> = fc.oneof(
  {
    weight: 3,
    arbitrary: wrongNumber(1, SALE_PRICE_MAX_CENTS, false).map((v) => named('grossCommissionCents', v)),
  },
  // Both a gross and a rate: exactly one is allowed.
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: SALE_PRICE_MAX_CENTS }), fc.integer({ min: 1, max: 100_000 }))
      .map(([gross, thousandths]) => ({
        part: { grossCommissionCents: gross, ratePercent: thousandths / 1000 },
        names: ['grossCommissionCents'],
      })),
  },
  { weight: 2, arbitrary: wrongReferral },
);

/** Bad parts of the same path over a body giving a rate. */
export const badRateCommission: fc.Arbitrary<BadPart> = fc.oneof(
  { weight: 3, arbitrary: wrongPercent(100, true).map((v) => named('ratePercent', v)) },
  { weight: 2, arbitrary: wrongReferral },
);

/** Bad parts of a commission plan's body (create and update send the same). */
export const badPlan: fc.Arbitrary<BadPart> = fc.oneof(
  wrongNumber(0, 100, false).map((v) => named('agentSplit', v)),
  wrongNumber(0, SALE_PRICE_MAX_CENTS, true).map((v) => named('capCents', v)),
  wrongNumber(0, SALE_PRICE_MAX_CENTS, false).map((v) => named('transactionFeeCents', v)),
  fc
    .constantFrom<unknown>('', '   ', 'x'.repeat(101), 42, null, true, ['Plan'], { name: 'Plan' })
    .map((v) => named('name', v)),
);

/** Bad parts of a CDA's issue: an override that is no override, or one without a reason. */
export const badCdaOverride: fc.Arbitrary<BadPart> = fc
  .oneof(
    fc.constantFrom<unknown>('because', 42, true, null, [], [{ reason: 'x' }], ...HUGE),
    fc
      .constantFrom<unknown>('', '   ', '\t\n', 'x'.repeat(501), 7, null, ['why'], { text: 'why' })
      .map((reason) => ({
        reason,
      })),
    fc.constant({}),
    fc.constant({ reason: 'Title is on its way', approvedBy: 'owner' }),
  )
  .map((override) => named('override', override));

/** Bad parts of a CDA's payment: a paidAt that is no ISO date and time. */
export const badPaidAt: fc.Arbitrary<BadPart> = fc
  .oneof(
    fc.constantFrom<unknown>(
      '',
      'yesterday',
      '2026-12-04',
      '2026-12-04 16:00',
      '2026-13-04T16:00:00Z',
      '2026-12-04T25:00:00Z',
      '2026-12-04T16:00:00+25:00',
      1_796_000_000_000,
      true,
      null,
      ...SHAPES,
      ...HUGE,
    ),
    fc.integer(),
  )
  .map((paidAt) => named('paidAt', paidAt));
