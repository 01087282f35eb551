import { createHash } from 'node:crypto';

/**
 * The audit chain's canonical JSON (docs/API.md, "Audit trail: hash chain"), made from parsed
 * JSON values: what PostgreSQL's jsonb prints, without a database. Keys shortest first (UTF-8
 * bytes), then by their bytes; ", " and ": " between; strings and numbers as JSON.stringify
 * writes them (the snapshots were written by it, so this is their stored text).
 */

function compareKeys(a: string, b: string): number {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length - right.length || Buffer.compare(left, right);
}

export function canonicalJson(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(', ')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .sort(compareKeys)
      .map((key) => `${JSON.stringify(key)}: ${canonicalJson(record[key])}`);
    return `{${members.join(', ')}}`;
  }
  throw new TypeError(`Not a JSON value: ${typeof value}`);
}

/** One event of audit.json: its place in the chain and every field its canonical JSON holds. */
export type ArchivedAuditEvent = {
  seq: number;
  prevHash: string;
  hash: string;
  id: string;
  action: string;
  entity: string;
  entityId: string;
  actorId: string | null;
  apiKeyId: string | null;
  onBehalfOf: string | null;
  transactionId: string | null;
  createdAt: string;
  before: unknown;
  after: unknown;
};

/** The event's hash as the chain gives it: sha256 of prevHash followed by its canonical JSON. */
export function auditEventHash(event: ArchivedAuditEvent): string {
  const { prevHash, hash: _hash, ...fields } = event;
  return createHash('sha256').update(prevHash).update(canonicalJson(fields)).digest('hex');
}
