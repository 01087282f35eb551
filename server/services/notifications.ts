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
import {
  type Cursor,
  type FeedRow,
  feedCountsSql,
  feedPageSql,
  termNoticesSql,
  toNotification,
} from './notification-feed';
import { deliveryOf } from './notification-routing';
import { pageCount } from './paging';
import { assertSelfOrReachingAdmin, noticeReachesUserSql, noticesOfficeOf } from './reach';

/**
 * Who hears about what. Notifications are written inside the transaction
 * of the change that causes them, together with their pg_notify: a rolled-back change leaves
 * neither a row nor a live event.
 */

/** A database transaction: notifying writes rows, events and mails in it. */
type Tx = DbTx;

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
 * who reads the office of the notice's transaction (services/reach.ts: an office admin only its
 * office's; a notice of no transaction, brokerage-wide admins only) with one admin notice, stored
 * once and read by each admin through their admin terms (fan-out on read: feedPageSql,
 * feedCountsSql). A row per admin made a comment to 10,000 admins write 10,000 rows (about
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
  let office: string | null = null;
  if (recipients.kind === 'admins') office = await writeAdminNotice(tx, recipients, event);
  else await writeUserNotifications(tx, recipients.items, event);
  if (event === null) return;
  if (!deps) throw new Error('notifying of an event needs deps to mail it');
  const mailed = new Map(
    (await mailCandidates(tx, recipients, event, office))
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
 * The one row of a notice to every active admin but one, with the office its transaction has now
 * (none without a transaction), and its one bus message, `{admins: {id, except, office},
 * notification}`: each instance hands it to the streams of its admins who read that office.
 * Returns the notice's office, which decides who may be mailed.
 */
async function writeAdminNotice(
  tx: Tx,
  recipients: Extract<Recipients, { kind: 'admins' }>,
  event: NotificationEvent | null,
): Promise<string | null> {
  const { item, exceptUserId } = recipients;
  const [notice] = await tx.$queryRaw<{ office_id: string | null }[]>`
    WITH seed AS (${ID_SEED}), inserted AS (
      INSERT INTO admin_notices (id, message, link, transaction_id, event, except_user_id, office_id, created_at)
      SELECT (seed.prefix || lpad(to_hex(seed.base + 1), 12, '0'))::uuid, ${shortened(item.message)},
             ${item.link}, ${item.transactionId}::uuid, ${event}::notification_event,
             ${exceptUserId}::uuid, (SELECT office_id FROM transactions WHERE id = ${item.transactionId}::uuid),
             statement_timestamp()
        FROM seed
      RETURNING id, message, link, transaction_id, except_user_id, office_id, created_at
    )
    SELECT i.office_id::text AS office_id
      FROM inserted i
     CROSS JOIN LATERAL (SELECT pg_notify(${NOTIFICATIONS_CHANNEL}, json_build_object(
       'admins', json_build_object('id', i.id, 'except', i.except_user_id, 'office', i.office_id),
       'notification', ${EVENT_NOTIFICATION}
     )::text)) sent`;
  return notice?.office_id ?? null;
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
 * in-app default reads no row here instead of 1,000. Of an admin notice, only the admins who
 * read its `office` (services/reach.ts), as its list and live stream do.
 */
function mailCandidates(
  tx: Tx,
  recipients: Recipients,
  event: NotificationEvent,
  office: string | null,
): Promise<MailCandidate[]> {
  const who =
    recipients.kind === 'items'
      ? Prisma.sql`u.id = ANY(${[...new Set(recipients.items.map((item) => item.userId))]}::uuid[])`
      : Prisma.sql`u.role = 'admin' AND u.id IS DISTINCT FROM ${recipients.exceptUserId}::uuid
                   AND ${noticeReachesUserSql}`;
  return tx.$queryRaw<MailCandidate[]>`
    SELECT u.id, u.email::text AS email, u.first_name, u.role::text AS role, u.notification_deliveries AS deliveries
      FROM users u, (SELECT ${office}::uuid AS office_id) a
     WHERE ${who} AND u.is_admin_approved
       AND (u.notification_deliveries -> ${event}::text IS NOT NULL OR ${DEFAULT_DELIVERY[event] === 'email'})`;
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
        JOIN users u ON u.id = t.user_id
        CROSS JOIN LATERAL (${termNoticesSql(
          Prisma.sql`a.id`,
          Prisma.sql`a.created_at >= greatest(t.started_at, statement_timestamp() - ${margin})
             AND a.created_at < coalesce(t.ended_at, 'infinity')
             AND a.except_user_id IS DISTINCT FROM t.user_id`,
        )}) a
       WHERE t.user_id = ${userId}::uuid
      ON CONFLICT (user_id, notice_id) DO NOTHING`,
  ]);
  return { message: apiMessages.notificationsRead };
}

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
  // An admin hears the notices of the office it reads (every office: null), as its list shows.
  const admin = ctx.user.role === 'admin' && { officeId: noticesOfficeOf(ctx.user) };
  const unsubscribe = ctx.deps.bus.subscribe(userId, admin, (event) => {
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
