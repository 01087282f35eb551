import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { commissionMessages } from '../../../shared/commission-messages';
import { complianceMessages } from '../../../shared/messages';
import type { Cda, IssueCdaInput } from '../../../shared/schemas/commission';
import type { MissingItem } from '../../../shared/schemas/common';
import type { Tx } from '../../db/client';
import { AppError } from '../../errors';
import { transactionFileKey } from '../../storage/keys';
import { actorOf, recordAudit } from '../audit';
import type { CallerContext } from '../context';
import { fileLinker } from '../file-links';
import { isBrokerageWide } from '../reach';
import { findVisible, lockTransactions, notFound } from '../transactions/access';
import { placeOf } from '../transactions/notify';
import { commissionSelect, grossOf } from './answer';
import { cdaSelect, toCda } from './cda-answer';
import { emitCdaEvent, notifyAgentOfCda } from './cda-events';
import { cdaPdf } from './cda-pdf';
import { type SplitLine, splitCommission } from './split';

/**
 * Issuing a CDA: how a transaction's commission is paid out, as a new version that replaces the
 * current one (unless that one is paid). Admins reaching the transaction issue it for a compliant
 * file; a brokerage-wide admin may issue it for one that is not, with the reason (the override,
 * kept on the CDA, printed on its PDF and audited). On a compliant file no override is stored.
 *
 * The plan's yearly cap is per agent, so two CDAs of one agent issued at once must not both use
 * the same room under it: the transaction is locked first (as every change of it is), then the
 * agent's row, always in this order, and the year's brokerage shares are summed under both locks.
 */

const PDF_TYPE = 'application/pdf';

const issueSelect = {
  id: true,
  userId: true,
  streetAddress: true,
  city: true,
  state: true,
  zip: true,
  type: true,
  role: true,
  requiredCount: true,
  acceptedCount: true,
  waivedCount: true,
  ...commissionSelect,
  office: { select: { name: true } },
  user: {
    select: {
      firstName: true,
      lastName: true,
      commissionPlan: { select: { name: true, agentSplit: true, capCents: true, transactionFeeCents: true } },
    },
  },
  forms: {
    where: { required: true },
    select: { id: true, label: true, status: true, waiverStatus: true },
    orderBy: { position: 'asc' },
  },
} as const;

const conflict = (message: string) => new AppError('CONFLICT', message);

/** 1 January, 00:00 UTC, of the year of `now`: where the yearly cap starts counting. */
export const startOfYear = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), 0, 1));

/**
 * The brokerage's shares of the agent's CDAs issued since 1 January that are not superseded,
 * other than the one this transaction's new CDA replaces. Read under the agent's lock.
 */
async function brokerageYearToDate(tx: Tx, agentId: string, transactionId: string, now: Date) {
  const [row] = await tx.$queryRaw<{ cents: bigint }[]>`
    SELECT COALESCE(SUM(brokerage_cents), 0)::bigint AS cents FROM cdas
     WHERE agent_id = ${agentId}::uuid AND status <> 'superseded'
       AND issued_at >= ${startOfYear(now)} AND transaction_id <> ${transactionId}::uuid`;
  return Number(row?.cents ?? 0n);
}

/**
 * The agent's row, locked until the end of the database transaction. FOR NO KEY UPDATE: two
 * issuers for one agent wait for each other, while rows merely referring to the agent (its
 * notifications, sessions, audit events) go on being written meanwhile.
 */
async function lockAgent(tx: Tx, agentId: string) {
  await tx.$executeRaw`SELECT 1 FROM users WHERE id = ${agentId}::uuid FOR NO KEY UPDATE`;
}

const notCompliant = (missing: MissingItem[], count: number) =>
  new AppError('CONFLICT', complianceMessages.notCompliant(count), undefined, {
    error: 'not-compliant',
    missing,
  });

