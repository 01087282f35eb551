import { apiMessages } from '../../../shared/messages';
import type { PagingInput } from '../../../shared/schemas/common';
import type { KeyDateKind } from '../../../shared/schemas/key-dates';
import { DEFAULT_TIMEZONE } from '../../../shared/schemas/notification-settings';
import type {
  ComplianceStatus,
  TransactionSummary,
  TransactionsPage,
} from '../../../shared/schemas/transactions';
import { Prisma } from '../../db/generated/client';
import { isStatementTimeout, sqlRows, sqlRowsWithin } from '../../db/sql';
import { AppError } from '../../errors';
import type { Caller, CallerContext, SessionToConfirm } from '../context';
import { escapeLike, pageCount } from '../paging';
import {
  actsFor,
  adminTransactionsSql,
  agentsOf,
  assertActsForUser,
  transactionsOfOfficeSql,
} from '../reach';
import { confirmedSessionSql } from '../sessions';
import { toProgress } from './mappers';

/**
 * The transaction lists and searches, agents' and admins', in hand-written SQL
 * on the hot path: one statement and one round trip per page, total included.
 */

/** A row of transactionPageSql: the total on every row; a page past the end is one row of nulls. */
type PageRow = {
  total: number;
  id: string | null;
  street_address: string;
  city: string;
  state: string;
  zip: string;
  type: string;
  role: string;
  is_transaction_coordinator: boolean;
  is_title_report: boolean;
  is_natural_hazard_disclosure: boolean;
  created_at: Date;
  user_id: string;
  first_name: string;
  last_name: string;
  required_count: number;
  accepted_count: number;
  waived_count: number;
  awaiting_review_count: number;
  rejected_count: number;
  missing_count: number;
  compliance_state: ComplianceStatus;
  closed_at: Date | null;
  closing_date: string | null;
  next_kind: KeyDateKind | null;
  next_label: string | null;
  next_date: string | null;
  overdue_kind: KeyDateKind | null;
  overdue_label: string | null;
  overdue_date: string | null;
};

/**
 * One page of transactions (newest first) and the total of `filter`, in one statement and one
 * round trip. Only the keys (id, created_at) of the matching rows are counted and
 * paged; the page's 10 rows alone are then read in full with their agent's name, so a deep page
 * or a large total costs index entries, not table rows.
 *
 * `collect: 'once'` materialises the matches (a search: one bitmap scan of transactions_search_idx
 * feeds both the count and the page); `'per-use'` lets count and page each run on the index
 * (a plain list: an index-only count and an ordered index scan that stops after the page).
 * Exported so the benchmark's raw route runs exactly this SQL.
 */
export function transactionPageSql(
  filter: Prisma.Sql,
  { page, limit }: PagingInput,
  collect: 'once' | 'per-use',
  now: Date,
): Prisma.Sql {
  const materialized = collect === 'once' ? Prisma.sql`MATERIALIZED` : Prisma.sql`NOT MATERIALIZED`;
  return Prisma.sql`
    WITH matched AS ${materialized} (SELECT t.id, t.created_at FROM transactions t WHERE ${filter})
    SELECT c.total, p.*
      FROM (SELECT count(*)::int AS total FROM matched) AS c
      LEFT JOIN LATERAL (
        SELECT t.id, t.street_address, t.city, t.state, t.zip, t.type, t.role,
               t.is_transaction_coordinator, t.is_title_report, t.is_natural_hazard_disclosure,
               t.created_at, u.id AS user_id, u.first_name, u.last_name,
               t.required_count, t.accepted_count, t.waived_count, t.awaiting_review_count,
               t.rejected_count, t.missing_count, t.compliance_state::text AS compliance_state,
               t.closed_at, d.*
          FROM (SELECT id, created_at FROM matched
                 ORDER BY created_at DESC, id DESC
                 LIMIT ${limit} OFFSET ${(page - 1) * limit}) AS k
          JOIN transactions t ON t.id = k.id
          JOIN users u ON u.id = t.user_id
          CROSS JOIN LATERAL ${deadlinesSql(now)} AS d) AS p ON true
     ORDER BY p.created_at DESC, p.id DESC`;
}

