import { apiMessages, toasts } from '../../shared/messages';
import type {
  AddressFields,
  AdminUpdateTransactionInput,
  Comment,
  CreateTransactionInput,
  HistoryEntry,
  ReviewInput,
  Transaction,
  TransactionForm,
  TransactionSummary,
  TransactionsPage,
} from '../../shared/schemas/transactions';
import type { Db } from '../db/client';
import { Prisma } from '../db/generated/client';
import { isStatementTimeout, sqlRows, sqlRowsWithin } from '../db/sql';
import type { AppDeps } from '../deps';
import { AppError } from '../errors';
import { isValidKey, keyFromLink } from '../storage/keys';
import type { Storage } from '../storage/storage';
import { recordAudit } from './audit';
import { activeAdminIds, notifyUsers } from './notifications';
import { escapeLike, pageCount } from './paging';
import { assertSelfOrAdmin, type Caller } from './users';

/**
 * Transactions, their checklist forms and the conversation on each form (issue 4). Agents reach
 * only their own transactions: anything else is 404, so an id reveals nothing. Admins reach all.
 * A soft-deleted transaction is gone for everyone. Every change writes an audit event in the
 * same database transaction.
 */

type Deps = Pick<AppDeps, 'db' | 'storage' | 'clock' | 'config'>;

const person = { select: { id: true, firstName: true, lastName: true } } as const;

const summarySelect = {
  id: true,
  streetAddress: true,
  city: true,
  state: true,
  zip: true,
  type: true,
  role: true,
  isTransactionCoordinator: true,
  isTitleReport: true,
  isNaturalHazardDisclosure: true,
  createdAt: true,
  user: person,
} as const satisfies Prisma.TransactionSelect;

const commentSelect = {
  id: true,
  text: true,
  role: true,
  status: true,
  createdAt: true,
  user: person,
} as const satisfies Prisma.CommentSelect;

const formSelect = {
  id: true,
  label: true,
  fileKey: true,
  status: true,
  comments: { select: commentSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] },
} as const satisfies Prisma.TransactionFormSelect;

const detailSelect = {
  ...summarySelect,
  userId: true,
  forms: { select: formSelect, orderBy: { position: 'asc' } },
} as const satisfies Prisma.TransactionSelect;

type SummaryRow = Prisma.TransactionGetPayload<{ select: typeof summarySelect }>;
type DetailRow = Prisma.TransactionGetPayload<{ select: typeof detailSelect }>;
type FormRow = Prisma.TransactionFormGetPayload<{ select: typeof formSelect }>;
type CommentRow = Prisma.CommentGetPayload<{ select: typeof commentSelect }>;
type PersonRow = { id: string; firstName: string; lastName: string };

const toPerson = (row: PersonRow) => ({ _id: row.id, firstName: row.firstName, lastName: row.lastName });

function toSummary(row: SummaryRow): TransactionSummary {
  return {
    _id: row.id,
    streetAddress: row.streetAddress,
    city: row.city,
    state: row.state,
    zip: row.zip,
    type: row.type,
    role: row.role,
    isTransactionCoordinator: row.isTransactionCoordinator,
    isTitleReport: row.isTitleReport,
    isNaturalHazardDisclosure: row.isNaturalHazardDisclosure,
    createdAt: row.createdAt.toISOString(),
    user: toPerson(row.user),
  };
}

function toComment(row: CommentRow): Comment {
  return {
    _id: row.id,
    text: row.text,
    role: row.role,
    status: row.status === 'accepted' || row.status === 'rejected' ? row.status : null,
    createdAt: row.createdAt.toISOString(),
    user: toPerson(row.user),
  };
}

async function toForm(storage: Storage, row: FormRow): Promise<TransactionForm> {
  return {
    _id: row.id,
    label: row.label,
    url: row.fileKey ? await storage.signedUrl(row.fileKey) : null,
    status: row.status,
    comments: row.comments.map(toComment),
  };
}

async function toTransaction(storage: Storage, row: DetailRow): Promise<Transaction> {
  return { ...toSummary(row), forms: await Promise.all(row.forms.map((form) => toForm(storage, form))) };
}

