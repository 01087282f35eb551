import type { Cda } from '../../shared/schemas/commission';
import { ADMIN_ID, TRANSACTION_ID } from './transactions';

/** A CDA as commission.listCdas answers it: version n of a $10,000 gross on a 70% plan. */
export function testCda(version: number, overrides: Partial<Cda> = {}): Cda {
  return {
    _id: `00000000-0000-4000-8000-0000000000c${version}`,
    transactionId: TRANSACTION_ID,
    version,
    status: 'issued',
    lines: [
      { kind: 'brokerage', payee: 'Coastal Homes', amountCents: 100_000 },
      { kind: 'agent', payee: 'Dana Agent', amountCents: 895_000 },
      { kind: 'fee', payee: 'Coastal Homes', amountCents: 5_000 },
    ],
    grossCents: 1_000_000,
    pdfUrl: `/files/cdas/${TRANSACTION_ID}/v${version}.pdf?exp=1&sig=abc`,
    sha256: String(version).repeat(64),
    issuedAt: '2025-04-01T10:00:00.000Z',
    issuedBy: { _id: ADMIN_ID, name: 'Rita Reviewer' },
    override: null,
    paidAt: null,
    paidBy: null,
    supersededAt: null,
    plan: { name: 'Standard', agentSplit: 70, capCents: 100_000, transactionFeeCents: 5_000 },
    brokerageYearToDateCents: 0,
    ...overrides,
  };
}
