import type { Prisma } from '../db/generated/client';
import type { Caller } from './context';
import { actsFor } from './reach';

/**
 * The audit trail: who did what to which record, with the record before and after.
 * Written in the same database transaction as the change, so a change never lands without its
 * event, and a rolled-back change leaves none.
 */

type AuditWriter = {
  auditEvent: {
    create(args: { data: Prisma.AuditEventUncheckedCreateInput }): unknown;
    createMany(args: { data: Prisma.AuditEventCreateManyInput[] }): unknown;
  };
};

export type AuditEntry = {
  actorId: string | null;
  /** The API key the actor acted through: its creator is the actor. */
  apiKeyId?: string | null;
  /** The agent a coordinator acted for: set only when the actor is not the agent but acts for them. */
  onBehalfOf?: string | null;
  action: string;
  entity:
    | 'Transaction'
    | 'TransactionForm'
    | 'Comment'
    | 'TransactionTemplate'
    | 'User'
    | 'LibraryItem'
    | 'ApiKey'
    | 'WebhookEndpoint'
    | 'WebhookDelivery'
    | 'Office'
    | 'CommissionPlan'
    | 'Cda'
    | 'SignatureRequest';
  entityId: string;
  transactionId?: string;
  before?: unknown;
  after?: unknown;
};

/** Dates become ISO strings and undefined fields vanish, as they would in any JSON answer. */
function snapshot(value: unknown): Prisma.InputJsonValue | undefined {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as Prisma.InputJsonValue);
}

/**
 * Who an audit event names for a caller: the person, and the API key they acted through; on an
 * agent's transaction (`of.agentId`), the agent too when the caller is one of its coordinators.
 */
export function actorOf(
  caller: Caller,
  of: { agentId?: string } = {},
): Pick<AuditEntry, 'actorId' | 'apiKeyId' | 'onBehalfOf'> {
  const { agentId } = of;
  const onBehalfOf =
    agentId !== undefined && agentId !== caller.id && actsFor(caller, agentId) ? agentId : null;
  return { actorId: caller.id, apiKeyId: caller.apiKey?.id ?? null, onBehalfOf };
}

function rowOf(entry: AuditEntry) {
  return {
    actorId: entry.actorId,
    apiKeyId: entry.apiKeyId ?? null,
    onBehalfOf: entry.onBehalfOf ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    transactionId: entry.transactionId ?? null,
    before: snapshot(entry.before),
    after: snapshot(entry.after),
  };
}

export async function recordAudit(tx: AuditWriter, entry: AuditEntry): Promise<void> {
  await tx.auditEvent.create({ data: rowOf(entry) });
}

/** Many events in one statement: a change that reaches a batch of transactions records each. */
export async function recordAudits(tx: AuditWriter, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length > 0) await tx.auditEvent.createMany({ data: entries.map(rowOf) });
}
