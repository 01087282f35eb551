import type { Db } from '../db/client';

/**
 * CDA rows written straight to the table, for tests of what reads them (the payouts export, the
 * dashboard's money). The lines are given in cents and the agent's line is what remains of the
 * gross, so the sum the database checks always holds; a test states only what it looks at.
 */

type CdaRow = {
  transactionId: string;
  agentId: string;
  issuedBy: string;
  grossCents: number;
  brokerageCents: number;
  /** Default: what remains of the gross after the other lines. */
  agentCents?: number;
  referral?: { name: string; cents: number; thousandths?: number };
  /** Absent: no fee line. */
  feeCents?: number;
  status?: 'issued' | 'paid' | 'superseded';
  /** Default 1. */
  version?: number;
  paidAt?: Date;
  issuedAt?: Date;
  agentName?: string;
  brokerageName?: string;
};

let sequence = 0;

export async function insertCda(db: Db, row: CdaRow) {
  const status = row.status ?? (row.paidAt ? 'paid' : 'issued');
  const referralCents = row.referral?.cents ?? 0;
  const agentCents =
    row.agentCents ?? row.grossCents - referralCents - row.brokerageCents - (row.feeCents ?? 0);
  const issuedAt = row.issuedAt ?? new Date('2026-11-01T12:00:00.000Z');
  return db.cda.create({
    data: {
      transactionId: row.transactionId,
      version: row.version ?? 1,
      status,
      agentId: row.agentId,
      agentName: row.agentName ?? 'Agnes Agent',
      brokerageName: row.brokerageName ?? 'Acme Realty',
      grossCents: BigInt(row.grossCents),
      referralName: row.referral?.name ?? null,
      referralThousandths: row.referral ? (row.referral.thousandths ?? 25_000) : null,
      referralCents: row.referral ? BigInt(row.referral.cents) : null,
      brokerageCents: BigInt(row.brokerageCents),
      agentCents: BigInt(agentCents),
      feeCents: row.feeCents === undefined ? null : BigInt(row.feeCents),
      planName: 'Standard',
      agentSplit: 70,
      capCents: null,
      transactionFeeCents: BigInt(row.feeCents ?? 0),
      brokerageYearToDateCents: 0n,
      pdfKey: `cdas/${row.transactionId}/test-${++sequence}.pdf`,
      sha256: '0'.repeat(64),
      issuedBy: row.issuedBy,
      issuedAt,
      paidAt: status === 'paid' ? (row.paidAt ?? issuedAt) : null,
      paidBy: status === 'paid' ? row.issuedBy : null,
      supersededAt: status === 'superseded' ? issuedAt : null,
    },
  });
}
