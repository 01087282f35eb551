import { beforeAll, describe, expect, it } from 'vitest';
import { apiMessages } from '../../../shared/messages';
import type { AppDeps } from '../../deps';
import { attachTestFile, createAdmin, createTransaction, createUser } from '../../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import type { Caller } from '../context';
import { bulkAccept, reviewQueue } from './review-queue';

/**
 * The review queue by office: an office admin's queue holds its office's files only, a
 * brokerage-wide admin's every file or one office's (`officeId`), each item names its office and
 * turns overdue once it has waited longer than its office's review target (24 hours without an
 * office), on the app's clock; the bulk accept does not find another office's items.
 */

const database = setupTestDatabase();
const START = new Date('2026-11-21T12:00:00.000Z');
const clock = new TestClock(START);
let deps: AppDeps;

const RUN = Date.now().toString(36);
const TYPE = `Office queue ${RUN}`;
const HOUR = 3_600_000;

let north: { id: string; name: string };
let south: { id: string; name: string };
let northAdmin: Caller;
let wideAdmin: Caller;
/** One file per agent: North's, South's and one of an agent with no office. */
const files: Record<'north' | 'south' | 'none', { id: string; formId: string }> = {
  north: { id: '', formId: '' },
  south: { id: '', formId: '' },
  none: { id: '', formId: '' },
};

const asCaller = (user: { id: string; role: 'user' | 'admin'; officeId: string | null }): Caller => ({
  id: user.id,
  role: user.role,
  isOwner: false,
  officeId: user.officeId,
});

beforeAll(async () => {
  deps = testDeps(database.db, { clock });
  const db = database.db;
  north = await db.office.create({ data: { name: `North ${RUN}`, reviewTargetHours: 2 } });
  south = await db.office.create({ data: { name: `South ${RUN}`, reviewTargetHours: 48 } });
  northAdmin = asCaller(await createAdmin(db, { office: { connect: { id: north.id } } }));
  wideAdmin = asCaller(await createAdmin(db));
  const agents = {
    north: await createUser(db, { office: { connect: { id: north.id } } }),
    south: await createUser(db),
    none: await createUser(db),
  };
  // Moved after its file exists: the file follows its agent to the new office.
  await db.user.update({ where: { id: agents.south.id }, data: { officeId: south.id } });
  let minute = 0;
  for (const key of ['north', 'south', 'none'] as const) {
    const created = await createTransaction(db, {
      userId: agents[key].id,
      type: TYPE,
      documents: ['Contract'],
    });
    const form = created.forms[0];
    if (!form) throw new Error('no item');
    await attachTestFile(db, form, { at: new Date(START.getTime() + minute++ * 60_000) });
    files[key] = { id: created.id, formId: form.id };
  }
});

const queue = (caller: Caller, filters: { officeId?: string } = {}) =>
  reviewQueue(serviceContext(deps, caller), { page: 1, limit: 100, type: TYPE, ...filters });

describe('the review queue by office', () => {
  it("shows an office admin its office's items only, whatever office it asks for", async () => {
    for (const officeId of [undefined, south.id]) {
      const page = await queue(northAdmin, officeId ? { officeId } : {});
      expect(page.items.map((item) => [item.transaction._id, item.office])).toEqual([
        [files.north.id, { _id: north.id, name: north.name }],
      ]);
      expect(page.totalItems).toBe(1);
    }
  });

  it("shows a brokerage-wide admin every office's items, or one office's with officeId", async () => {
    const all = await queue(wideAdmin);
    expect(all.items.map((item) => [item.transaction._id, item.office?.name ?? null])).toEqual([
      [files.north.id, north.name],
      [files.south.id, south.name],
      [files.none.id, null],
    ]);
    expect(all.totalItems).toBe(3);
    const southOnly = await queue(wideAdmin, { officeId: south.id });
    expect(southOnly.items.map((item) => item.transaction._id)).toEqual([files.south.id]);
    expect(southOnly.totalItems).toBe(1);
  });

  it("turns an item overdue once it has waited longer than its office's target (24 h without one)", async () => {
    const overdue = async () =>
      Object.fromEntries((await queue(wideAdmin)).items.map((item) => [item.transaction._id, item.overdue]));
    // North's item entered at START and its office allows 2 hours.
    clock.advance(2 * HOUR - (clock.now().getTime() - START.getTime()));
    expect(await overdue()).toEqual({
      [files.north.id]: false,
      [files.south.id]: false,
      [files.none.id]: false,
    });
    clock.advance(1);
    expect(await overdue()).toEqual({
      [files.north.id]: true,
      [files.south.id]: false,
      [files.none.id]: false,
    });
    // The file with no office entered at START + 2 min: 24 hours later it is due, 1 ms more overdue.
    clock.advance(24 * HOUR + 2 * 60_000 - (clock.now().getTime() - START.getTime()));
    expect(await overdue()).toEqual({
      [files.north.id]: true,
      [files.south.id]: false,
      [files.none.id]: false,
    });
    clock.advance(1);
    expect(await overdue()).toEqual({
      [files.north.id]: true,
      [files.south.id]: false,
      [files.none.id]: true,
    });
    // South allows 48 hours from START + 1 min.
    clock.advance(48 * HOUR + 60_000 + 1 - (clock.now().getTime() - START.getTime()));
    expect(await overdue()).toEqual({
      [files.north.id]: true,
      [files.south.id]: true,
      [files.none.id]: true,
    });
  });
});

describe('the bulk accept by office', () => {
  it("does not find another office's item, alone or in a batch, and accepts nothing then", async () => {
    const ctx = serviceContext(deps, northAdmin);
    const item = (key: keyof typeof files) => ({ transactionId: files[key].id, formId: files[key].formId });
    for (const items of [[item('south')], [item('north'), item('none')]]) {
      await expect(bulkAccept(ctx, { items })).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: apiMessages.notFound,
      });
    }
    const still = await database.db.transactionForm.findMany({
      where: { id: { in: Object.values(files).map((file) => file.formId) } },
      select: { status: true },
    });
    expect(still.map((form) => form.status)).toEqual(['pending', 'pending', 'pending']);
    expect(await bulkAccept(ctx, { items: [item('north')] })).toEqual({ reviewed: 1 });
    expect(await bulkAccept(serviceContext(deps, wideAdmin), { items: [item('south')] })).toEqual({
      reviewed: 1,
    });
  });
});
