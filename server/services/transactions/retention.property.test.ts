import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppDeps } from '../../deps';
import { createAdmin, createTransaction, createUser } from '../../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { purgeExpiredFiles } from './purge';
import { getAny, softDelete } from './records';

/**
 * Retention as a property. fast-check draws files (closed at any instant between 1990 and 2040 or
 * still open, in an office keeping files 1 to 100 years or in none, held or not) and the instant
 * the daily purge runs. The purge, whose candidates come from its own SQL, must purge exactly the
 * closed, unheld files whose last day of retention has come, and never a held file or one inside
 * retention; each answer's retainUntil must be the oracle's, and the delete of each file must
 * then be refused with the hold's message, refused with its retainUntil, or succeed, as the oracle
 * below says. The oracle adds years to the calendar day as text, not with the code under test.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let deps: AppDeps;
let admin: { id: string; role: 'admin'; isOwner: boolean };
let agentWithoutOffice: string;
const agentsByYears = new Map<number, string>();
const RUN = Date.now().toString(36);
const RUNS = 30;

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  const made = await createAdmin(database.db);
  admin = { id: made.id, role: 'admin', isOwner: false };
  agentWithoutOffice = (await createUser(database.db)).id;
});

/** An agent in an office that keeps files `years` years (one office per length, made once). */
async function agentKeeping(years: number | null): Promise<string> {
  if (years === null) return agentWithoutOffice;
  const known = agentsByYears.get(years);
  if (known) return known;
  const office = await database.db.office.create({
    data: { name: `Keep ${years} ${RUN}`, retentionYears: years },
  });
  const agent = await createUser(database.db, { office: { connect: { id: office.id } } });
  agentsByYears.set(years, agent.id);
  return agent.id;
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** The oracle's last day of retention: the UTC day's year moved on, 29 February to the 28th. */
function expectedUntil(closedAt: Date, years: number): string {
  const [year, month, day] = closedAt.toISOString().slice(0, 10).split('-');
  const until = Number(year) + years;
  const dayOfMonth = month === '02' && day === '29' && !isLeap(until) ? '28' : day;
  return `${String(until).padStart(4, '0')}-${month}-${dayOfMonth}`;
}

const instant = (from: string, to: string) =>
  fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true });

const fileArb = fc.record({
  closedAt: fc.option(
    fc.oneof(
      instant('1990-01-01T00:00:00Z', '2040-12-31T23:59:59Z'),
      // Leap days and the edges of a UTC day, where a wrong rule shows first.
      fc.constantFrom(
        new Date('2000-02-29T23:59:59.999Z'),
        new Date('2016-02-29T00:00:00.000Z'),
        new Date('2019-12-31T23:30:00.000Z'),
        new Date('2020-01-01T00:00:00.000Z'),
      ),
    ),
    { freq: 4 },
  ),
  retentionYears: fc.option(fc.integer({ min: 1, max: 100 }), { freq: 3 }),
  hold: fc.boolean(),
});

describe('retention (property)', () => {
  it('the purge takes exactly the closed, unheld files past retention; deletes are refused as retainUntil says', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fileArb, { minLength: 1, maxLength: 5 }),
        instant('1995-01-01T00:00:00Z', '2045-12-31T23:59:59Z'),
        // Some runs purge on the very day a file's retention ends.
        fc.boolean(),
        async (files, drawnNow, onTheDay) => {
          const firstClosed = files.find((file) => file.closedAt)?.closedAt;
          const now =
            onTheDay && firstClosed
              ? new Date(
                  `${expectedUntil(firstClosed, files.find((f) => f.closedAt)?.retentionYears ?? 7)}T00:00:00.000Z`,
                )
              : drawnNow;
          const made = [];
          for (const file of files) {
            const row = await createTransaction(database.db, {
              userId: await agentKeeping(file.retentionYears),
              closedAt: file.closedAt,
              ...(file.hold
                ? {
                    legalHold: true,
                    legalHoldReason: 'Litigation',
                    legalHoldAt: new Date('2026-01-01T00:00:00Z'),
                  }
                : {}),
            });
            made.push({ ...file, id: row.id });
          }
          clock.advance(now.getTime() - clock.now().getTime());
          await purgeExpiredFiles(serviceContext(deps));

          const today = now.toISOString().slice(0, 10);
          for (const file of made) {
            const until = file.closedAt ? expectedUntil(file.closedAt, file.retentionYears ?? 7) : null;
            const inside = until !== null && today < until;
            const row = await database.db.transaction.findUniqueOrThrow({
              where: { id: file.id },
              select: { purgedAt: true },
            });
            const shouldPurge = file.closedAt !== null && !file.hold && !inside;
            expect(row.purgedAt !== null, `purged: ${JSON.stringify({ ...file, now, until })}`).toBe(
              shouldPurge,
            );

            // The answer's date is the oracle's, and the refusal below quotes it.
            const answer = await getAny(serviceContext(deps, admin), { id: file.id });
            expect(answer.retainUntil).toBe(until);
            expect(answer.legalHold).toBe(file.hold);

            const deletion = softDelete(serviceContext(deps, admin), { id: file.id });
            if (file.hold)
              await expect(deletion).rejects.toMatchObject({
                message: 'This transaction is under legal hold',
              });
            else if (inside)
              await expect(deletion).rejects.toMatchObject({
                message: `This transaction is kept until ${until}`,
              });
            else await expect(deletion).resolves.toEqual({ message: expect.any(String) });
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 120_000);
});
