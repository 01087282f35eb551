import { apiMessages } from '../../shared/messages';
import type { PagingInput } from '../../shared/schemas/common';
import type { NotificationEvent } from '../../shared/schemas/notification-settings';
import type { Notification } from '../../shared/schemas/notifications';
import type { Db, Tx as DbTx } from '../db/client';
import { Prisma } from '../db/generated/client';
import { sqlRows } from '../db/sql';
import type { AppDeps } from '../deps';
import { AsyncQueue } from '../realtime/async-queue';
import { type BusEvent, NOTIFICATIONS_CHANNEL, SESSIONS_CHANNEL } from '../realtime/bus';
import { assertSelfOrAdmin } from './access';
import type { CallerContext } from './context';
import { queueMails } from './mail';
import { notificationMail } from './mail-messages';
import { deliveryOf } from './notification-routing';
import { pageCount } from './paging';

/**
 * Who hears about what (DESIGN.md section 7). Notifications are written inside the transaction
 * of the change that causes them, together with their pg_notify: a rolled-back change leaves
 * neither a row nor a live event.
 */

/** A database transaction: notifying writes rows, events and mails in it. */
type Tx = DbTx;

/** What a notification answer is made of (toNotification); the tests read rows the same way. */
export const notificationSelect = {
  id: true,
  userId: true,
  message: true,
  link: true,
  readAt: true,
  createdAt: true,
  transaction: { select: { deletedAt: true } },
} as const satisfies Prisma.NotificationSelect;
type NotificationRow = Prisma.NotificationGetPayload<{ select: typeof notificationSelect }>;

export function toNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    message: row.message,
    link: row.link,
    read: row.readAt !== null,
    createdAt: row.createdAt.toISOString(),
    // History is kept, but the link would open "not found": the client shows it without one.
    transactionDeleted: Boolean(row.transaction?.deletedAt),
  };
}

/** Messages are shown in a toast and a list: keep them to one readable line. */
const MAX_MESSAGE = 300;

export type NotificationInput = {
  message: string;
  /** A client path such as /home/transactions/<id>. */
  link: string;
  transactionId?: string;
  /** What it is about: decides whether it is also mailed now or in the digest (issue 19). */
  event?: NotificationEvent;
};

/**
 * Notifies users in the change's transaction: the rows, their live events, and the mails of
 * those who chose e-mail for this event (DESIGN.md 12.2). Digest choices need nothing now: the
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
  const item = { message: event.message, link: event.link, transactionId: event.transactionId ?? null };
  await writeNotifications(
    tx,
    recipients.map((userId) => ({ ...item, userId })),
    event.event ?? null,
    deps,
  );
}

/**
 * Many notifications, each to its own user, all of one event (issue 19: a reminder sweep tells
 * hundreds of agents of hundreds of dates in one commit): the same as notifyUsers once per item,
 * in three statements whatever their number.
 */
export async function notifyEach(
  tx: Tx,
  items: ReadonlyArray<NotificationItem>,
  event: NotificationEvent,
  deps: AppDeps,
) {
  await writeNotifications(tx, items, event, deps);
}

type NotificationItem = { userId: string; message: string; link: string; transactionId: string | null };

/**
 * The rows, their live events and the mails of those who chose e-mail for `event`, in three
 * statements whatever the number of items: the notifications with their pg_notify, the
 * recipients' preferences, and the mails (one outbox insert with its jobs). Through Prisma
 * (createManyAndReturn, then one payload per row) 1,000 recipients cost hundreds of milliseconds
 * and left the server about 100 MiB larger (issue 9, bench/websocket.bench.ts); per item, four
 * round trips made 10,000 reminders 40,000 (issue 19, bench/jobs.bench.ts). The payload is
 * toNotification's shape, built in SQL: createdAt as toISOString writes it, read false (the row
 * was just made), transactionDeleted as the transaction is now.
 */
