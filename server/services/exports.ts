import { pipeline, type Readable, Transform, type TransformCallback } from 'node:stream';
import { apiMessages } from '../../shared/messages';
import type { AuditExportInput } from '../../shared/schemas/audit';
import type { PayoutsInput } from '../../shared/schemas/commission';
import { DEFAULT_REVIEW_TARGET_HOURS } from '../../shared/schemas/compliance';
import type {
  ExportPlan,
  ReviewQueueExportInput,
  TransactionsExportInput,
  UsersExportInput,
} from '../../shared/schemas/exports';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { isStatementTimeout, sqlCopyOut } from '../db/sql';
import { AppError } from '../errors';
import { AUDIT_COLUMNS, auditExportSql } from './audit-export';
import type { CallerContext, ServiceContext } from './context';
import { type Column, headerOf, iso, linesSql } from './export-sql';
import { escapeLike } from './paging';
import { PAYOUT_COLUMNS, payoutsExportSql } from './payouts-export';
import { assertBrokerageWide, officeOfLists, transactionsOfOfficeSql, usersOfOfficeSql } from './reach';
import { adminFilter } from './transactions/pages';

export { AUDIT_COLUMNS } from './audit-export';
export { defusedSql } from './export-sql';
export { PAYOUT_COLUMNS } from './payouts-export';

/**
 * The CSV exports (docs/API.md, "CSV exports"): what a row is, which columns, in which order, and who may
 * (admins: the procedures of server/routers/exports.ts are adminProcedures and call the plan
 * functions below). Every matching row is sent: PostgreSQL writes them with COPY ... TO STDOUT
 * (db/sql.ts sqlCopyOut) and the bytes are forwarded as the client takes them (the socket to
 * PostgreSQL is paused meanwhile), so an export of a million rows holds a few chunks in memory.
 * server/plugins/exports.ts only sends the stream.
 */

/**
 * Exports running at once on one pool: each holds a pooled connection until its last row is
 * sent, and the rest of the API must keep its connections.
 */
export const MAX_CONCURRENT_EXPORTS = 3;

