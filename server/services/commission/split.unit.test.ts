import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SplitLine, type SplitLineKind, splitCommission } from './split';

const amount = (lines: SplitLine[], kind: SplitLineKind) =>
  lines.filter((line) => line.kind === kind).reduce((sum, line) => sum + line.amountCents, 0);
const total = (lines: SplitLine[]) => lines.reduce((sum, line) => sum + line.amountCents, 0);

const plan = { agentSplit: 70, capCents: 100_000, transactionFeeCents: 5_000 };

describe('splitCommission', () => {
  it('holds the brokerage to its cap and moves the fee from the agent', () => {
    expect(
      splitCommission({ grossCents: 1_000_000, referralPercent: null, plan, brokerageYearToDateCents: 0 }),
    ).toEqual([
      { kind: 'brokerage', amountCents: 100_000 },
      { kind: 'agent', amountCents: 895_000 },
      { kind: 'fee', amountCents: 5_000 },
    ]);
  });

  it('splits by the plan alone while the cap is far', () => {
    expect(
      splitCommission({
        grossCents: 100_000,
        referralPercent: null,
        plan: { agentSplit: 70, capCents: null, transactionFeeCents: 0 },
        brokerageYearToDateCents: 5_000_000,
      }),
    ).toEqual([
      { kind: 'brokerage', amountCents: 30_000 },
      { kind: 'agent', amountCents: 70_000 },
    ]);
  });

  it('takes the referral first, rounded down, and splits the rest', () => {
    const lines = splitCommission({
      grossCents: 1_001,
      referralPercent: 25.5,
      plan: { agentSplit: 70, capCents: null, transactionFeeCents: 0 },
      brokerageYearToDateCents: 0,
    });
    // 1,001 x 25.5% = 255.255 -> 255; net 746; agent 70% = 522.2 -> 522; brokerage 224.
    expect(lines).toEqual([
      { kind: 'referral', amountCents: 255 },
      { kind: 'brokerage', amountCents: 224 },
      { kind: 'agent', amountCents: 522 },
    ]);
  });

  it('gives the brokerage only what is left under the cap, and nothing once it is reached', () => {
    const base = { grossCents: 1_000_000, referralPercent: null, plan };
    expect(amount(splitCommission({ ...base, brokerageYearToDateCents: 90_000 }), 'brokerage')).toBe(10_000);
    expect(amount(splitCommission({ ...base, brokerageYearToDateCents: 100_000 }), 'brokerage')).toBe(0);
    expect(amount(splitCommission({ ...base, brokerageYearToDateCents: 250_000 }), 'brokerage')).toBe(0);
    expect(amount(splitCommission({ ...base, brokerageYearToDateCents: 250_000 }), 'agent')).toBe(995_000);
  });

  it('never takes a fee larger than the agent share', () => {
    expect(
      splitCommission({
        grossCents: 3_000,
        referralPercent: null,
        plan: { agentSplit: 50, capCents: null, transactionFeeCents: 5_000 },
        brokerageYearToDateCents: 0,
      }),
    ).toEqual([
      { kind: 'brokerage', amountCents: 1_500 },
      { kind: 'agent', amountCents: 0 },
      { kind: 'fee', amountCents: 1_500 },
    ]);
  });

  it('answers zero lines for a zero gross and exact cents for amounts past 2^53 / 100,000', () => {
    expect(
      total(splitCommission({ grossCents: 0, referralPercent: 10, plan, brokerageYearToDateCents: 0 })),
    ).toBe(0);
    const big = 9_999_999_999_999;
    const lines = splitCommission({
      grossCents: big,
      referralPercent: 33.333,
      plan: { agentSplit: 0, capCents: null, transactionFeeCents: 0 },
      brokerageYearToDateCents: 0,
    });
    expect(amount(lines, 'referral')).toBe(3_333_299_999_999);
    expect(total(lines)).toBe(big);
  });

  it('refuses amounts that are not whole cents', () => {
    expect(() =>
      splitCommission({ grossCents: 10.5, referralPercent: null, plan, brokerageYearToDateCents: 0 }),
    ).toThrow(RangeError);
    expect(() =>
      splitCommission({
        grossCents: 100,
        referralPercent: null,
        plan: { ...plan, agentSplit: 101 },
        brokerageYearToDateCents: 0,
      }),
    ).toThrow(RangeError);
  });

  it('sums to the gross, takes nothing negative and keeps the year under the cap, for any plan', () => {
    const cents = (max: number) => fc.integer({ min: 0, max });
    fc.assert(
      fc.property(
        cents(10_000_000_000_000),
        fc.option(fc.integer({ min: 1, max: 99_999 }).map((thousandths) => thousandths / 1000)),
        fc.integer({ min: 0, max: 100 }),
        fc.option(cents(100_000_000)),
        cents(10_000_000),
        cents(200_000_000),
        (
          grossCents,
          referralPercent,
          agentSplit,
          capCents,
          transactionFeeCents,
          brokerageYearToDateCents,
        ) => {
          const lines = splitCommission({
            grossCents,
            referralPercent,
            plan: { agentSplit, capCents, transactionFeeCents },
            brokerageYearToDateCents,
          });
          expect(total(lines)).toBe(grossCents);
          for (const line of lines) {
            expect(Number.isSafeInteger(line.amountCents)).toBe(true);
            expect(line.amountCents).toBeGreaterThanOrEqual(0);
          }
          expect(amount(lines, 'fee')).toBeLessThanOrEqual(transactionFeeCents);
          const brokerage = amount(lines, 'brokerage');
          if (capCents !== null) {
            expect(brokerage).toBeLessThanOrEqual(Math.max(0, capCents - brokerageYearToDateCents));
          }
          expect(lines.some((line) => line.kind === 'referral')).toBe(referralPercent !== null);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("keeps an agent's year under the cap over any sequence of CDAs, versions replacing others", () => {
    // One step: a CDA on a transaction of the agent's (a later step on the same one replaces it).
    const step = fc.record({
      transaction: fc.integer({ min: 0, max: 5 }),
      grossCents: fc.integer({ min: 0, max: 50_000_000 }),
      referralPercent: fc.option(
        fc.integer({ min: 1, max: 99_999 }).map((thousandths) => thousandths / 1000),
      ),
    });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 5_000_000 }),
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(step, { minLength: 1, maxLength: 25 }),
        (agentSplit, capCents, transactionFeeCents, steps) => {
          // The brokerage share of each transaction's current CDA, as the service sums them.
          const current = new Map<number, number>();
          for (const { transaction, grossCents, referralPercent } of steps) {
            let yearToDate = 0;
            for (const [other, cents] of current) if (other !== transaction) yearToDate += cents;
            const lines = splitCommission({
              grossCents,
              referralPercent,
              plan: { agentSplit, capCents, transactionFeeCents },
              brokerageYearToDateCents: yearToDate,
            });
            expect(total(lines)).toBe(grossCents);
            expect(
              lines.every((line) => Number.isSafeInteger(line.amountCents) && line.amountCents >= 0),
            ).toBe(true);
            current.set(transaction, amount(lines, 'brokerage'));
            const year = [...current.values()].reduce((sum, cents) => sum + cents, 0);
            expect(year).toBeLessThanOrEqual(capCents);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