const notFound = () => new AppError('NOT_FOUND', apiMessages.notFound);

type Tx = Parameters<Parameters<Db['$transaction']>[0]>[0];

const agentLink = (id: string) => `/home/transactions/${id}`;
const adminLink = (id: string) => `/adminTransactions/transactions/${id}`;
const placeOf = (t: { streetAddress: string; city: string }) => `${t.streetAddress}, ${t.city}`;

async function nameOf(tx: Tx, userId: string): Promise<string> {
  const user = await tx.user.findUnique({
    where: { id: userId },
    select: { firstName: true, lastName: true },
  });
  return user ? `${user.firstName} ${user.lastName}` : 'Someone';
}

/**
 * "The other side" of a transaction (DESIGN.md section 7): when its agent acts, every active
 * admin hears of it; when anyone else acts, the agent does.
 */
async function notifyOtherSide(
  tx: Tx,
  actor: Caller,
  transaction: { id: string; userId: string },
  message: string,
): Promise<void> {
  if (actor.id === transaction.userId) {
    await notifyUsers(tx, await activeAdminIds(tx, actor.id), { message, link: adminLink(transaction.id) });
  } else {
    await notifyUsers(tx, [transaction.userId], { message, link: agentLink(transaction.id) });
  }
}

function excerpt(text: string, length = 80): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

type Paging = { page: number; limit: number };

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
};

/**
 * One page of transactions (newest first) and the total of `filter`, in one statement and one
 * round trip (issue 9). Only the keys (id, created_at) of the matching rows are counted and
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
  { page, limit }: Paging,
  collect: 'once' | 'per-use',
): Prisma.Sql {
  const materialized = collect === 'once' ? Prisma.sql`MATERIALIZED` : Prisma.sql`NOT MATERIALIZED`;
  return Prisma.sql`
    WITH matched AS ${materialized} (SELECT t.id, t.created_at FROM transactions t WHERE ${filter})
    SELECT c.total, p.*
      FROM (SELECT count(*)::int AS total FROM matched) AS c
      LEFT JOIN LATERAL (
        SELECT t.id, t.street_address, t.city, t.state, t.zip, t.type, t.role,
               t.is_transaction_coordinator, t.is_title_report, t.is_natural_hazard_disclosure,
               t.created_at, u.id AS user_id, u.first_name, u.last_name
          FROM (SELECT id, created_at FROM matched
                 ORDER BY created_at DESC, id DESC
                 LIMIT ${limit} OFFSET ${(page - 1) * limit}) AS k
          JOIN transactions t ON t.id = k.id
          JOIN users u ON u.id = t.user_id) AS p ON true
     ORDER BY p.created_at DESC, p.id DESC`;
}

/** The answer of the list and search routes, from the rows of transactionPageSql. */
export function toTransactionsPage(rows: PageRow[], limit: number): TransactionsPage {
  const total = rows[0]?.total ?? 0;
  const transactions: TransactionSummary[] = [];
  for (const row of rows) {
    if (row.id === null) continue; // the page is past the end: only the total came back
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
    });
  }
  return { transactions, totalPages: pageCount(total, limit), totalTransactions: total };
}

async function listPage(db: Db, filter: Prisma.Sql, paging: Paging): Promise<TransactionsPage> {
  // The plan of a list does not depend on its values (an index in every case): prepared.
  const rows = await sqlRows<PageRow>(db, transactionPageSql(filter, paging, 'per-use'), { prepared: true });
  return toTransactionsPage(rows, paging.limit);
}

/** Shown when a search is cut off by SEARCH_TIMEOUT_MS. */

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

const ownActive = (userId: string) => Prisma.sql`t.user_id = ${userId}::uuid AND t.deleted_at IS NULL`;
const active = Prisma.sql`t.deleted_at IS NULL`;

/**
 * The statement of a search for a non-empty term: an agent's own transactions (`userId`), or
 * everyone's with the agents' names too (`null`, the admin search). Exported for the benchmark.
 */