type Cell = string | number | boolean | null;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break, quotes doubled.
 * A cell a spreadsheet would read as a formula (starting with = + - @, a tab or a carriage
 * return) is prefixed with `'` first (OWASP's CSV injection advice), whatever its column.
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record with its CRLF line break. */
export const csvLine = (cells: readonly Cell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

// --- Transactions: the admin list, or its search, with its status filter ---

const DONE = '(t.accepted_count + t.waived_count)';
const TRANSACTION_COLUMN_SQL: readonly Column[] = [
  ['id', 't.id', 'safe'],
  ['street_address', 't.street_address', 'text'],
  ['city', 't.city', 'text'],
  ['state', 't.state', 'text'],
  ['zip', 't.zip', 'text'],
  ['type', 't.type', 'text'],
  ['role', 't.role', 'text'],
  ['status', 't.compliance_state', 'safe'],
  // progress and compliant as the API computes them (transactions/mappers.ts toProgress).
  ['compliant', `${DONE} >= t.required_count`, 'safe'],
  [
    'progress_percent',
    `CASE WHEN t.required_count = 0 THEN 100 ELSE round(100.0 * ${DONE} / t.required_count)::int END`,
    'safe',
  ],
  ['required', 't.required_count', 'safe'],
  ['accepted', 't.accepted_count', 'safe'],
  ['waived', 't.waived_count', 'safe'],
  ['awaiting_review', 't.awaiting_review_count', 'safe'],
  ['rejected', 't.rejected_count', 'safe'],
  ['missing', 't.missing_count', 'safe'],
  ['agent_id', 'u.id', 'safe'],
  ['agent_name', "u.first_name || ' ' || u.last_name", 'text'],
  ['agent_email', 'u.email::text', 'text'],
  ['created_at', iso('t.created_at'), 'safe'],
  ['closed_at', iso('t.closed_at'), 'safe'],
  // The facts, empty where not set; money in integer cents, as the API answers it.
  ['sale_price_cents', 't.sale_price_cents', 'safe'],
  ['year_built', 't.year_built', 'safe'],
  ['financing', 't.financing', 'safe'],
  ['property_type', 't.property_type', 'safe'],
  ['hoa', 't.hoa', 'safe'],
];
export const TRANSACTION_COLUMNS = headerOf(TRANSACTION_COLUMN_SQL);

/** The rows of the admin list or search (pages.ts adminFilter), in its order. Exported for the benchmark. */
export function transactionsExportSql({ status, query, officeId }: TransactionsExportInput): Prisma.Sql {
  return linesSql(
    TRANSACTION_COLUMN_SQL,
    Prisma.sql`FROM transactions t JOIN users u ON u.id = t.user_id
     WHERE ${adminFilter(query, { status, officeId })}
     ORDER BY t.created_at DESC, t.id DESC`,
  );
}

// --- The review queue: undecided uploads and requested waivers, oldest first ---

const QUEUE_COLUMN_SQL: readonly Column[] = [
  ['transaction_id', 't.id', 'safe'],
  ['street_address', 't.street_address', 'text'],
  ['city', 't.city', 'text'],
  ['state', 't.state', 'text'],
  ['zip', 't.zip', 'text'],
  ['type', 't.type', 'text'],
  ['role', 't.role', 'text'],
  ['item_id', 'e.form_id', 'safe'],
  ['item', 'f.label', 'text'],
  ['kind', 'e.kind', 'safe'],
  ['version', 'f.version', 'safe'],
  ['waiver_reason', "CASE WHEN e.kind = 'waiver' THEN f.waiver_reason END", 'text'],
  ['agent_id', 'u.id', 'safe'],
  ['agent_name', "u.first_name || ' ' || u.last_name", 'text'],
  ['agent_email', 'u.email::text', 'text'],
  ['submitted_at', iso('e.queued_at'), 'safe'],
  ['waiting_seconds', 'greatest(0, floor(extract(epoch FROM now.at - e.queued_at)))::bigint', 'safe'],
  ['office', 'o.name::text', 'text'],
  // As the queue answers it (transactions/review-queue.ts isOverdue).
  [
    'overdue',
    `now.at - e.queued_at > make_interval(hours => coalesce(o.review_target_hours, ${DEFAULT_REVIEW_TARGET_HOURS}))`,
    'safe',
  ],
];
export const REVIEW_QUEUE_COLUMNS = headerOf(QUEUE_COLUMN_SQL);

/** The entries of GET /api/admin/review-queue (services/transactions/review-queue.ts), all of them. */
function reviewQueueExportSql({ type, agentId, officeId }: ReviewQueueExportInput, now: Date): Prisma.Sql {
  const filters = [
    Prisma.sql`t.closed_at IS NULL AND t.deleted_at IS NULL`,
    transactionsOfOfficeSql(officeId ?? null),
    ...(agentId ? [Prisma.sql`t.user_id = ${agentId}::uuid`] : []),
    ...(type ? [Prisma.sql`t.type = ${type}`] : []),
  ];
  return linesSql(
    QUEUE_COLUMN_SQL,
    Prisma.sql`FROM (SELECT f.id AS form_id, f.transaction_id, f.submitted_at AS queued_at, 'document' AS kind
              FROM transaction_forms f WHERE f.file_key IS NOT NULL AND f.status = 'pending'
            UNION ALL
            SELECT f.id, f.transaction_id, f.waiver_requested_at, 'waiver'
              FROM transaction_forms f WHERE f.waiver_status = 'requested') AS e
      JOIN transaction_forms f ON f.id = e.form_id
      JOIN transactions t ON t.id = e.transaction_id
      JOIN users u ON u.id = t.user_id
      LEFT JOIN offices o ON o.id = t.office_id
      CROSS JOIN (SELECT ${now}::timestamptz AS at) AS now
     WHERE ${Prisma.join(filters, ' AND ')}
     ORDER BY e.queued_at, e.form_id, e.kind`,
  );
}

// --- Users: the users list, with its search ---

const USER_COLUMN_SQL: readonly Column[] = [
  ['id', 'u.id', 'safe'],
  ['first_name', 'u.first_name', 'text'],
  ['last_name', 'u.last_name', 'text'],
  ['email', 'u.email::text', 'text'],
  ['company', 'u.company', 'text'],
  ['phone_number', 'u.phone_number', 'text'],
  ['role', 'u.role', 'safe'],
  // public-user.ts accountStatus, in the same order of precedence.
  [
    'status',
    `CASE WHEN u.is_admin_approved THEN 'active' WHEN u.deactivated_at IS NOT NULL THEN 'deactivated'
          WHEN u.email_verified_at IS NOT NULL THEN 'awaitingApproval' ELSE 'emailUnverified' END`,
    'safe',
  ],
  ['owner', 'u.is_owner', 'safe'],
  ['email_verified', 'u.email_verified_at IS NOT NULL', 'safe'],
  ['created_at', iso('u.created_at'), 'safe'],
  ['deactivated_at', iso('u.deactivated_at'), 'safe'],
];
export const USER_COLUMNS = headerOf(USER_COLUMN_SQL);

/** The rows of GET /api/users?query (services/users.ts listUsers), newest first. */
function usersExportSql({ query, officeId }: UsersExportInput): Prisma.Sql {
  const term = query?.trim();
  const pattern = `%${escapeLike(term ?? '')}%`;
  const where = term
    ? Prisma.sql`u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern}
        OR u.email ILIKE ${pattern} OR u.company ILIKE ${pattern}`
    : Prisma.sql`true`;
  return linesSql(
    USER_COLUMN_SQL,
    Prisma.sql`FROM users u WHERE (${where}) AND ${usersOfOfficeSql(officeId ?? null)}
     ORDER BY u.created_at DESC, u.id DESC`,
  );
}

type ExportSpec = { header: readonly string[]; statement: Prisma.Sql };

// --- Plans: who may, and what exactly will be sent ---

const today = (ctx: ServiceContext) => ctx.deps.clock.now().toISOString().slice(0, 10);

/**
 * The caller is an admin (adminProcedure): the plan is the filter as parsed, with the office the
 * caller's lists are held to settled now (services/reach.ts), and a file name.
 */
const settledOffice = (ctx: CallerContext, requested: string | undefined) =>
  officeOfLists(ctx.user, requested) ?? undefined;

export function planTransactionsExport(ctx: CallerContext, input: TransactionsExportInput): ExportPlan {
  const officeId = settledOffice(ctx, input.officeId);
  return { kind: 'transactions', filename: `transactions-${today(ctx)}.csv`, ...input, officeId };
}

export function planReviewQueueExport(ctx: CallerContext, input: ReviewQueueExportInput): ExportPlan {
  const officeId = settledOffice(ctx, input.officeId);
  return { kind: 'review-queue', filename: `review-queue-${today(ctx)}.csv`, ...input, officeId };
}

export function planUsersExport(ctx: CallerContext, input: UsersExportInput): ExportPlan {
  const officeId = settledOffice(ctx, input.officeId);
  return { kind: 'users', filename: `users-${today(ctx)}.csv`, ...input, officeId };
}

export function planPayoutsExport(ctx: CallerContext, input: PayoutsInput): ExportPlan {
  const officeId = settledOffice(ctx, input.officeId);
  return { kind: 'payouts', filename: `payouts-${today(ctx)}.csv`, ...input, officeId };
}

/** The audit trail spans every office: brokerage-wide admins only (403), as its list. */
export function planAuditExport(ctx: CallerContext, input: AuditExportInput): ExportPlan {
  assertBrokerageWide(ctx.user);
  return { kind: 'audit', filename: `audit-${today(ctx)}.csv`, ...input };
}

function specOf(plan: ExportPlan, now: Date): ExportSpec {
  switch (plan.kind) {
    case 'transactions':
      return { header: TRANSACTION_COLUMNS, statement: transactionsExportSql(plan) };
    case 'review-queue':
      return { header: REVIEW_QUEUE_COLUMNS, statement: reviewQueueExportSql(plan, now) };
    case 'users':
      return { header: USER_COLUMNS, statement: usersExportSql(plan) };
    case 'payouts':
      return { header: PAYOUT_COLUMNS, statement: payoutsExportSql(plan) };
    case 'audit':
      return { header: AUDIT_COLUMNS, statement: auditExportSql(plan) };
  }
}

// --- The stream ---

const QUOTE = 0x22;
const LF = 0x0a;
const CRLF = Buffer.from('\r\n');

/**
 * COPY's records end with LF; RFC 4180's with CRLF. A LF outside quotes ends a record (COPY quotes
 * every cell holding a line break), so the state is only whether we are inside quotes, carried
 * from chunk to chunk; a doubled quote flips it twice. Bytes, not text: UTF-8 never uses these
 * two bytes inside a character. The header row comes first.
 */
export class CrlfRecords extends Transform {
  private quoted = false;

  /** Called once, with the first rows or at the end of an export without any. */
  onFirst: () => void = () => {};

  constructor(header: string) {
    super();
    this.push(header);
  }

  override _flush(callback: TransformCallback): void {
    this.onFirst();
    callback();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.onFirst();
    const ends: number[] = [];
    let quoted = this.quoted;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === QUOTE) quoted = !quoted;
      else if (byte === LF && !quoted) ends.push(i);
    }
    this.quoted = quoted;
    if (ends.length === 0) {
      callback(null, chunk);
      return;
    }
    const out = Buffer.allocUnsafe(chunk.length + ends.length);
    let from = 0;
    let to = 0;
    for (const end of ends) {
      to += chunk.copy(out, to, from, end);
      to += CRLF.copy(out, to);
      from = end + 1;
    }
    chunk.copy(out, to, from);
    callback(null, out);
  }
}

