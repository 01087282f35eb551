import { Readable } from 'node:stream';
import { apiMessages } from '../../shared/messages';
import type {
  ExportPlan,
  ReviewQueueExportInput,
  TransactionsExportInput,
  UsersExportInput,
} from '../../shared/schemas/exports';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { isStatementTimeout, type SqlCursor, sqlCursor } from '../db/sql';
import { AppError } from '../errors';
import type { CallerContext, ServiceContext } from './context';
import { escapeLike } from './paging';
import { adminFilter } from './transactions/pages';
import { accountStatus } from './users';

/**
 * The CSV exports of DESIGN.md 12.3: what a row is, which columns, in which order, and who may
 * (admins: the procedures of server/routers/exports.ts are adminProcedures and call the plan
 * functions below). Every matching row is sent, read from a server-side cursor a batch at a time
 * and pushed into a Node stream only when the previous batch has been taken, so an export of a
 * million rows holds one batch in memory. server/plugins/exports.ts only sends the stream.
 */

/** Rows per FETCH: about 250 KB of CSV, large enough that round trips cost little. */
const BATCH_ROWS = 1_000;
/**
 * statement_timeout of each FETCH. Far above the list's SEARCH_TIMEOUT_MS (a batch of a rare term
 * may scan much of the table to find its rows), but an export never holds a connection on one
 * statement for minutes.
 */
const FETCH_TIMEOUT_MS = 30_000;
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

/** What an export is: its header row, its statement and how a row of it becomes cells. */
type ExportSpec<Row> = { header: readonly string[]; statement: Prisma.Sql; cells: (row: Row) => Cell[] };

/** Timestamps as the API spells them (ISO 8601, UTC, milliseconds), formatted by PostgreSQL. */
const iso = (column: string) =>
  Prisma.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

// --- Transactions: the admin list, or its search, with its status filter ---

type TransactionRow = {
  id: string;
  street_address: string;
  city: string;
  state: string;
  zip: string;
  type: string;
  role: string;
  status: string;
  required_count: number;
  accepted_count: number;
  waived_count: number;
  awaiting_review_count: number;
  rejected_count: number;
  missing_count: number;
  agent_id: string;
  first_name: string;
  last_name: string;
  email: string;
  created_at: string;
  closed_at: string | null;
  closing_date: string | null;
};

export const TRANSACTION_COLUMNS = [
  'id',
  'street_address',
  'city',
  'state',
  'zip',
  'type',
  'role',
  'status',
  'compliant',
  'progress_percent',
  'required',
  'accepted',
  'waived',
  'awaiting_review',
  'rejected',
  'missing',
  'agent_id',
  'agent_name',
  'agent_email',
  'created_at',
  'closed_at',
  'closing_date',
] as const;

/** Exported for the benchmark's baseline (the same statement read raw). */
export function transactionsExportSql({ status, query }: TransactionsExportInput): Prisma.Sql {
  return Prisma.sql`
    SELECT t.id, t.street_address, t.city, t.state, t.zip, t.type, t.role,
           t.compliance_state::text AS status, t.required_count, t.accepted_count, t.waived_count,
           t.awaiting_review_count, t.rejected_count, t.missing_count,
           u.id AS agent_id, u.first_name, u.last_name, u.email::text AS email,
           ${iso('t.created_at')} AS created_at, ${iso('t.closed_at')} AS closed_at,
           (SELECT to_char(min(kd.date), 'YYYY-MM-DD') FROM key_dates kd
             WHERE kd.transaction_id = t.id AND kd.kind = 'closing') AS closing_date
      FROM transactions t JOIN users u ON u.id = t.user_id
     WHERE ${adminFilter(query, status)}
     ORDER BY t.created_at DESC, t.id DESC`;
}

function transactionCells(row: TransactionRow): Cell[] {
  const required = row.required_count;
  const done = row.accepted_count + row.waived_count;
  return [
    row.id,
    row.street_address,
    row.city,
    row.state,
    row.zip,
    row.type,
    row.role,
    row.status,
    done >= required,
    required === 0 ? 100 : Math.round((100 * done) / required),
    required,
    row.accepted_count,
    row.waived_count,
    row.awaiting_review_count,
    row.rejected_count,
    row.missing_count,
    row.agent_id,
    `${row.first_name} ${row.last_name}`,
    row.email,
    row.created_at,
    row.closed_at,
    row.closing_date,
  ];
}