async function writeNotifications(
  tx: Tx,
  items: ReadonlyArray<NotificationItem>,
  event: NotificationEvent | null,
  deps: AppDeps | undefined,
) {
  if (items.length === 0) return;
  const messages = items.map((item) =>
    item.message.length > MAX_MESSAGE ? `${item.message.slice(0, MAX_MESSAGE - 1)}…` : item.message,
  );
  await tx.$executeRaw`
    WITH inserted AS (
      INSERT INTO notifications (user_id, message, link, transaction_id, event, created_at)
      SELECT n.user_id, n.message, n.link, n.transaction_id, ${event}::notification_event, statement_timestamp()
      FROM unnest(${items.map((item) => item.userId)}::uuid[], ${messages}::text[],
                  ${items.map((item) => item.link)}::text[],
                  ${items.map((item) => item.transactionId)}::uuid[]) AS n(user_id, message, link, transaction_id)
      RETURNING id, user_id, message, link, transaction_id, created_at
    )
    SELECT pg_notify(${NOTIFICATIONS_CHANNEL}, json_build_object(
      'userId', user_id,
      'notification', json_build_object(
        '_id', id,
        'message', message,
        'link', link,
        'read', false,
        'createdAt', to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'transactionDeleted', EXISTS (
          SELECT 1 FROM transactions t WHERE t.id = inserted.transaction_id AND t.deleted_at IS NOT NULL
        )
      )
    )::text)
    FROM inserted`;
  if (event === null) return;
  if (!deps) throw new Error('notifying of an event needs deps to mail it');
  const recipients = [...new Set(items.map((item) => item.userId))];
  const users = await tx.$queryRaw<
    { id: string; email: string; first_name: string; role: 'user' | 'admin'; deliveries: Prisma.JsonValue }[]
  >`
    SELECT id, email::text AS email, first_name, role::text AS role, notification_deliveries AS deliveries
      FROM users WHERE id = ANY(${recipients}::uuid[]) AND is_admin_approved`;
  const mailed = new Map(
    users
      .filter((user) => deliveryOf(user.role, user.deliveries, event) === 'email')
      .map((user) => [user.id, user]),
  );
  const mails = items.flatMap((item, index) => {
    const user = mailed.get(item.userId);
    if (!user) return [];
    const notification = { message: messages[index] as string, link: item.link, event };
    return [
      { kind: `notification.${event}`, userId: user.id, content: notificationMail(deps, user, notification) },
    ];
  });
  await queueMails(tx, deps, mails);
}

/** Every active admin but the one who acted (nobody needs to hear about their own action). */
export async function activeAdminIds(tx: Pick<Db, 'user'>, exceptUserId?: string): Promise<string[]> {
  const admins = await tx.user.findMany({
    where: { role: 'admin', isAdminApproved: true, ...(exceptUserId ? { id: { not: exceptUserId } } : {}) },
    select: { id: true },
  });
  return admins.map((admin) => admin.id);
}

/** Ends the live connections of a user on every instance (deactivation). */
export async function revokeLiveSessions(tx: Pick<Db, '$executeRaw'>, userId: string) {
  await tx.$executeRaw`SELECT pg_notify(${SESSIONS_CHANNEL}, ${userId})`;
}

export async function listNotifications(ctx: CallerContext, input: PagingInput & { userId: string }) {
  assertSelfOrAdmin(ctx.user, input.userId);
  const { db } = ctx;
  const where = { userId: input.userId };
  const [rows, total, unread] = await Promise.all([
    db.notification.findMany({
      where,
      select: notificationSelect,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: (input.page - 1) * input.limit,
      take: input.limit,
    }),
    db.notification.count({ where }),
    db.notification.count({ where: { ...where, readAt: null } }),
  ]);
  return {
    notifications: rows.map(toNotification),
    totalPages: pageCount(total, input.limit),
    total,
    unread,
  };
}

export async function markAllRead(ctx: CallerContext, { userId }: { userId: string }) {
  assertSelfOrAdmin(ctx.user, userId);
  await ctx.db.notification.updateMany({
    where: { userId, readAt: null },
    data: { readAt: ctx.deps.clock.now() },
  });
  return { message: apiMessages.notificationsRead };
}

/** A position in a user's notifications, in the order they are listed (oldest first here). */
export type Cursor = { createdAt: Date; id: string };