/**
 * closing_date, next_* and overdue_* of the row `t` whose agent is `u`: one pass over
 * its few key dates (key_dates_transaction_id_date_idx), "today" in the agent's timezone.
 */
function deadlinesSql(now: Date): Prisma.Sql {
  return Prisma.sql`(
    SELECT to_char(min(kd.date) FILTER (WHERE kd.kind = 'closing'), 'YYYY-MM-DD') AS closing_date,
           (array_agg(kd.kind ORDER BY kd.date, kd.position) FILTER (WHERE NOT kd.done AND kd.date >= today.day))[1] AS next_kind,
           (array_agg(kd.label ORDER BY kd.date, kd.position) FILTER (WHERE NOT kd.done AND kd.date >= today.day))[1] AS next_label,
           to_char(min(kd.date) FILTER (WHERE NOT kd.done AND kd.date >= today.day), 'YYYY-MM-DD') AS next_date,
           (array_agg(kd.kind ORDER BY kd.date, kd.position) FILTER (WHERE NOT kd.done AND kd.date < today.day))[1] AS overdue_kind,
           (array_agg(kd.label ORDER BY kd.date, kd.position) FILTER (WHERE NOT kd.done AND kd.date < today.day))[1] AS overdue_label,
           to_char(min(kd.date) FILTER (WHERE NOT kd.done AND kd.date < today.day), 'YYYY-MM-DD') AS overdue_date
      FROM (SELECT (${now}::timestamptz AT TIME ZONE coalesce(u.timezone, ${DEFAULT_TIMEZONE}))::date AS day) AS today
      LEFT JOIN key_dates kd ON kd.transaction_id = t.id
  )`;
}

const deadlineOf = (kind: KeyDateKind | null, label: string | null, date: string | null) =>
  kind !== null && label !== null && date !== null ? { kind, label, date } : null;

/** The answer of the list and search routes, from the rows of transactionPageSql. */
export function toTransactionsPage(rows: PageRow[], limit: number): TransactionsPage {
  const total = rows[0]?.total ?? 0;
  const transactions: TransactionSummary[] = [];
  for (const row of rows) {
    if (row.id === null) continue; // the page is past the end: only the total came back
    const progress = toProgress({
      required: row.required_count,
      accepted: row.accepted_count,
      waived: row.waived_count,
      awaitingReview: row.awaiting_review_count,
      rejected: row.rejected_count,
      missing: row.missing_count,
    });
    transactions.push({
      _id: row.id,
      streetAddress: row.street_address,
      city: row.city,
      state: row.state,
      zip: row.zip,
      type: row.type,
      role: row.role,
      isTransactionCoordinator: row.is_transaction_coordinator,
      isTitleReport: row.is_title_report,
      isNaturalHazardDisclosure: row.is_natural_hazard_disclosure,
      createdAt: row.created_at.toISOString(),
      user: { _id: row.user_id, firstName: row.first_name, lastName: row.last_name },
      progress,
      compliant: progress.accepted + progress.waived >= progress.required,
      status: row.compliance_state,
      closedAt: row.closed_at?.toISOString() ?? null,
      closingDate: row.closing_date,
      nextDeadline: deadlineOf(row.next_kind, row.next_label, row.next_date),
      overdue: deadlineOf(row.overdue_kind, row.overdue_label, row.overdue_date),
    });
  }
  return { transactions, totalPages: pageCount(total, limit), totalTransactions: total };
}