// --- The review queue: undecided uploads and requested waivers, oldest first ---

type QueueRow = {
  transaction_id: string;
  street_address: string;
  city: string;
  state: string;
  zip: string;
  type: string;
  role: string;
  form_id: string;
  label: string;
  kind: string;
  version: number;
  waiver_reason: string | null;
  agent_id: string;
  first_name: string;
  last_name: string;
  email: string;
  submitted_at: string;
  waiting_seconds: string;
};

export const REVIEW_QUEUE_COLUMNS = [
  'transaction_id',
  'street_address',
  'city',
  'state',
  'zip',
  'type',
  'role',
  'item_id',
  'item',
  'kind',
  'version',
  'waiver_reason',
  'agent_id',
  'agent_name',
  'agent_email',
  'submitted_at',
  'waiting_seconds',
] as const;

/** The entries of GET /api/admin/review-queue (services/transactions/review-queue.ts), all of them. */
function reviewQueueExportSql({ type, agentId }: ReviewQueueExportInput, now: Date): Prisma.Sql {
  const filters = [
    Prisma.sql`t.closed_at IS NULL AND t.deleted_at IS NULL`,
    ...(agentId ? [Prisma.sql`t.user_id = ${agentId}::uuid`] : []),
    ...(type ? [Prisma.sql`t.type = ${type}`] : []),
  ];
  return Prisma.sql`
    SELECT t.id AS transaction_id, t.street_address, t.city, t.state, t.zip, t.type, t.role,
           e.form_id, f.label, e.kind, f.version,
           CASE WHEN e.kind = 'waiver' THEN f.waiver_reason END AS waiver_reason,
           u.id AS agent_id, u.first_name, u.last_name, u.email::text AS email,
           ${iso('e.queued_at')} AS submitted_at,
           greatest(0, floor(extract(epoch FROM ${now}::timestamptz - e.queued_at)))::bigint::text
             AS waiting_seconds
      FROM (SELECT f.id AS form_id, f.transaction_id, f.submitted_at AS queued_at, 'document' AS kind
              FROM transaction_forms f WHERE f.file_key IS NOT NULL AND f.status = 'pending'
            UNION ALL
            SELECT f.id, f.transaction_id, f.waiver_requested_at, 'waiver'
              FROM transaction_forms f WHERE f.waiver_status = 'requested') AS e
      JOIN transaction_forms f ON f.id = e.form_id
      JOIN transactions t ON t.id = e.transaction_id
      JOIN users u ON u.id = t.user_id
     WHERE ${Prisma.join(filters, ' AND ')}
     ORDER BY e.queued_at, e.form_id, e.kind`;
}

const queueCells = (row: QueueRow): Cell[] => [
  row.transaction_id,
  row.street_address,
  row.city,
  row.state,
  row.zip,
  row.type,
  row.role,
  row.form_id,
  row.label,
  row.kind,
  row.version,
  row.waiver_reason,
  row.agent_id,
  `${row.first_name} ${row.last_name}`,
  row.email,
  row.submitted_at,
  row.waiting_seconds,
];

// --- Users: the users list, with its search ---

type UserRow = {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  company: string;
  phone_number: string;
  role: string;
  is_owner: boolean;
  is_admin_approved: boolean;
  email_verified: boolean;
  created_at: string;
  deactivated_at: string | null;
};

export const USER_COLUMNS = [
  'id',
  'first_name',
  'last_name',
  'email',
  'company',
  'phone_number',
  'role',
  'status',
  'owner',
  'email_verified',
  'created_at',
  'deactivated_at',
] as const;

/** The rows of GET /api/users?query (services/users.ts listUsers), newest first. */
function usersExportSql({ query }: UsersExportInput): Prisma.Sql {
  const term = query?.trim();
  const pattern = `%${escapeLike(term ?? '')}%`;
  const where = term
    ? Prisma.sql`u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern}
        OR u.email ILIKE ${pattern} OR u.company ILIKE ${pattern}`
    : Prisma.sql`true`;
  return Prisma.sql`
    SELECT u.id, u.first_name, u.last_name, u.email::text AS email, u.company, u.phone_number,
           u.role::text AS role, u.is_owner, u.is_admin_approved,
           u.email_verified_at IS NOT NULL AS email_verified,
           ${iso('u.created_at')} AS created_at, ${iso('u.deactivated_at')} AS deactivated_at
      FROM users u WHERE ${where}
     ORDER BY u.created_at DESC, u.id DESC`;
}