export function searchStatement(term: string, userId: string | null, paging: Paging): Prisma.Sql {
  const filter =
    userId === null
      ? Prisma.sql`${active} AND ${matching(term, true)}`
      : Prisma.sql`${ownActive(userId)} AND ${matching(term, false)}`;
  return transactionPageSql(filter, paging, 'once');
}

/**
 * A search runs under its own statement_timeout (SEARCH_TIMEOUT_MS): a term no index can serve
 * ('a', '%%%') would otherwise scan every transaction while holding a pool connection. Cut off,
 * it is a 503 that says what to do, not a 500 and not a request that hangs. Not prepared: its
 * best plan depends on the term.
 */
async function searchPage(deps: Deps, statement: Prisma.Sql, limit: number): Promise<TransactionsPage> {
  try {
    return toTransactionsPage(
      await sqlRowsWithin<PageRow>(deps.db, deps.config.searchTimeoutMs, statement),
      limit,
    );
  } catch (error) {
    if (isStatementTimeout(error)) throw new AppError('SERVICE_UNAVAILABLE', apiMessages.searchTooSlow);
    throw error;
  }
}

// --- Agents (their own transactions; admins may use these paths too) ---

export async function listForUser(deps: Deps, caller: Caller, input: Paging & { userId: string }) {
  assertSelfOrAdmin(caller, input.userId);
  return listPage(deps.db, ownActive(input.userId), input);
}

export async function searchForUser(
  deps: Deps,
  caller: Caller,
  input: Paging & { userId: string; term: string },
) {
  assertSelfOrAdmin(caller, input.userId);
  const term = input.term.trim();
  if (!term) return listPage(deps.db, ownActive(input.userId), input);
  return searchPage(deps, searchStatement(term, input.userId, input), input.limit);
}

export async function createTransaction(deps: Deps, caller: Caller, input: CreateTransactionInput) {
  // The spec's client names itself in `user`; naming anyone else is refused (DESIGN.md 11).
  if (input.user !== undefined && input.user !== caller.id)
    throw new AppError('FORBIDDEN', apiMessages.forbidden);
  const template = await deps.db.transactionTemplate.findUnique({
    where: { type_role: { type: input.type, role: input.role } },
    select: { documents: true },
  });
  if (!template) {
    throw new AppError('BAD_REQUEST', apiMessages.noTemplate, [
      { path: 'role', message: apiMessages.noTemplate },
    ]);
  }
  return deps.db.$transaction(async (tx) => {
    const created = await tx.transaction.create({
      data: {
        userId: caller.id,
        streetAddress: input.streetAddress,
        city: input.city,
        state: input.state,
        zip: input.zip,
        type: input.type,
        role: input.role,
        // The checklist is copied: later template edits do not change a deal in progress.
        forms: { create: template.documents.map((label, position) => ({ label, position })) },
      },
      select: detailSelect,
    });
    const answer = await toTransaction(deps.storage, created);
    await recordAudit(tx, {
      actorId: caller.id,
      action: 'transaction.create',
      entity: 'Transaction',
      entityId: created.id,
      transactionId: created.id,
      after: answer,
    });
    await notifyOtherSide(
      tx,
      caller,
      created,
      `${await nameOf(tx, caller.id)} opened a transaction: ${placeOf(created)}`,
    );
    return answer;
  });
}

/** The transaction if the caller may see it: an agent their own, an admin any. Else 404. */
async function findVisible(db: Db, caller: Caller, id: string, ownerId?: string): Promise<DetailRow> {
  const row = await db.transaction.findFirst({
    where: { id, deletedAt: null, ...(ownerId ? { userId: ownerId } : {}) },
    select: detailSelect,
  });
  if (!row || (caller.role !== 'admin' && row.userId !== caller.id)) throw notFound();
  return row;
}

/** Whether the caller may touch the transaction (uploads check this before reading a byte). */
export async function assertVisible(db: Db, caller: Caller, id: string): Promise<void> {
  const row = await db.transaction.findFirst({ where: { id, deletedAt: null }, select: { userId: true } });
  if (!row || (caller.role !== 'admin' && row.userId !== caller.id)) throw notFound();
}

