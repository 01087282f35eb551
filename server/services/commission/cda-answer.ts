import type { Cda, CdaLine } from '../../../shared/schemas/commission';
import type { Prisma } from '../../db/generated/client';
import type { FileLinker } from '../file-links';

/**
 * A CDA as answers show it. The lines are read back from their own columns (the database checks
 * they sum to the gross), in the order the split made them: referral, brokerage, agent, fee. The
 * payees are the names copied when the CDA was issued; the fee is the brokerage's.
 */

const personSelect = { select: { id: true, firstName: true, lastName: true } } as const;

export const cdaSelect = {
  id: true,
  transactionId: true,
  version: true,
  status: true,
  agentId: true,
  agentName: true,
  brokerageName: true,
  grossCents: true,
  referralName: true,
  referralThousandths: true,
  referralCents: true,
  brokerageCents: true,
  agentCents: true,
  feeCents: true,
  planName: true,
  agentSplit: true,
  capCents: true,
  transactionFeeCents: true,
  brokerageYearToDateCents: true,
  overrideReason: true,
  pdfKey: true,
  sha256: true,
  issuedAt: true,
  paidAt: true,
  supersededAt: true,
  issuer: personSelect,
  payer: personSelect,
} as const satisfies Prisma.CdaSelect;

export type CdaRow = Prisma.CdaGetPayload<{ select: typeof cdaSelect }>;

const nameOf = (person: { firstName: string; lastName: string }) =>
  `${person.firstName} ${person.lastName}`.trim();

/** The lines from a CDA's columns: only the referral and the fee may be absent. */
export function linesOf(row: CdaRow): CdaLine[] {
  const lines: CdaLine[] = [];
  if (row.referralName !== null && row.referralCents !== null) {
    lines.push({ kind: 'referral', payee: row.referralName, amountCents: Number(row.referralCents) });
  }
  lines.push({ kind: 'brokerage', payee: row.brokerageName, amountCents: Number(row.brokerageCents) });
  lines.push({ kind: 'agent', payee: row.agentName, amountCents: Number(row.agentCents) });
  if (row.feeCents !== null) {
    lines.push({ kind: 'fee', payee: row.brokerageName, amountCents: Number(row.feeCents) });
  }
  return lines;
}

/** The answer without its link: what a webhook carries (a link expires; the event stays). */
export function toCdaData(row: CdaRow): Omit<Cda, 'pdfUrl'> {
  return {
    _id: row.id,
    transactionId: row.transactionId,
    version: row.version,
    status: row.status as Cda['status'],
    lines: linesOf(row),
    grossCents: Number(row.grossCents),
    sha256: row.sha256,
    issuedAt: row.issuedAt.toISOString(),
    issuedBy: { _id: row.issuer.id, name: nameOf(row.issuer) },
    override: row.overrideReason === null ? null : { reason: row.overrideReason },
    paidAt: row.paidAt?.toISOString() ?? null,
    paidBy: row.payer ? { _id: row.payer.id, name: nameOf(row.payer) } : null,
    supersededAt: row.supersededAt?.toISOString() ?? null,
    plan: {
      name: row.planName,
      agentSplit: row.agentSplit,
      capCents: row.capCents === null ? null : Number(row.capCents),
      transactionFeeCents: Number(row.transactionFeeCents),
    },
    brokerageYearToDateCents: Number(row.brokerageYearToDateCents),
  };
}

export async function toCda(link: FileLinker, row: CdaRow): Promise<Cda> {
  return { ...toCdaData(row), pdfUrl: await link(row.pdfKey) };
}