async function listPage(
  ctx: CallerContext,
  filter: Prisma.Sql,
  paging: PagingInput,
): Promise<TransactionsPage> {
  const statement = transactionPageSql(filter, paging, 'per-use', ctx.deps.clock.now());
  const session = ctx.sessionToConfirm;
  // The plan of a list does not depend on its values (an index in every case): prepared.
  const rows = await sqlRows<PageRow>(ctx.db, session ? confirmingSession(statement, session) : statement, {
    prepared: true,
  });
  // The page always has a row (its total), so none means the session was not confirmed.
  if (session && rows.length > 0) session.confirmed = true;
  return toTransactionsPage(rows, paging.limit);
}

/**
 * The page's rows only if the session's claims still hold (SessionToConfirm), in the same round
 * trip: PostgreSQL evaluates the EXISTS once, before any row, and skips the page when it fails.
 */
const confirmingSession = (page: Prisma.Sql, session: SessionToConfirm) => Prisma.sql`
  SELECT page.* FROM (${page}) AS page WHERE ${confirmedSessionSql(session)}
   ORDER BY page.created_at DESC, page.id DESC`;

/** Joins the four address fields in transactions_search_idx. */
const SEPARATOR = '\u001f';
/** The four address fields joined exactly as transactions_search_idx indexes them. */
const ADDRESS_TEXT = Prisma.raw(
  "(t.street_address || E'\\x1f' || t.city || E'\\x1f' || t.state || E'\\x1f' || t.zip)",
);

/**
 * Case-insensitive substring on the address fields, served by the trigrams of
 * transactions_search_idx: a term without the separator is found in the joined fields exactly
 * when it is found in one of them (one test per row, where four would cost about four times as
 * much on a broad term). A term that holds the separator could match across two fields there,
 * so it is tested field by field, without the index (no one types U+001F into a search box).
 * Admins' searches also match the agent's first or last name, through the agents' ids, which
 * the same index's first column serves.
 */
function matching(term: string, withAgentName: boolean): Prisma.Sql {
  const pattern = `%${escapeLike(term)}%`;
  const address = term.includes(SEPARATOR)
    ? Prisma.sql`(t.street_address ILIKE ${pattern} OR t.city ILIKE ${pattern}
        OR t.state ILIKE ${pattern} OR t.zip ILIKE ${pattern})`
    : Prisma.sql`${ADDRESS_TEXT} ILIKE ${pattern}`;
  if (!withAgentName) return address;
  return Prisma.sql`(${address} OR t.user_id = ANY (ARRAY(SELECT u.id FROM users u
    WHERE u.first_name ILIKE ${pattern} OR u.last_name ILIKE ${pattern})))`;
}

export const ownActive = (userId: string) => Prisma.sql`t.user_id = ${userId}::uuid AND t.deleted_at IS NULL`;

/**
 * The undeleted transactions of an agent's list at /transactions/{userId}: that user's own; on a
 * coordinator's own list, its agents' too, or one of them (`agentId`).
 */
function agentListFilter(caller: Caller, userId: string, agentId: string | undefined): Prisma.Sql {
  if (userId !== caller.id || (caller.coordinatesFor ?? []).length === 0) {
    return agentId === undefined || agentId === userId ? ownActive(userId) : Prisma.sql`false`;
  }
  if (agentId !== undefined) return actsFor(caller, agentId) ? ownActive(agentId) : Prisma.sql`false`;
  return Prisma.sql`t.user_id = ANY (${agentsOf(caller)}::uuid[]) AND t.deleted_at IS NULL`;
}
const active = Prisma.sql`t.deleted_at IS NULL`;
/**
 * Every undeleted transaction, or those in one compliance state: the state is
 * a column the database keeps, first in transactions_compliance_state_idx, so a filtered page and
 * its count are read from that index as the plain list is from its own. Exported for the benchmark.
 */
export const activeIn = (status: ComplianceStatus | undefined) =>
  status === undefined
    ? active
    : Prisma.sql`t.compliance_state = ${status}::compliance_state AND t.deleted_at IS NULL`;