const userCells = (row: UserRow): Cell[] => [
  row.id,
  row.first_name,
  row.last_name,
  row.email,
  row.company,
  row.phone_number,
  row.role,
  accountStatus({
    isAdminApproved: row.is_admin_approved,
    deactivatedAt: row.deactivated_at === null ? null : new Date(row.deactivated_at),
    emailVerifiedAt: row.email_verified ? new Date(0) : null,
  }),
  row.is_owner,
  row.email_verified,
  row.created_at,
  row.deactivated_at,
];

// --- Plans: who may, and what exactly will be sent ---

const today = (ctx: ServiceContext) => ctx.deps.clock.now().toISOString().slice(0, 10);

/** The caller is an admin (adminProcedure): the plan is the filter as parsed, and a file name. */
export function planTransactionsExport(ctx: CallerContext, input: TransactionsExportInput): ExportPlan {
  return { kind: 'transactions', filename: `transactions-${today(ctx)}.csv`, ...input };
}

export function planReviewQueueExport(ctx: CallerContext, input: ReviewQueueExportInput): ExportPlan {
  return { kind: 'review-queue', filename: `review-queue-${today(ctx)}.csv`, ...input };
}

export function planUsersExport(ctx: CallerContext, input: UsersExportInput): ExportPlan {
  return { kind: 'users', filename: `users-${today(ctx)}.csv`, ...input };
}

function specOf(plan: ExportPlan, now: Date): ExportSpec<never> {
  const spec = <Row>(value: ExportSpec<Row>) => value as unknown as ExportSpec<never>;
  switch (plan.kind) {
    case 'transactions':
      return spec({
        header: TRANSACTION_COLUMNS,
        statement: transactionsExportSql(plan),
        cells: transactionCells,
      });
    case 'review-queue':
      return spec({
        header: REVIEW_QUEUE_COLUMNS,
        statement: reviewQueueExportSql(plan, now),
        cells: queueCells,
      });
    case 'users':
      return spec({ header: USER_COLUMNS, statement: usersExportSql(plan), cells: userCells });
  }
}

// --- The stream ---

/**
 * CSV text from a cursor: the header and the first batch, then one batch per read the consumer
 * asks for (backpressure: nothing is fetched while what was pushed waits to be sent). Ending,
 * failing or being destroyed (the client went away) closes the cursor and frees its connection.
 */
class CursorCsvStream<Row> extends Readable {
  private pending: string;

  constructor(
    private readonly cursor: SqlCursor<Row>,
    header: readonly string[],
    first: Row[],
    private readonly cells: (row: Row) => Cell[],
    private readonly onClosed: () => void,
  ) {
    super();
    this.pending = csvLine(header) + this.lines(first);
  }

  private lines(rows: Row[]): string {
    let text = '';
    for (const row of rows) text += csvLine(this.cells(row));
    return text;
  }

  override _read(): void {
    if (this.pending) {
      const text = this.pending;
      this.pending = '';
      this.push(text);
      return;
    }
    this.cursor.next().then(
      async (rows) => {
        if (this.destroyed) return;
        if (rows.length === 0) {
          await this.cursor.close();
          this.onClosed();
          this.push(null);
          return;
        }
        this.push(this.lines(rows));
      },
      (error: Error) => this.destroy(error),
    );
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.cursor.close(error ?? new Error('export aborted')).then(
      () => {
        this.onClosed();
        callback(error);
      },
      (closeError: Error) => {
        this.onClosed();
        callback(error ?? closeError);
      },
    );
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
    const { first, cursor } = await sqlCursor<never>(ctx.db, spec.statement, {
      batchRows: BATCH_ROWS,
      timeoutMs: FETCH_TIMEOUT_MS,
    });
    return {
      filename: plan.filename,
      stream: new CursorCsvStream(cursor, spec.header, first, spec.cells, release),
    };
  } catch (error) {
    release();
    if (isStatementTimeout(error)) throw new AppError('SERVICE_UNAVAILABLE', apiMessages.searchTooSlow);
    throw error;
  }
}