const running = new WeakMap<Db, number>();

export type CsvExport = { filename: string; stream: Readable };

/**
 * Opens the export of `plan` (made by a plan function above, so its caller was allowed): the
 * statement runs and its first batch is read before anything is answered, so a failure of the
 * query (a search cut off by its timeout: 503) is still a proper error answer.
 */
export async function openCsvExport(ctx: ServiceContext, plan: ExportPlan): Promise<CsvExport> {
  // U+0000 is valid in a query string but not in PostgreSQL text: refused as the lists refuse it
  // (their statement fails with 22021, a 400), here before the COPY, whose errors come too late.
  if (Object.values(plan).some((value) => typeof value === 'string' && value.includes('\u0000')))
    throw new AppError('BAD_REQUEST', apiMessages.unstorableText);
  const count = running.get(ctx.db) ?? 0;
  if (count >= MAX_CONCURRENT_EXPORTS) throw new AppError('SERVICE_UNAVAILABLE', apiMessages.exportsBusy);
  running.set(ctx.db, count + 1);
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    running.set(ctx.db, (running.get(ctx.db) ?? 1) - 1);
  };
  const spec = specOf(plan, ctx.deps.clock.now());
  try {
    const copy = await sqlCopyOut(ctx.db, spec.statement);
    const stream = new CrlfRecords(csvLine(spec.header));
    // The first rows (or the end) are awaited before anything is answered, so a failure of the
    // statement itself is still a proper error answer, not a file cut short.
    const started = new Promise<void>((resolve, reject) => {
      stream.onFirst = resolve;
      // Either end destroys the other: a client gone stops the COPY and frees its connection.
      pipeline(copy.stream, stream, (error) => {
        release();
        if (error) reject(error);
      });
    });
    await started;
    return { filename: plan.filename, stream };
  } catch (error) {
    release();
    if (isStatementTimeout(error)) throw new AppError('SERVICE_UNAVAILABLE', apiMessages.searchTooSlow);
    throw error;
  }
}
