import type { Notification } from '../../shared/schemas/notifications';
import { Prisma } from '../db/generated/client';
import { readsEveryOfficeSql, readsOwnOfficeSql } from './reach';

/**
 * The statements that read a user's notifications: their own rows and the admin notices of their
 * admin terms that reach them, a page or the counts, each an index range read from one end.
 */

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
 * The admin notices `a` of one admin term `t` of user `u` that `where` (a condition on `a`)
 * selects, in two index ranges gated on `u` alone (services/reach.ts): every notice of the term
 * (admin_notices_created_at_idx) for a user who reads every office, else those of its office
 * (admin_notices_office_id_created_at_idx). One range is skipped whole, so an office admin reads
 * its office's notices, not the brokerage's filtered.
 */
export function termNoticesSql(
  select: Prisma.Sql,
  where: Prisma.Sql,
  tail: Prisma.Sql = Prisma.empty,
): Prisma.Sql {
  return Prisma.sql`
    (SELECT ${select} FROM admin_notices a WHERE ${readsEveryOfficeSql} AND ${where} ${tail})
    UNION ALL
    (SELECT ${select} FROM admin_notices a WHERE ${readsOwnOfficeSql} AND ${where} ${tail})`;
}

/**
 * A page of `userId`'s notifications in one statement: the first `offset + limit` of their own
 * rows and, per admin term, of the notices of that term that reach them (each an index range,
 * read from its newest or oldest end: termNoticesSql), then the page of their union; whether a notice is read and whether its transaction is deleted are read for the page's
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
          JOIN users u ON u.id = t.user_id
          CROSS JOIN LATERAL (${termNoticesSql(
            Prisma.sql`a.id, a.message, a.link, a.transaction_id, a.created_at`,
            Prisma.sql`a.created_at >= ${from} AND a.created_at < coalesce(t.ended_at, 'infinity')
               AND a.except_user_id IS DISTINCT FROM ${userId}::uuid ${after('a')}`,
            Prisma.sql`ORDER BY a.created_at ${direction}, a.id ${direction} LIMIT ${take}::bigint`,
          )}) a
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
 * a count of its index range (of every notice, or of their office's: termNoticesSql). Unread notices are those since the user last marked all read
 * (users.notices_read_before) without a read mark, so an admin who reads their notifications
 * has only the last ones counted, however long their history.
 */
export function feedCountsSql(userId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT (SELECT count(*) FROM notifications WHERE user_id = ${userId}::uuid)
           + (SELECT coalesce(sum(c.n), 0) FROM admin_terms t JOIN users u ON u.id = t.user_id
                CROSS JOIN LATERAL (${termNoticesSql(
                  Prisma.sql`count(*) AS n`,
                  Prisma.sql`a.created_at >= t.started_at AND a.created_at < coalesce(t.ended_at, 'infinity')
                   AND a.except_user_id IS DISTINCT FROM ${userId}::uuid`,
                )}) c
               WHERE t.user_id = ${userId}::uuid) AS total,
           (SELECT count(*) FROM notifications WHERE user_id = ${userId}::uuid AND read_at IS NULL)
           + (SELECT count(*) FROM admin_terms t JOIN users u ON u.id = t.user_id
                CROSS JOIN LATERAL (${termNoticesSql(
                  Prisma.sql`1`,
                  Prisma.sql`a.created_at >= greatest(t.started_at, coalesce(u.notices_read_before, '-infinity'))
                   AND a.created_at < coalesce(t.ended_at, 'infinity')
                   AND a.except_user_id IS DISTINCT FROM ${userId}::uuid
                   AND NOT EXISTS (SELECT 1 FROM admin_notice_reads r
                                    WHERE r.user_id = ${userId}::uuid AND r.notice_id = a.id)`,
                )}) c
               WHERE t.user_id = ${userId}::uuid) AS unread`;
}

/** A position in a user's notifications, in the order they are listed (oldest first here). */
export type Cursor = {
  /** A row's time, or a live event's createdAt as sent (ISO): no Date parsed per event. */
  createdAt: Date | string;
  id: string;
};