export async function issueCda(ctx: CallerContext, input: IssueCdaInput): Promise<Cda> {
  await findVisible(ctx, input.id);
  if (input.override && !isBrokerageWide(ctx.user)) {
    throw new AppError('FORBIDDEN', commissionMessages.overrideBrokerageWide);
  }
  const written: string[] = [];
  try {
    return await ctx.db.$transaction(async (tx) => {
      const locked = (await lockTransactions(tx, [input.id])).get(input.id);
      if (!locked || locked.deletedAt) throw notFound();
      const deal = await tx.transaction.findUniqueOrThrow({ where: { id: input.id }, select: issueSelect });

      const grossCents = grossOf(deal);
      if (grossCents === null || grossCents <= 0) throw conflict(commissionMessages.needsCommission);
      const plan = deal.user.commissionPlan;
      if (!plan) throw conflict(commissionMessages.needsPlan);
      const notDone = deal.requiredCount - deal.acceptedCount - deal.waivedCount;
      if (notDone > 0 && !input.override) {
        const missing = deal.forms
          .filter((form) => form.status !== 'accepted' && form.waiverStatus !== 'approved')
          .map((form) => ({ formId: form.id, label: form.label }));
        throw notCompliant(missing, notDone);
      }
      const overrideReason = notDone > 0 ? (input.override?.reason ?? null) : null;

      const current = await tx.cda.findFirst({
        where: { transactionId: deal.id, status: { not: 'superseded' } },
        select: { id: true, status: true, version: true },
      });
      if (current?.status === 'paid') throw conflict(commissionMessages.cdaPaidCannotReplace);

      await lockAgent(tx, deal.userId);
      const now = ctx.deps.clock.now();
      const yearToDate = await brokerageYearToDate(tx, deal.userId, deal.id, now);
      const splitPlan = {
        agentSplit: plan.agentSplit,
        capCents: plan.capCents === null ? null : Number(plan.capCents),
        transactionFeeCents: Number(plan.transactionFeeCents),
      };
      const referralThousandths = deal.commissionReferralThousandths;
      const lines = splitCommission({
        grossCents,
        referralPercent: referralThousandths === null ? null : referralThousandths / 1000,
        plan: splitPlan,
        brokerageYearToDateCents: yearToDate,
      });
      const amount = (kind: SplitLine['kind']) => lines.find((line) => line.kind === kind)?.amountCents;

      const last = await tx.cda.aggregate({ where: { transactionId: deal.id }, _max: { version: true } });
      const version = (last._max.version ?? 0) + 1;
      const agentName = `${deal.user.firstName} ${deal.user.lastName}`.trim();
      const brokerageName = ctx.deps.config.brokerageName;
      const issuer = await tx.user.findUniqueOrThrow({
        where: { id: ctx.user.id },
        select: { firstName: true, lastName: true },
      });
      const referralName = deal.commissionReferralName;
      const values = {
        grossCents: BigInt(grossCents),
        referralName: referralThousandths === null ? null : referralName,
        referralThousandths,
        referralCents: referralThousandths === null ? null : BigInt(amount('referral') ?? 0),
        brokerageCents: BigInt(amount('brokerage') ?? 0),
        agentCents: BigInt(amount('agent') ?? 0),
        feeCents: amount('fee') === undefined ? null : BigInt(amount('fee') ?? 0),
      };

      const pdf = await cdaPdf({
        brokerageName,
        officeName: deal.office?.name ?? null,
        agentName,
        propertyAddress: `${placeOf(deal)}, ${deal.state} ${deal.zip}`.trim(),
        parties: partiesOf(deal, agentName),
        lines: lines.map((line) => ({
          ...line,
          payee:
            line.kind === 'agent'
              ? agentName
              : line.kind === 'referral'
                ? (referralName ?? '')
                : brokerageName,
        })),
        grossCents,
        version,
        supersedes: current?.version ?? null,
        issuedAt: now,
        issuedByName: `${issuer.firstName} ${issuer.lastName}`.trim(),
        overrideReason,
      });
      const bytes = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      const key = transactionFileKey(deal.id, `CDA-v${version}.pdf`, 'pdf');
      const { size } = await ctx.deps.storage.put(key, Readable.from([bytes]), { contentType: PDF_TYPE });
      written.push(key);
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // Every stored file has its row, as uploads do: storage and database agree.
      await tx.storedFile.create({
        data: {
          key,
          size,
          contentType: PDF_TYPE,
          sha256,
          pages: 1,
          transactionId: deal.id,
          uploadedBy: ctx.user.id,
        },
      });

      // Before the insert: at most one CDA of a transaction is current (a partial unique index).
      if (current) {
        await tx.cda.update({
          where: { id: current.id },
          data: { status: 'superseded', supersededAt: now },
        });
      }
      const row = await tx.cda.create({
        data: {
          transactionId: deal.id,
          version,
          status: 'issued',
          agentId: deal.userId,
          agentName,
          brokerageName,
          ...values,
          planName: plan.name,
          agentSplit: plan.agentSplit,
          capCents: plan.capCents,
          transactionFeeCents: plan.transactionFeeCents,
          brokerageYearToDateCents: BigInt(yearToDate),
          overrideReason,
          pdfKey: key,
          sha256,
          issuedBy: ctx.user.id,
          issuedAt: now,
        },
        select: cdaSelect,
      });
      const answer = await toCda(fileLinker(ctx), row);
      const { pdfUrl: _link, ...audited } = answer;
      await recordAudit(tx, {
        ...actorOf(ctx.user, { agentId: deal.userId }),
        action: 'cda.issued',
        entity: 'Cda',
        entityId: row.id,
        transactionId: deal.id,
        ...(current ? { before: { supersedes: current.id, version: current.version } } : {}),
        after: audited,
      });
      await emitCdaEvent(tx, ctx, 'cda.issued', row);
      await notifyAgentOfCda(tx, ctx, deal, commissionMessages.cdaIssuedNotice(placeOf(deal), version));
      return answer;
    });
  } catch (error) {
    // The PDF of a CDA that was not recorded is nobody's: it goes too.
    await Promise.all(written.map((key) => ctx.deps.storage.delete(key).catch(() => {})));
    throw error;
  }
}

/** Who the file is for, as the transaction holds it: its side and type, with the agent. */
function partiesOf(deal: { type: string; role: string }, agentName: string): string {
  const side = deal.role === '-' ? deal.type : `${deal.role} (${deal.type})`;
  return `${side}, represented by ${agentName}`;
}
