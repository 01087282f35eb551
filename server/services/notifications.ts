import { apiMessages } from '../../shared/messages';
import type { PagingInput } from '../../shared/schemas/common';
import { DEFAULT_DELIVERY, type NotificationEvent } from '../../shared/schemas/notification-settings';
import type { Notification } from '../../shared/schemas/notifications';
import type { Db, Tx as DbTx } from '../db/client';
import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import type { AppDeps } from '../deps';
import { AsyncQueue } from '../realtime/async-queue';
import { type BusEvent, NOTIFICATIONS_CHANNEL, SESSIONS_CHANNEL } from '../realtime/bus';
import type { CallerContext } from './context';
import { queueMails } from './mail';
import { notificationMail } from './mail-messages';
import { deliveryOf } from './notification-routing';
import { pageCount } from './paging';
import { assertSelfOrReachingAdmin } from './reach';

/**
 * Who hears about what. Notifications are written inside the transaction
 * of the change that causes them, together with their pg_notify: a rolled-back change leaves
 * neither a row nor a live event.
 */

/** A database transaction: notifying writes rows, events and mails in it. */
type Tx = DbTx;

/**
 * A user's notification as the list and the live stream read it: their own rows and the admin
 * notices of their admin terms (migration 20261202090000_admin_notices), in one shape.
 */
export type FeedRow = {
  id: string;
  message: string;
  link: string;
  read: boolean;
  created_at: Date;
  transaction_deleted: boolean;
};

export function toNotification(row: FeedRow): Notification {
  return {
    _id: row.id,
    message: row.message,
    link: row.link,
    read: row.read,
    createdAt: row.created_at.toISOString(),
    // History is kept, but the link would open "not found": the client shows it without one.
    transactionDeleted: row.transaction_deleted,
  };
}

type FeedOrder = 'newest' | 'oldest';

/**
 * A page of `userId`'s notifications in one statement: the first `offset + limit` of their own
 * rows and, per admin term, of the notices of that term (each an index range of
 * admin_notices_created_at_idx, read from its newest or oldest end), then the page of their
 * union; whether a notice is read and whether its transaction is deleted are read for the page's
 * rows alone. Through the notification_feed view, PostgreSQL joined every notice of the user's
 * terms with their read marks before it sorted: 2.1 s for the first page of an admin with
 * 1,000,000 notices, against a few index entries here.
 */
export function feedPageSql(
  userId: string,
  page: { order: FeedOrder; offset: number; limit: number; after?: Cursor },
): Prisma.Sql {
  const direction = Prisma.raw(page.order === 'newest' ? 'DESC' : 'ASC');
  const take = page.offset + page.limit;
  const after = (alias: string) =>
    page.after
      ? Prisma.sql`AND (${Prisma.raw(alias)}.created_at, ${Prisma.raw(alias)}.id) > (${page.after.createdAt}::timestamptz, ${page.after.id}::uuid)`
      : Prisma.empty;
  // The cursor's time as the range's start too: PostgreSQL 18 (the embedded one) began its scan
  // at the term's start and walked the admin's whole history up to the cursor, 134 ms for 40
  // notices after a year of them (bench/notification-feed.bench.ts), when the lower bound was the
  // term's and the cursor's only in the row comparison.
  const from = page.after
    ? Prisma.sql`greatest(t.started_at, ${page.after.createdAt}::timestamptz)`
    : Prisma.sql`t.started_at`;
  return Prisma.sql`
    WITH page AS (
      SELECT * FROM (
        (SELECT n.id, n.message, n.link, n.transaction_id, n.created_at, n.read_at IS NOT NULL AS read, false AS notice
           FROM notifications n
          WHERE n.user_id = ${userId}::uuid ${after('n')}
          ORDER BY n.created_at ${direction}, n.id ${direction} LIMIT ${take}::bigint)
        UNION ALL
        SELECT a.id, a.message, a.link, a.transaction_id, a.created_at, false, true
          FROM admin_terms t
          CROSS JOIN LATERAL (
            SELECT a.id, a.message, a.link, a.transaction_id, a.created_at
              FROM admin_notices a
             WHERE a.created_at >= ${from} AND a.created_at < coalesce(t.ended_at, 'infinity')
               AND a.except_user_id IS DISTINCT FROM ${userId}::uuid ${after('a')}
             ORDER BY a.created_at ${direction}, a.id ${direction} LIMIT ${take}::bigint) a
         WHERE t.user_id = ${userId}::uuid
      ) feed
      ORDER BY created_at ${direction}, id ${direction} OFFSET ${page.offset}::bigint LIMIT ${page.limit}::int
    )
    SELECT p.id, p.message, p.link, p.created_at,
           p.read OR (p.notice AND (coalesce(p.created_at < u.notices_read_before, false) OR EXISTS (
             SELECT 1 FROM admin_notice_reads r WHERE r.user_id = ${userId}::uuid AND r.notice_id = p.id))) AS read,
           coalesce((SELECT t.deleted_at IS NOT NULL FROM transactions t WHERE t.id = p.transaction_id), false)
             AS transaction_deleted
      FROM page p LEFT JOIN users u ON u.id = ${userId}::uuid
     ORDER BY p.created_at ${direction}, p.id ${direction}`;
}

