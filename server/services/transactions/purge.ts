import { isKeyOfTransaction } from '../../storage/keys';
import { recordAudit } from '../audit';
import type { ServiceContext } from '../context';
import { lockRetention } from './retention';
import { DEFAULT_RETENTION_YEARS, purgeable, utcDayOf } from './retention-rules';

/**
 * The daily purge of records past retention: every stored object a closed, unheld transaction
 * owns (each version of each item, split parts, signed documents, CDAs' PDFs, sealed archives: whatever
 * stored_files records for it, and any key of its folder its versions and CDAs name) is deleted
 * from storage, with its stored_files row; the transaction's row, its versions' metadata and its
 * audit stay, and purged_at says when. A purged file is not looked at again, so a second run
 * purges nothing.
 */

/** Transactions per candidate query; each is purged in a database transaction of its own. */
const BATCH = 100;

export async function purgeExpiredFiles(ctx: ServiceContext): Promise<number> {
  const now = ctx.deps.clock.now();
  const today = utcDayOf(now);
  let purged = 0;
  // Keyset paging by id: a file the lock finds changed (held meanwhile) is skipped, not met again.
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    ctx.signal?.throwIfAborted();
    // retention-rules.ts's retainUntilOf in SQL: the closing day (UTC) plus the office's years.
    const candidates = await ctx.db.$queryRaw<Array<{ id: string }>>`
      SELECT t.id::text AS id
        FROM transactions t LEFT JOIN offices o ON o.id = t.office_id
       WHERE t.purged_at IS NULL AND t.closed_at IS NOT NULL AND NOT t.legal_hold
         AND t.id > ${after}::uuid
         AND ((t.closed_at AT TIME ZONE 'UTC')::date
              + make_interval(years => COALESCE(o.retention_years, ${DEFAULT_RETENTION_YEARS}::int)))::date
             <= ${today}::date
       ORDER BY t.id
       LIMIT ${BATCH}`;
    for (const { id } of candidates) if (await purgeOne(ctx, id, now)) purged += 1;
    const last = candidates.at(-1);
    if (!last || candidates.length < BATCH) break;
    after = last.id;
  }
  if (purged > 0)
    ctx.log.info({ purged }, 'retention: purged the stored files of transactions past retention');
  return purged;
}

/**
 * One transaction, under its row's lock: the rule is checked again on the row as it is now (a
 * hold placed since the candidates were read wins), the objects deleted, then the rows. Should
 * storage fail, the database transaction rolls back and the next run starts this file again;
 * deleting an object already gone is no error in either driver.
 */
async function purgeOne(ctx: ServiceContext, id: string, now: Date): Promise<boolean> {
  return ctx.db.$transaction(
    async (tx) => {
      const locked = await lockRetention(tx, id);
      if (!locked || locked.purgedAt || !purgeable(locked, now)) return false;
      const rows = await tx.$queryRaw<Array<{ key: string; recorded: boolean }>>`
        SELECT key, bool_or(recorded) AS recorded FROM (
          SELECT key, true AS recorded FROM stored_files WHERE transaction_id = ${id}::uuid
          UNION ALL
          SELECT v.file_key, false FROM form_versions v
            JOIN transaction_forms f ON f.id = v.form_id WHERE f.transaction_id = ${id}::uuid
          UNION ALL
          SELECT file_key, false FROM transaction_forms
           WHERE transaction_id = ${id}::uuid AND file_key IS NOT NULL
          UNION ALL
          SELECT pdf_key, false FROM cdas WHERE transaction_id = ${id}::uuid
          UNION ALL
          -- Its sealed archives hold copies of the same documents.
          SELECT storage_key, false FROM transaction_archives
           WHERE transaction_id = ${id}::uuid AND storage_key IS NOT NULL
        ) AS owned GROUP BY key`;
      // A key only named by a version or a CDA is deleted only inside this transaction's folder:
      // never a library form or another file's object.
      const keys = rows
        .filter((row) => row.recorded || isKeyOfTransaction(row.key, id))
        .map((row) => row.key);
      for (const key of keys) await ctx.deps.storage.delete(key);
      await tx.storedFile.deleteMany({ where: { transactionId: id } });
      await tx.transaction.update({ where: { id }, data: { purgedAt: now }, select: { id: true } });
      await recordAudit(tx, {
        actorId: null,
        action: 'transaction.purge',
        entity: 'Transaction',
        entityId: id,
        transactionId: id,
        after: { purgedAt: now, files: keys.length },
      });
      return true;
    },
    // Storage round trips for every version of a large file can outlast Prisma's 5 s default.
    { timeout: 120_000 },
  );
}