export async function getForUser(deps: Deps, caller: Caller, input: { id: string; userId: string }) {
  assertSelfOrAdmin(caller, input.userId);
  return toTransaction(deps.storage, await findVisible(deps.db, caller, input.id, input.userId));
}

async function updateAddress(
  deps: Deps,
  caller: Caller,
  before: DetailRow,
  data: AddressFields &
    Partial<
      Pick<
        AdminUpdateTransactionInput,
        'isTransactionCoordinator' | 'isTitleReport' | 'isNaturalHazardDisclosure'
      >
    >,
) {
  return deps.db.$transaction(async (tx) => {
    const row = await tx.transaction.update({ where: { id: before.id }, data, select: detailSelect });
    await recordAudit(tx, {
      actorId: caller.id,
      action: 'transaction.update',
      entity: 'Transaction',
      entityId: row.id,
      transactionId: row.id,
      before: toSummary(before),
      after: toSummary(row),
    });
    return toTransaction(deps.storage, row);
  });
}

export async function updateForUser(
  deps: Deps,
  caller: Caller,
  input: AddressFields & { id: string; userId: string },
) {
  assertSelfOrAdmin(caller, input.userId);
  const before = await findVisible(deps.db, caller, input.id, input.userId);
  const { streetAddress, city, state, zip } = input;
  return updateAddress(deps, caller, before, { streetAddress, city, state, zip });
}

/** The form of a visible transaction, or 404. */
async function findForm(db: Db, caller: Caller, id: string, formId: string) {
  const transaction = await findVisible(db, caller, id);
  const form = transaction.forms.find((f) => f.id === formId);
  if (!form) throw notFound();
  return { transaction, form };
}

/**
 * Accepts the url an upload answered (absolute, /files/... or the bare key) and returns its key.
 * Only a key under this transaction's folder that exists in storage is accepted.
 */
async function keyOfUpload(storage: Storage, transactionId: string, url: string): Promise<string> {
  const key = keyFromLink(url);
  const belongs = isValidKey(key) && key.startsWith(`transactions/${transactionId}/`);
  if (!belongs || !(await storage.exists(key))) {
    throw new AppError('BAD_REQUEST', apiMessages.fileNotOfTransaction, [
      { path: 'url', message: apiMessages.fileNotOfTransaction },
    ]);
  }
  return key;
}

export async function setFormFile(
  deps: Deps,
  caller: Caller,
  input: { id: string; formId: string; url: string },
) {
  const { transaction, form } = await findForm(deps.db, caller, input.id, input.formId);
  const key = await keyOfUpload(deps.storage, transaction.id, input.url);
  return deps.db.$transaction(async (tx) => {
    // A new file is a new submission: it waits for review again. The old file stays in storage.
    const row = await tx.transactionForm.update({
      where: { id: form.id },
      data: { fileKey: key, status: 'pending' },
      select: formSelect,
    });
    await recordAudit(tx, {
      actorId: caller.id,
      action: 'form.upload',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: { label: form.label, fileKey: form.fileKey, status: form.status },
      after: { label: row.label, fileKey: row.fileKey, status: row.status },
    });
    await notifyOtherSide(
      tx,
      caller,
      transaction,
      `${await nameOf(tx, caller.id)} uploaded "${form.label}" for ${placeOf(transaction)}`,
    );
    return toForm(deps.storage, row);
  });
}

export async function addComment(
  deps: Deps,
  caller: Caller,
  input: { id: string; formId: string; text: string },
) {
  const { transaction, form } = await findForm(deps.db, caller, input.id, input.formId);
  return deps.db.$transaction(async (tx) => {
    // The role is the caller's real one, whatever a client sends (DESIGN.md section 11).
    const row = await tx.comment.create({
      data: { formId: form.id, userId: caller.id, text: input.text, role: caller.role },
      select: commentSelect,
    });
    const answer = toComment(row);
    await recordAudit(tx, {
      actorId: caller.id,
      action: 'comment.create',
      entity: 'Comment',
      entityId: row.id,
      transactionId: transaction.id,
      after: { form: form.label, text: answer.text },
    });
    await notifyOtherSide(
      tx,
      caller,
      transaction,
      `${await nameOf(tx, caller.id)} commented on "${form.label}" (${placeOf(transaction)}): ${excerpt(answer.text)}`,
    );
    return answer;
  });
}