/**
 * How many notifications `userId` has, and how many unread: their own rows, and per admin term
 * a count of its index range. Unread notices are those since the user last marked all read
 * (users.notices_read_before) without a read mark, so an admin who reads their notifications
 * has only the last ones counted, however long their history.
 */
export function feedCountsSql(userId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT (SELECT count(*) FROM notifications WHERE user_id = ${userId}::uuid)
           + (SELECT coalesce(sum(c.n), 0) FROM admin_terms t CROSS JOIN LATERAL (
                SELECT count(*) AS n FROM admin_notices a
                 WHERE a.created_at >= t.started_at AND a.created_at < coalesce(t.ended_at, 'infinity')
                   AND a.except_user_id IS DISTINCT FROM ${userId}::uuid) c
               WHERE t.user_id = ${userId}::uuid) AS total,
           (SELECT count(*) FROM notifications WHERE user_id = ${userId}::uuid AND read_at IS NULL)
           + (SELECT count(*) FROM admin_terms t JOIN users u ON u.id = t.user_id CROSS JOIN LATERAL (
                SELECT 1 FROM admin_notices a
                 WHERE a.created_at >= greatest(t.started_at, coalesce(u.notices_read_before, '-infinity'))
                   AND a.created_at < coalesce(t.ended_at, 'infinity')
                   AND a.except_user_id IS DISTINCT FROM ${userId}::uuid
                   AND NOT EXISTS (SELECT 1 FROM admin_notice_reads r
                                    WHERE r.user_id = ${userId}::uuid AND r.notice_id = a.id)) c
               WHERE t.user_id = ${userId}::uuid) AS unread`;
}

/** Messages are shown in a toast and a list: keep them to one readable line. */
const MAX_MESSAGE = 300;

export type NotificationInput = {
  message: string;
  /** A client path such as /home/transactions/<id>. */
  link: string;
  transactionId?: string;
  /** What it is about: decides whether it is also mailed now or in the digest. */
  event?: NotificationEvent;
};

/**
 * Notifies users in the change's transaction: the rows, their live events, and the mails of
 * those who chose e-mail for this event. Digest choices need nothing now: the
 * digest job reads the day's notifications by event.
 */
export async function notifyUsers(
  tx: Tx,
  userIds: ReadonlyArray<string>,
  event: NotificationInput,
  /** Needed to mail (an event set); a bare notification without an event needs none. */
  deps?: AppDeps,
) {
  const recipients = [...new Set(userIds)];
  const item = itemOf(event);
  await writeNotifications(
    tx,
    { kind: 'items', items: recipients.map((userId) => ({ ...item, userId })) },
    event.event ?? null,
    deps,
  );
}

/**
 * Notifies every active admin but `exceptUserId` (nobody needs to hear about their own action)
 * with one admin notice, stored once and read by each admin through their admin terms (fan-out
 * on read: feedPageSql, feedCountsSql). A row per admin made a comment to 10,000 admins write 10,000 rows (about
 * 160 ms) in its own transaction, before its live event could leave: the fan-out of
 * bench/websocket.bench.ts could not meet its goal while the audience's size was paid in that
 * transaction.
 */
export async function notifyActiveAdmins(
  tx: Tx,
  event: NotificationInput & { event: NotificationEvent },
  deps: AppDeps,
  exceptUserId?: string,
) {
  const item = itemOf(event);
  await writeNotifications(
    tx,
    { kind: 'admins', item, exceptUserId: exceptUserId ?? null },
    event.event,
    deps,
  );
}

/**
 * Many notifications, each to its own user, all of one event (a reminder sweep tells
 * hundreds of agents of hundreds of dates in one commit): the same as notifyUsers once per item,
 * in three statements whatever their number.
 */
export async function notifyEach(
  tx: Tx,
  items: ReadonlyArray<NotificationItem>,
  event: NotificationEvent,
  deps: AppDeps,
) {
  await writeNotifications(tx, { kind: 'items', items }, event, deps);
}

type NotificationItem = { userId: string; message: string; link: string; transactionId: string | null };

/** What every recipient of one notification is told. */
const itemOf = (event: NotificationInput): Omit<NotificationItem, 'userId'> => ({
  message: event.message,
  link: event.link,
  transactionId: event.transactionId ?? null,
});

/** Who is notified: listed items, or one item for every active admin but one. */
type Recipients =
  | { kind: 'items'; items: ReadonlyArray<NotificationItem> }
  | { kind: 'admins'; item: Omit<NotificationItem, 'userId'>; exceptUserId: string | null };

/**
 * Recipients per bus message. A NOTIFY payload must stay under 8,000 bytes: 50 pairs of ids take
 * about 4,000, the shared part at most about 2,100 (a 300-character message, every character
 * escaped as \uXXXX, and a link).
 */
const RECIPIENTS_PER_MESSAGE = 50;

const shortened = (message: string) =>
  message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;

/** The rows to insert, as (user_id, message, link, transaction_id, ord), ord numbering them from 1. */
function recipientRows(items: ReadonlyArray<NotificationItem>): Prisma.Sql {
  return Prisma.sql`
    SELECT * FROM unnest(${items.map((item) => item.userId)}::uuid[],
                         ${items.map((item) => shortened(item.message))}::text[],
                         ${items.map((item) => item.link)}::text[],
                         ${items.map((item) => item.transactionId)}::uuid[]) WITH ORDINALITY`;
}

/**
 * The live event's notification, toNotification's shape built in SQL from a row just written
 * (`message`, `link`, `transaction_id`, `created_at` in scope): createdAt as toISOString writes
 * it, read false, transactionDeleted as the transaction is now. Its id travels beside it.
 */
const EVENT_NOTIFICATION = Prisma.sql`json_build_object(
  'message', message,
  'link', link,
  'read', false,
  'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'transactionDeleted', EXISTS (
    SELECT 1 FROM transactions t WHERE t.id = transaction_id AND t.deleted_at IS NOT NULL
  )
)`;

/**
 * The ids of one statement's notifications: UUIDv7 (RFC 9562) with the statement's millisecond,
 * 74 bits drawn at random once, and the row's number added to the last 44 of them (the RFC's
 * counter method). gen_random_uuid() per row cost 2.6 µs each here, and its random keys scattered
 * 10,000 inserts across the primary key's index: a comment to 10,000 admins, when it still wrote
 * a row per admin, wrote them in about 160 ms instead of 230; a reminder sweep writes
 * as many. `seed.prefix || lpad(to_hex(seed.base + ord), 12, '0')` makes row ord's id.
 */
const ID_SEED = Prisma.sql`
  SELECT lpad(to_hex((extract(epoch FROM statement_timestamp()) * 1000)::bigint), 12, '0') || '7'
         || substr(r, 1, 3) || substr('89ab', 1 + ('x' || substr(r, 4, 1))::bit(4)::int % 4, 1)
         || substr(r, 5, 3) AS prefix,
         ('x' || substr(r, 9, 11))::bit(44)::bigint AS base
    FROM (SELECT replace(gen_random_uuid()::text, '-', '') AS r) AS random`;

/**
 * The rows, their live events and the mails of those who chose e-mail for `event`, in three
 * statements whatever the number of recipients: the notifications (or the one admin notice) with
 * their pg_notify, the preferences of those who may be mailed, and the mails (one outbox insert
 * with its jobs). Through Prisma (createManyAndReturn, then one payload per row) 1,000
 * recipients cost hundreds of milliseconds and left the server about 100 MiB larger
 * (bench/websocket.bench.ts); per item, four round trips made 10,000 reminders 40,000
 * (bench/jobs.bench.ts).
 */
async function writeNotifications(
  tx: Tx,
  recipients: Recipients,
  event: NotificationEvent | null,
  deps: AppDeps | undefined,
) {
  if (recipients.kind === 'items' && recipients.items.length === 0) return;
  if (recipients.kind === 'admins') await writeAdminNotice(tx, recipients, event);
  else await writeUserNotifications(tx, recipients.items, event);
  if (event === null) return;
  if (!deps) throw new Error('notifying of an event needs deps to mail it');
  const mailed = new Map(
    (await mailCandidates(tx, recipients, event))
      .filter((user) => deliveryOf(user.role, user.deliveries, event) === 'email')
      .map((user) => [user.id, user]),
  );
  if (mailed.size === 0) return;
  const items =
    recipients.kind === 'items'
      ? recipients.items
      : [...mailed.keys()].map((userId) => ({ ...recipients.item, userId }));
  const mails = items.flatMap((item) => {
    const user = mailed.get(item.userId);
    if (!user) return [];
    const notification = { message: shortened(item.message), link: item.link, event };
    return [
      { kind: `notification.${event}`, userId: user.id, content: notificationMail(deps, user, notification) },
    ];
  });
  await queueMails(tx, deps, mails);
}

/**
 * One notification for each item's user. One bus message carries one notification for up to
 * RECIPIENTS_PER_MESSAGE users (their ids and the ids of their rows), not one message per user
 * (realtime/bus.ts reads them).
 */
async function writeUserNotifications(
  tx: Tx,
  items: ReadonlyArray<NotificationItem>,
  event: NotificationEvent | null,
) {
  await tx.$executeRaw`
    WITH seed AS (${ID_SEED}), inserted AS (
      INSERT INTO notifications (id, user_id, message, link, transaction_id, event, created_at)
      SELECT (seed.prefix || lpad(to_hex(seed.base + n.ord), 12, '0'))::uuid,
             n.user_id, n.message, n.link, n.transaction_id, ${event}::notification_event, statement_timestamp()
        FROM seed, (${recipientRows(items)}) AS n(user_id, message, link, transaction_id, ord)
      RETURNING id, user_id, message, link, transaction_id, created_at
    ), chunked AS (
      SELECT *, (row_number() OVER (PARTITION BY message, link, transaction_id ORDER BY id) - 1)
                / ${RECIPIENTS_PER_MESSAGE}::int AS chunk
        FROM inserted
    )
    SELECT pg_notify(${NOTIFICATIONS_CHANNEL}, json_build_object(
      'to', json_agg(json_build_array(user_id, id) ORDER BY id),
      'notification', ${EVENT_NOTIFICATION}
    )::text)
    FROM chunked
    GROUP BY message, link, transaction_id, created_at, chunk
    ORDER BY min(id::text)`;
}

/**
 * The one row of a notice to every active admin but one, and its one bus message,
 * `{admins: {id, except}, notification}`: each instance hands it to the streams of its admins.
 */
async function writeAdminNotice(
  tx: Tx,
  recipients: Extract<Recipients, { kind: 'admins' }>,
  event: NotificationEvent | null,
) {
  const { item, exceptUserId } = recipients;
  await tx.$executeRaw`
    WITH seed AS (${ID_SEED}), inserted AS (
      INSERT INTO admin_notices (id, message, link, transaction_id, event, except_user_id, created_at)
      SELECT (seed.prefix || lpad(to_hex(seed.base + 1), 12, '0'))::uuid, ${shortened(item.message)},
             ${item.link}, ${item.transactionId}::uuid, ${event}::notification_event,
             ${exceptUserId}::uuid, statement_timestamp()
        FROM seed
      RETURNING id, message, link, transaction_id, except_user_id, created_at
    )
    SELECT pg_notify(${NOTIFICATIONS_CHANNEL}, json_build_object(
      'admins', json_build_object('id', id, 'except', except_user_id),
      'notification', ${EVENT_NOTIFICATION}
    )::text)
    FROM inserted`;
}

type MailCandidate = {
  id: string;
  email: string;
  first_name: string;
  role: 'user' | 'admin';
  deliveries: Prisma.JsonValue;
};

/**
 * The recipients who may be mailed of `event`: those who chose a delivery for it, or all of them
 * when its default is e-mail (deliveryOf then decides). A comment to 1,000 admins who kept the
 * in-app default reads no row here instead of 1,000.
 */
function mailCandidates(tx: Tx, recipients: Recipients, event: NotificationEvent): Promise<MailCandidate[]> {
  const who =
    recipients.kind === 'items'
      ? Prisma.sql`id = ANY(${[...new Set(recipients.items.map((item) => item.userId))]}::uuid[])`
      : Prisma.sql`role = 'admin' AND id IS DISTINCT FROM ${recipients.exceptUserId}::uuid`;
  return tx.$queryRaw<MailCandidate[]>`
    SELECT id, email::text AS email, first_name, role::text AS role, notification_deliveries AS deliveries
      FROM users
     WHERE ${who} AND is_admin_approved
       AND (notification_deliveries -> ${event}::text IS NOT NULL OR ${DEFAULT_DELIVERY[event] === 'email'})`;
}

/** Ends the live connections of a user on every instance (deactivation). */
export async function revokeLiveSessions(tx: Pick<Db, '$executeRaw'>, userId: string) {
  await tx.$executeRaw`SELECT pg_notify(${SESSIONS_CHANNEL}, ${userId})`;
}

export async function listNotifications(ctx: CallerContext, input: PagingInput & { userId: string }) {
  await assertSelfOrReachingAdmin(ctx, input.userId);
  const { db } = ctx;
  const page = { order: 'newest', offset: (input.page - 1) * input.limit, limit: input.limit } as const;
  const [rows, [counts]] = await Promise.all([
    sqlRows<FeedRow>(db, feedPageSql(input.userId, page), { prepared: true }),
    sqlRows<{ total: string; unread: string }>(db, feedCountsSql(input.userId), { prepared: true }),
  ]);
  const total = Number(counts?.total ?? 0);
  return {
    notifications: rows.map(toNotification),
    totalPages: pageCount(total, input.limit),
    total,
    unread: Number(counts?.unread ?? 0),
  };
}

/**
 * A notice younger than this may still be uncommitted when the user marks all read: interactive
 * transactions end within Prisma's 5 s, statements within their timeouts. Older notices are read
 * by moving users.notices_read_before; younger ones get read marks of their own.
 */
const NOTICE_COMMIT_MARGIN = "interval '1 minute'";

/**
 * Marks every notification of the user read: their own rows; the admin notices up to a minute
 * ago by moving their watermark (one row, however many notices); the newer ones, committed and
 * theirs, with read marks. Times are the database's, the clock notices are stamped with.
 */
export async function markAllRead(ctx: CallerContext, { userId }: { userId: string }) {
  await assertSelfOrReachingAdmin(ctx, userId);
  const now = ctx.deps.clock.now();
  const margin = Prisma.raw(NOTICE_COMMIT_MARGIN);
  await ctx.db.$transaction([
    ctx.db.notification.updateMany({ where: { userId, readAt: null }, data: { readAt: now } }),
    ctx.db.$executeRaw`
      UPDATE users SET notices_read_before = statement_timestamp() - ${margin}
       WHERE id = ${userId}::uuid
         AND (notices_read_before IS NULL OR notices_read_before < statement_timestamp() - ${margin})`,
    ctx.db.$executeRaw`
      INSERT INTO admin_notice_reads (user_id, notice_id, read_at)
      SELECT t.user_id, a.id, ${now}
        FROM admin_terms t
        CROSS JOIN LATERAL (
          SELECT a.id FROM admin_notices a
           WHERE a.created_at >= greatest(t.started_at, statement_timestamp() - ${margin})
             AND a.created_at < coalesce(t.ended_at, 'infinity')
             AND a.except_user_id IS DISTINCT FROM t.user_id) a
       WHERE t.user_id = ${userId}::uuid
      ON CONFLICT (user_id, notice_id) DO NOTHING`,
  ]);
  return { message: apiMessages.notificationsRead };
}

/** A position in a user's notifications, in the order they are listed (oldest first here). */
export type Cursor = {
  /** A row's time, or a live event's createdAt as sent (ISO): no Date parsed per event. */
  createdAt: Date | string;
  id: string;
};

type CursorRow = { id: string; created_at: Date };

/**
 * Where a live stream starts: after the event the client last saw, else after the newest. The
 * stream's statements are hand-written and prepared (server/db/sql.ts): every socket runs them
 * when it subscribes, and after a restart thousands subscribe at once. Through Prisma each
 * subscription left about 40 KiB of garbage that V8 promoted while the queries waited, and the
 * server's memory stayed that much higher (docs/PERFORMANCE.md, the WebSocket goals).
 */
async function startCursor(db: Db, userId: string, lastEventId: string | null | undefined): Promise<Cursor> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (lastEventId && uuid.test(lastEventId)) {
    // An admin notice's id marks a moment whether or not the notice is in the user's feed.
    const [seen] = await sqlRows<CursorRow>(
      db,
      Prisma.sql`SELECT id, created_at FROM notifications WHERE id = ${lastEventId}::uuid AND user_id = ${userId}::uuid
                 UNION ALL
                 SELECT id, created_at FROM admin_notices WHERE id = ${lastEventId}::uuid`,
      { prepared: true },
    );
    if (seen) return { id: seen.id, createdAt: seen.created_at };
  }
  const [newest] = await sqlRows<FeedRow>(db, feedPageSql(userId, { order: 'newest', offset: 0, limit: 1 }), {
    prepared: true,
  });
  return newest
    ? { id: newest.id, createdAt: newest.created_at }
    : { createdAt: new Date(0), id: '00000000-0000-0000-0000-000000000000' };
}

/** The user's notifications after the cursor, oldest first, as toNotification shapes them. */
async function notificationsAfter(
  db: Db,
  userId: string,
  cursor: Cursor,
  take = 100,
): Promise<Notification[]> {
  const page = { order: 'oldest', offset: 0, limit: take, after: cursor } as const;
  const rows = await sqlRows<FeedRow>(db, feedPageSql(userId, page), { prepared: true });
  return rows.map(toNotification);
}

/** Bounded memory of what a stream already sent, so a catch-up never repeats an event. */
const REMEMBERED_IDS = 500;

/** How a live stream ended: its caller went away, or the user was deactivated (close the socket). */
export type StreamEnd = 'ended' | 'revoked';

/**
 * Sends one live notification to the caller at once, without the generator (Context.sendTracked
 * on a WebSocket: the frame its yield would have become).
 */
export type DirectDelivery = (notification: Notification) => void;

/**
 * The caller's own notifications, live: first what the client missed after
 * `lastEventId` (or nothing, for a first connection), then each new one as the bus delivers it,
 * each once. It ends when `ctx.signal` aborts, or with 'revoked' when the user is deactivated.
 *
 * With `direct`, a stream that is caught up and has nothing queued hands each new notification
 * straight to it from the bus's callback instead of yielding it. A comment that tells
 * 10,000 admins then costs a frame per socket, not a resumption of three async generators per
 * socket, whose promises V8's young generation had to copy while the fan-out ran. Everything
 * else still goes through the generator, in order: a resync (catch-up from the table), a
 * revocation, and any event that arrives while the generator is busy.
 */
export async function* streamNotifications(
  ctx: CallerContext,
  input: { lastEventId?: string | null } | undefined,
  direct?: DirectDelivery,
): AsyncGenerator<Notification, StreamEnd> {
  const userId = ctx.user.id;
  const inbox = new AsyncQueue<BusEvent>();
  const sent = new Set<string>();
  const remember = (id: string) => {
    sent.add(id);
    if (sent.size > REMEMBERED_IDS) sent.delete(sent.values().next().value as string);
  };
  let cursor: Cursor | undefined;
  /** Whether the bus's events may go straight to `direct`: caught up, and waiting with nothing queued. */
  let idle = false;
  /** Marks a notification sent (once) and moves the cursor past it; false if it was sent already. */
  const advance = (notification: Notification) => {
    if (sent.has(notification._id)) return false;
    remember(notification._id);
    cursor = { createdAt: notification.createdAt, id: notification._id };
    return true;
  };
  // Listen before reading the table: an event committed in between is then queued, not lost.
  const unsubscribe = ctx.deps.bus.subscribe(userId, ctx.user.role === 'admin', (event) => {
    if (idle && direct && event.kind === 'notification') {
      if (advance(event.notification)) direct(event.notification);
      return;
    }
    // A resync or revocation: the generator takes over, and what follows queues behind it.
    idle = false;
    inbox.push(event);
  });
  const stop = () => {
    idle = false;
    inbox.end();
  };
  // A caller gone before the stream began (a socket closed while it subscribed) would never see
  // 'abort' fire: the stream would hold its bus listener forever (found by the soak).
  if (ctx.signal?.aborted) stop();
  else ctx.signal?.addEventListener('abort', stop, { once: true });
  try {
    cursor = await startCursor(ctx.db, userId, input?.lastEventId);
    const catchUp = () => notificationsAfter(ctx.db, userId, cursor as Cursor);
    let pending = await catchUp();
    for (;;) {
      for (const notification of pending) {
        if (advance(notification)) yield notification;
      }
      idle = direct !== undefined && inbox.size === 0 && !ctx.signal?.aborted;
      const next = await inbox[Symbol.asyncIterator]().next();
      idle = false;
      if (next.done) return 'ended';
      const event = next.value;
      if (event.kind === 'revoked') return 'revoked';
      pending = event.kind === 'resync' ? await catchUp() : [event.notification];
    }
  } finally {
    unsubscribe();
    inbox.end();
  }
}
