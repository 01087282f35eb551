import { sealArchive } from '../../services/archives/seal';
import { serviceContext, testDeps } from '../harness';
import { zipOf } from '../zip-files';
import { clock, type Deal, database, freshCompliantDeal } from './world';

/**
 * The archives' targets of the matrix: A's closed deal with its archive sealed by the real service
 * (cells only read it, so they share one), and a zip to send the verifier (any zip is checked: a
 * 200 with its problems).
 */

let archived: Promise<Deal> | undefined;

export function sharedArchivedDeal(): Promise<Deal> {
  archived ??= (async () => {
    const deal = await freshCompliantDeal({ closed: true });
    const { closedAt } = await database.db.transaction.findUniqueOrThrow({ where: { id: deal.id } });
    const deps = testDeps(database.db, { clock });
    await sealArchive(serviceContext(deps), { transactionId: deal.id, closedAt: closedAt as Date });
    return deal;
  })();
  return archived;
}

let zip: Promise<Buffer> | undefined;
export const anyZip = (): Promise<Buffer> => {
  zip ??= zipOf(new Map([['note.txt', Buffer.from('not an archive of this portal')]]));
  return zip;
};