// --- Admins (every user's transactions) ---

export function listAll(deps: Deps, input: Paging) {
  return listPage(deps.db, active, input);
}

export function searchAll(deps: Deps, input: Paging & { term: string }) {
  const term = input.term.trim();
  if (!term) return listPage(deps.db, active, input);
  return searchPage(deps, searchStatement(term, null, input), input.limit);
}

export async function getAny(deps: Deps, caller: Caller, id: string) {
  return toTransaction(deps.storage, await findVisible(deps.db, caller, id));
}

export async function updateAny(deps: Deps, caller: Caller, input: AdminUpdateTransactionInput) {
  const before = await findVisible(deps.db, caller, input.id);
  const { id: _id, ...data } = input;
  return updateAddress(deps, caller, before, data);
}

/** Soft delete: gone from every list and page; its documents and history stay on file. */
export async function softDelete(deps: Deps, caller: Caller, id: string) {
  const before = await findVisible(deps.db, caller, id);
  await deps.db.$transaction(async (tx) => {
    await tx.transaction.update({ where: { id }, data: { deletedAt: deps.clock.now() } });
    await recordAudit(tx, {
      actorId: caller.id,
      action: 'transaction.delete',
      entity: 'Transaction',
      entityId: id,
      transactionId: id,
      before: toSummary(before),
    });
  });
  return { message: toasts.transactionDeleted };
}

/** Accept or reject a form, with or without a comment; either decision can be changed later. */
export async function review(deps: Deps, caller: Caller, input: ReviewInput) {
  const { transaction, form } = await findForm(deps.db, caller, input.id, input.formId);
  const text = input.text?.trim() ?? '';
  return deps.db.$transaction(async (tx) => {
    if (input.status)
      await tx.transactionForm.update({ where: { id: form.id }, data: { status: input.status } });
    // One review action is one comment row: the decision and its reason together.
    await tx.comment.create({
      data: { formId: form.id, userId: caller.id, text, role: caller.role, status: input.status ?? null },
    });
    await recordAudit(tx, {
      actorId: caller.id,
      action: input.status ? 'form.review' : 'comment.create',
      entity: 'TransactionForm',
      entityId: form.id,
      transactionId: transaction.id,
      before: { label: form.label, status: form.status },
      after: { label: form.label, status: input.status ?? form.status, ...(text ? { comment: text } : {}) },
    });
    // One review action, one notification: the decision and its reason together.
    const message = input.status
      ? `"${form.label}" was ${input.status} (${placeOf(transaction)})${text ? `: ${excerpt(text)}` : ''}`
      : `${await nameOf(tx, caller.id)} commented on "${form.label}" (${placeOf(transaction)}): ${excerpt(text)}`;
    await notifyOtherSide(tx, caller, transaction, message);
    const row = await tx.transactionForm.findUniqueOrThrow({ where: { id: form.id }, select: formSelect });
    return toForm(deps.storage, row);
  });
}

export async function history(deps: Deps, caller: Caller, id: string): Promise<HistoryEntry[]> {
  await findVisible(deps.db, caller, id);
  const rows = await deps.db.auditEvent.findMany({
    where: { transactionId: id },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 200,
    select: {
      id: true,
      action: true,
      entity: true,
      entityId: true,
      before: true,
      after: true,
      createdAt: true,
      actor: person,
    },
  });
  return rows.map((row) => ({
    _id: row.id,
    action: row.action,
    entity: row.entity,
    entityId: row.entityId,
    actor: row.actor ? toPerson(row.actor) : null,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.createdAt.toISOString(),
  }));
}