/**
 * The statement of a search for a non-empty term within `reached` (an agent's list filter), or
 * everyone's with the agents' names too (`null`: an admin's search, within `office`, a predicate on
 * `t`). Exported for the benchmark.
 */
export function searchStatement(
  term: string,
  reached: Prisma.Sql | null,
  paging: PagingInput,
  now: Date,
  status?: ComplianceStatus,
  office: Prisma.Sql = Prisma.sql`true`,
): Prisma.Sql {
  const filter =
    reached === null
      ? Prisma.sql`${activeIn(status)} AND ${office} AND ${matching(term, true)}`
      : Prisma.sql`${reached} AND ${matching(term, false)}`;
  return transactionPageSql(filter, paging, 'once', now);
}

/**
 * A search runs under its own statement_timeout (SEARCH_TIMEOUT_MS): a term no index can serve
 * ('a', '%%%') would otherwise scan every transaction while holding a pool connection. Cut off,
 * it is a 503 that says what to do, not a 500 and not a request that hangs. Not prepared: its
 * best plan depends on the term.
 */
async function searchPage(
  ctx: CallerContext,
  statement: Prisma.Sql,
  limit: number,
): Promise<TransactionsPage> {
  try {
    return toTransactionsPage(
      await sqlRowsWithin<PageRow>(ctx.db, ctx.deps.config.searchTimeoutMs, statement),
      limit,
    );
  } catch (error) {
    if (isStatementTimeout(error)) throw new AppError('SERVICE_UNAVAILABLE', apiMessages.searchTooSlow);
    throw error;
  }
}

// --- Agents (their own transactions; admins may use these paths too) ---

type AgentListInput = PagingInput & { userId: string; agentId?: string | undefined };

export async function listForUser(ctx: CallerContext, input: AgentListInput) {
  await assertActsForUser(ctx, input.userId);
  return listPage(ctx, agentListFilter(ctx.user, input.userId, input.agentId), input);
}

/** An empty term is the plain list. */
export async function searchForUser(ctx: CallerContext, input: AgentListInput & { term: string }) {
  await assertActsForUser(ctx, input.userId);
  const reached = agentListFilter(ctx.user, input.userId, input.agentId);
  const term = input.term.trim();
  if (!term) return listPage(ctx, reached, input);
  return searchPage(ctx, searchStatement(term, reached, input, ctx.deps.clock.now()), input.limit);
}

// --- Admins (every transaction they reach: services/reach.ts) ---

type AdminFilters = { status?: ComplianceStatus | undefined; officeId?: string | undefined };

const adminListFilter = (caller: Caller, input: AdminFilters) =>
  Prisma.sql`${activeIn(input.status)} AND ${adminTransactionsSql(caller, input.officeId)}`;

export function listAll(ctx: CallerContext, input: PagingInput & AdminFilters) {
  return listPage(ctx, adminListFilter(ctx.user, input), input);
}

/**
 * The rows of the admin list (no term) or search (a term) in an office settled by the export's
 * plan: the same WHERE clause, so the CSV export (services/exports.ts) answers exactly the rows
 * the admin's screen pages through.
 */
export function adminFilter(term: string | undefined, filters: AdminFilters): Prisma.Sql {
  const trimmed = term?.trim();
  const listed = Prisma.sql`${activeIn(filters.status)} AND ${transactionsOfOfficeSql(filters.officeId ?? null)}`;
  return trimmed ? Prisma.sql`${listed} AND ${matching(trimmed, true)}` : listed;
}

export function searchAll(ctx: CallerContext, input: PagingInput & AdminFilters & { term: string }) {
  const term = input.term.trim();
  if (!term) return listPage(ctx, adminListFilter(ctx.user, input), input);
  const office = adminTransactionsSql(ctx.user, input.officeId);
  return searchPage(
    ctx,
    searchStatement(term, null, input, ctx.deps.clock.now(), input.status, office),
    input.limit,
  );
}