type CursorRow = { id: string; created_at: Date };
type StreamRow = {
  id: string;
  message: string;
  link: string;
  read: boolean;
  created_at: Date;
  transaction_deleted: boolean;
};

/**
 * Where a live stream starts: after the event the client last saw, else after the newest. The
 * stream's statements are hand-written and prepared (server/db/sql.ts): every socket runs them
 * when it subscribes, and after a restart thousands subscribe at once. Through Prisma each
 * subscription left about 40 KiB of garbage that V8 promoted while the queries waited, and the
 * server's memory stayed that much higher (issue 23, docs/PERFORMANCE.md section d).
 */
async function startCursor(db: Db, userId: string, lastEventId: string | null | undefined): Promise<Cursor> {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (lastEventId && uuid.test(lastEventId)) {
    const [seen] = await sqlRows<CursorRow>(
      db,
      Prisma.sql`SELECT id, created_at FROM notifications WHERE id = ${lastEventId}::uuid AND user_id = ${userId}::uuid`,
      { prepared: true },
    );
    if (seen) return { id: seen.id, createdAt: seen.created_at };
  }
  const [newest] = await sqlRows<CursorRow>(
    db,
    Prisma.sql`SELECT id, created_at FROM notifications WHERE user_id = ${userId}::uuid
                ORDER BY created_at DESC, id DESC LIMIT 1`,
    { prepared: true },
  );
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
  const rows = await sqlRows<StreamRow>(
    db,
    Prisma.sql`SELECT n.id, n.message, n.link, n.read_at IS NOT NULL AS read, n.created_at,
                      coalesce(t.deleted_at IS NOT NULL, false) AS transaction_deleted
                 FROM notifications n LEFT JOIN transactions t ON t.id = n.transaction_id
                WHERE n.user_id = ${userId}::uuid
                  AND (n.created_at, n.id) > (${cursor.createdAt}::timestamptz, ${cursor.id}::uuid)
                ORDER BY n.created_at, n.id LIMIT ${take}::int`,
    { prepared: true },
  );
  return rows.map((row) => ({
    _id: row.id,
    message: row.message,
    link: row.link,
    read: row.read,
    createdAt: row.created_at.toISOString(),
    transactionDeleted: row.transaction_deleted,
  }));
}

/** Bounded memory of what a stream already sent, so a catch-up never repeats an event. */
const REMEMBERED_IDS = 500;

/** How a live stream ended: its caller went away, or the user was deactivated (close the socket). */
export type StreamEnd = 'ended' | 'revoked';

/**
 * The caller's own notifications, live (DESIGN.md section 7): first what the client missed after
 * `lastEventId` (or nothing, for a first connection), then each new one as the bus delivers it,
 * each once. It ends when `ctx.signal` aborts, or with 'revoked' when the user is deactivated.
 */
export async function* streamNotifications(
  ctx: CallerContext,
  input: { lastEventId?: string | null } | undefined,
): AsyncGenerator<Notification, StreamEnd> {
  const userId = ctx.user.id;
  const inbox = new AsyncQueue<BusEvent>();
  // Listen before reading the table: an event committed in between is then queued, not lost.
  const unsubscribe = ctx.deps.bus.subscribe(userId, (event) => inbox.push(event));
  // A caller gone before the stream began (a socket closed while it subscribed) would never see
  // 'abort' fire: the stream would hold its bus listener forever (found by the soak, issue 23).
  if (ctx.signal?.aborted) inbox.end();
  else ctx.signal?.addEventListener('abort', () => inbox.end(), { once: true });
  const sent = new Set<string>();
  const remember = (id: string) => {
    sent.add(id);
    if (sent.size > REMEMBERED_IDS) sent.delete(sent.values().next().value as string);
  };
  try {
    let cursor = await startCursor(ctx.db, userId, input?.lastEventId);
    const catchUp = () => notificationsAfter(ctx.db, userId, cursor);
    let pending = await catchUp();
    for (;;) {
      for (const notification of pending) {
        if (sent.has(notification._id)) continue;
        remember(notification._id);
        cursor = { createdAt: new Date(notification.createdAt), id: notification._id };
        yield notification;
      }
      const next = await inbox[Symbol.asyncIterator]().next();
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
