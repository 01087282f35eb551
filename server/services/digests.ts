import { DEFAULT_TIMEZONE } from '../../shared/schemas/notification-settings';
import type { Prisma } from '../db/generated/client';
import type { ServiceContext } from './context';
import { type QueuedMail, queueMails } from './mail';
import { type DigestEntry, digestMail } from './mail-messages';
import { deliveryOf, eventsOf } from './notification-routing';

/**
 * The daily digest: at 07:00 in each user's timezone, one mail listing the
 * notifications of their `digest` events since the last one; none when there were none. A job
 * sweeps every minute. Each user row is claimed (FOR UPDATE SKIP LOCKED) and its digest_through
 * moved to today's 07:00 in the same transaction as the mail is queued: two instances cannot
 * both send one, and a crash sends none rather than half.
 */

export const DIGEST_HOUR = 7;
const USERS_PER_BATCH = 200;
/** A digest lists this many events; the rest are counted and wait in the portal. */
const MAX_DIGEST_ENTRIES = 50;

type DueUser = {
  id: string;
  email: string;
  first_name: string;
  role: 'user' | 'admin';
  deliveries: Prisma.JsonValue;
  timezone: string;
  digest_through: Date;
  cut: Date;
};

export async function sweepDigestBatch(ctx: ServiceContext): Promise<number> {
  const now = ctx.deps.clock.now();
  return ctx.db.$transaction(async (tx) => {
    const users = await tx.$queryRaw<DueUser[]>`
      SELECT u.id, u.email::text AS email, u.first_name, u.role::text AS role,
             u.notification_deliveries AS deliveries, z.zone AS timezone, u.digest_through, z.cut
        FROM users u
        CROSS JOIN LATERAL (SELECT coalesce(u.timezone, ${DEFAULT_TIMEZONE}) AS zone) zz
        CROSS JOIN LATERAL (
          SELECT zz.zone,
                 (((${now}::timestamptz AT TIME ZONE zz.zone)::date + make_time(${DIGEST_HOUR}, 0, 0))
                   AT TIME ZONE zz.zone) AS cut) z
       WHERE u.is_admin_approved AND u.digest_through < z.cut AND z.cut <= ${now}
       LIMIT ${USERS_PER_BATCH}
         FOR UPDATE OF u SKIP LOCKED`;
    const mails: QueuedMail[] = [];
    for (const user of users) {
      const events = eventsOf(user.role).filter(
        (event) => deliveryOf(user.role, user.deliveries, event) === 'digest',
      );
      if (events.length > 0) {
        const entries = await tx.$queryRaw<(DigestEntry & { total: number })[]>`
          SELECT message, link, event::text AS event, created_at AS "createdAt", count(*) OVER ()::int AS total
            FROM notification_feed
           WHERE user_id = ${user.id}::uuid AND created_at > ${user.digest_through} AND created_at <= ${user.cut}
             AND event = ANY(${events}::notification_event[])
           ORDER BY created_at, id
           LIMIT ${MAX_DIGEST_ENTRIES}`;
        if (entries.length > 0) {
          mails.push({
            kind: 'notification.digest',
            userId: user.id,
            content: digestMail(ctx.deps, user, entries, 'digest', entries[0]?.total ?? entries.length),
          });
        }
      }
      await tx.$executeRaw`UPDATE users SET digest_through = ${user.cut} WHERE id = ${user.id}::uuid`;
    }
    await queueMails(tx, ctx.deps, mails);
    return users.length;
  });
}

/** The job: every user whose 07:00 has come since their last digest. */
export async function sweepDigests(ctx: ServiceContext): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await sweepDigestBatch(ctx);
    total += done;
    if (done < USERS_PER_BATCH || ctx.signal?.aborted) return total;
  }
}
