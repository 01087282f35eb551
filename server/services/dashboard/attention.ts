import type { AttentionAnswer } from '../../../shared/schemas/dashboard';
import { ATTENTION_ITEMS } from '../../../shared/schemas/dashboard';
import type { KeyDateKind } from '../../../shared/schemas/key-dates';
import { Prisma } from '../../db/generated/client';
import { sqlRows } from '../../db/sql';
import { todayIn } from '../calendar-days';
import type { CallerContext } from '../context';
import { deskSummaryOf } from './desk';
import { addDays } from './range';

/** How far ahead the strip looks for key dates, today excluded: "within the next 7 days". */
const DEADLINE_DAYS = 7;

type Place = { transaction_id: string; street_address: string; city: string; state: string; zip: string };
type Counted = { total: number };
type ItemRow = Place & Counted & { form_id: string; label: string };
type DeadlineRow = Place & Counted & { kind: KeyDateKind; label: string; date: string };

const open = (userId: string) =>
  Prisma.sql`t.user_id = ${userId}::uuid AND t.closed_at IS NULL AND t.deleted_at IS NULL`;
const place = Prisma.sql`t.id::text AS transaction_id, t.street_address, t.city, t.state, t.zip`;

/**
 * Required items whose current file was rejected and that no approved waiver covers (the
 * agent must upload a fixed file), oldest rejection first. `total` counts them all: one
 * statement, the window count taken before the LIMIT.
 */
export function rejectedItemsSql(userId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*) OVER ()::int AS total, f.id::text AS form_id, f.label, ${place}
      FROM transactions t JOIN transaction_forms f ON f.transaction_id = t.id
      -- The rejection is the current version's decision: its time, recorded on the app's clock,
      -- orders the list (the item's updated_at moves with any later write, a waiver asked too).
      LEFT JOIN form_versions v ON v.form_id = f.id AND v.number = f.version
     WHERE ${open(userId)} AND f.required AND f.status = 'rejected'
       AND f.waiver_status IS DISTINCT FROM 'approved'
     ORDER BY v.decided_at, f.id
     LIMIT ${ATTENTION_ITEMS}`;
}

/** Required items with no file and no waiver asked for or granted (a denied one does not count). */
export function missingItemsSql(userId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*) OVER ()::int AS total, f.id::text AS form_id, f.label, ${place}
      FROM transactions t JOIN transaction_forms f ON f.transaction_id = t.id
     WHERE ${open(userId)} AND f.required AND f.file_key IS NULL
       AND (f.waiver_status IS NULL OR f.waiver_status = 'denied')
     ORDER BY t.created_at, t.id, f.position, f.id
     LIMIT ${ATTENTION_ITEMS}`;
}

/** Key dates not done, overdue or up to `through`, soonest first. */
export function deadlinesSql(userId: string, through: string): Prisma.Sql {
  return Prisma.sql`
    SELECT count(*) OVER ()::int AS total, k.kind, k.label, to_char(k.date, 'YYYY-MM-DD') AS date, ${place}
      FROM transactions t JOIN key_dates k ON k.transaction_id = t.id
     WHERE ${open(userId)} AND NOT k.done AND k.date <= ${through}::date
     ORDER BY k.date, k.position, k.id
     LIMIT ${ATTENTION_ITEMS}`;
}

const placeOf = (row: Place) => ({
  transactionId: row.transaction_id,
  streetAddress: row.street_address,
  city: row.city,
  state: row.state,
  zip: row.zip,
});
const itemsOf = (rows: ItemRow[]) => ({
  total: rows[0]?.total ?? 0,
  items: rows.map((row) => ({ ...placeOf(row), formId: row.form_id, label: row.label })),
});

/**
 * What the signed-in user should do next on their own open transactions, and for an admin what
 * waits for the desk. "Today" is the day in the user's zone (users.timezone, America/New_York
 * when unset), as their calendar shows it.
 */
export async function attentionOf(ctx: CallerContext): Promise<AttentionAnswer> {
  const user = await ctx.db.user.findUnique({ where: { id: ctx.user.id }, select: { timezone: true } });
  const today = todayIn(user?.timezone ?? null, ctx.deps.clock.now());
  const [rejected, missing, deadlines, desk] = await Promise.all([
    sqlRows<ItemRow>(ctx.db, rejectedItemsSql(ctx.user.id)),
    sqlRows<ItemRow>(ctx.db, missingItemsSql(ctx.user.id)),
    sqlRows<DeadlineRow>(ctx.db, deadlinesSql(ctx.user.id, addDays(today, DEADLINE_DAYS))),
    ctx.user.role === 'admin' ? deskSummaryOf(ctx) : null,
  ]);
  return {
    rejected: itemsOf(rejected),
    missing: itemsOf(missing),
    deadlines: {
      total: deadlines[0]?.total ?? 0,
      items: deadlines.map((row) => ({
        ...placeOf(row),
        kind: row.kind,
        label: row.label,
        date: row.date,
        overdue: row.date < today,
      })),
    },
    desk,
  };
}
