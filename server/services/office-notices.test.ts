import { beforeAll, describe, expect, it } from 'vitest';
import type { NotificationEvent } from '../../shared/schemas/notification-settings';
import type { AppDeps } from '../deps';
import type { MailContent } from '../mail/content';
import { sealerFor } from '../security/sealing';
import { createOwner } from '../test/factories';
import { serviceContext, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { adminOf, callerOf, moveTo, twoOffices } from '../test/office-notices';
import { sweepDigestBatch } from './digests';
import { listNotifications, markAllRead, notifyActiveAdmins } from './notifications';
import { notifyOtherSide } from './transactions/notify';

/**
 * Notices to the admins, held to offices: a notice about a transaction carries the office that
 * transaction had when it was made; an office admin lists, counts, marks read, is mailed and gets
 * in its digest only its current office's notices; brokerage-wide admins and the owner get them
 * all, and alone get notices of no transaction. The live stream: office-notices-stream.test.ts.
 */

const database = setupTestDatabase();
let deps: AppDeps;
let offices: Awaited<ReturnType<typeof twoOffices>>;

beforeAll(async () => {
  deps = testDeps(database.db);
  offices = await twoOffices(database.db, 'notices');
});

type Deal = { agent: { id: string }; transaction: { id: string } };

/** What an agent's own action on its deal tells the admins (transactions/notify.ts). */
async function agentActs(deal: Deal, message: string, event: NotificationEvent = 'documentUploaded') {
  const agent = await callerOf(database.db, deal.agent.id);
  await database.db.$transaction((tx) =>
    notifyOtherSide(tx, { deps, user: agent }, { id: deal.transaction.id, userId: agent.id }, message, event),
  );
}

/** A verified registration awaiting approval: a notice of no transaction. */
const registration = (message: string) =>
  database.db.$transaction((tx) =>
    notifyActiveAdmins(tx, { message, link: '/users', event: 'registration' }, deps),
  );

/** The caller's own list, first page, as GET /api/notifications/{id} answers it. */
async function listOf(userId: string) {
  const ctx = serviceContext(deps, await callerOf(database.db, userId));
  const page = await listNotifications(ctx, { userId, page: 1, limit: 50 });
  return {
    messages: page.notifications.map((n) => n.message).sort(),
    unreadMessages: page.notifications
      .filter((n) => !n.read)
      .map((n) => n.message)
      .sort(),
    total: page.total,
    unread: page.unread,
  };
}

describe('notices to the admins, by office', () => {
  it('carry the office their transaction had when they were made', async () => {
    const { south } = offices;
    const moving = await twoOffices(database.db, 'moving');
    await agentActs(moving.northDeal, 'Before the move');
    await moveTo(database.db, moving.northDeal.agent.id, south.id);
    await agentActs(moving.northDeal, 'After the move');
    await registration('No transaction, no office');
    const officeOf = async (message: string) =>
      (await database.db.adminNotice.findFirstOrThrow({ where: { message } })).officeId;
    expect(await officeOf('Before the move')).toBe(moving.north.id);
    expect(await officeOf('After the move')).toBe(south.id);
    expect(await officeOf('No transaction, no office')).toBeNull();
  });

  it("an office admin lists and counts its office's notices; brokerage-wide admins and the owner, all", async () => {
    const { north, northDeal, southDeal } = offices;
    const northAdmin = await adminOf(database.db, north.id);
    const wideAdmin = await adminOf(database.db, null);
    // An owner with an office is still brokerage-wide.
    const owner = await createOwner(database.db, { office: { connect: { id: north.id } } });
    await agentActs(northDeal, 'List: North upload');
    await agentActs(southDeal, 'List: South upload');
    await registration('List: a registration');

    expect(await listOf(northAdmin.id)).toEqual({
      messages: ['List: North upload'],
      unreadMessages: ['List: North upload'],
      total: 1,
      unread: 1,
    });
    const everything = ['List: North upload', 'List: South upload', 'List: a registration'].sort();
    for (const admin of [wideAdmin, owner]) {
      expect(await listOf(admin.id)).toEqual({
        messages: everything,
        unreadMessages: everything,
        total: 3,
        unread: 3,
      });
    }
  });

  it("moving an office admin shows the new office's notices at once, read or not as they are", async () => {
    const { north, south, northDeal, southDeal } = offices;
    const admin = await adminOf(database.db, north.id);
    await agentActs(northDeal, 'Move: North upload');
    await agentActs(southDeal, 'Move: South upload');
    await markAllRead(serviceContext(deps, await callerOf(database.db, admin.id)), { userId: admin.id });
    // Its read marks are of its office's notices only.
    const marked = await database.db.adminNoticeRead.findMany({
      where: { userId: admin.id },
      include: { notice: true },
    });
    expect(marked.map((read) => read.notice.message)).toEqual(['Move: North upload']);
    expect(await listOf(admin.id)).toMatchObject({ total: 1, unread: 0, messages: ['Move: North upload'] });

    await moveTo(database.db, admin.id, south.id);
    expect(await listOf(admin.id)).toEqual({
      messages: ['Move: South upload'],
      unreadMessages: ['Move: South upload'],
      total: 1,
      unread: 1,
    });
    // Made brokerage-wide, it reads both.
    await moveTo(database.db, admin.id, null);
    expect(await listOf(admin.id)).toMatchObject({
      messages: ['Move: North upload', 'Move: South upload'],
      total: 2,
      unread: 1,
    });
  });

  it('mails an admin who chose e-mail only of the notices it reads', async () => {
    const { north, northDeal, southDeal } = offices;
    const deliveries = { comment: 'email', registration: 'email' };
    const northAdmin = await adminOf(database.db, north.id, { notificationDeliveries: deliveries });
    const wideAdmin = await adminOf(database.db, null, { notificationDeliveries: deliveries });
    await agentActs(northDeal, 'Mail: North comment', 'comment');
    await agentActs(southDeal, 'Mail: South comment', 'comment');
    await registration('Mail: a registration');
    const mailsOf = async (userId: string) =>
      (await database.db.mailOutbox.findMany({ where: { userId }, orderBy: { createdAt: 'asc' } })).map(
        (mail) => mail.kind,
      );
    expect(await mailsOf(northAdmin.id)).toEqual(['notification.comment']);
    expect(await mailsOf(wideAdmin.id)).toEqual([
      'notification.comment',
      'notification.comment',
      'notification.registration',
    ]);
  });
});

describe("an admin's digest, by office", () => {
  const clock = new TestClock(new Date());

  /** The 07:00 in New York (the default zone) after every notice made so far. */
  async function nextCut(): Promise<Date> {
    const [row] = await database.db.$queryRaw<{ cut: Date }[]>`
      SELECT CASE WHEN today > now() THEN today ELSE tomorrow END AS cut
        FROM (SELECT (day + time '07:00') AT TIME ZONE 'America/New_York' AS today,
                     ((day + 1) + time '07:00') AT TIME ZONE 'America/New_York' AS tomorrow
                FROM (SELECT (now() AT TIME ZONE 'America/New_York')::date AS day) AS local) AS cuts`;
    if (!row) throw new Error('no cut');
    return row.cut;
  }

  /** The items of the digests queued for `userId`, opened as the mail job opens them. */
  async function digestItems(userId: string): Promise<string[][]> {
    const mails = await database.db.mailOutbox.findMany({ where: { userId, kind: 'notification.digest' } });
    const sealer = sealerFor(deps.config.jwtSecret);
    return mails.map(
      (mail) => (JSON.parse(sealer.open(mail.sealed)) as MailContent).items?.map((item) => item.text) ?? [],
    );
  }

  it("lists an office admin's current office's notices; a brokerage-wide admin's, all", async () => {
    const { north, south, northDeal, southDeal } = offices;
    const northAdmin = await adminOf(database.db, north.id);
    const movedAdmin = await adminOf(database.db, north.id);
    const wideAdmin = await adminOf(database.db, null);
    await agentActs(northDeal, 'Digest: North upload');
    await agentActs(southDeal, 'Digest: South upload');
    await registration('Digest: a registration');
    // Moved before its digest is made: the digest is of the office it has then.
    await moveTo(database.db, movedAdmin.id, south.id);

    clock.advance((await nextCut()).getTime() - clock.now().getTime());
    const digestDeps = testDeps(database.db, { clock });
    while ((await sweepDigestBatch(serviceContext(digestDeps))) > 0) {}

    expect(await digestItems(northAdmin.id)).toEqual([['Document uploaded: Digest: North upload']]);
    expect(await digestItems(movedAdmin.id)).toEqual([['Document uploaded: Digest: South upload']]);
    expect(await digestItems(wideAdmin.id)).toEqual([
      [
        'Document uploaded: Digest: North upload',
        'Document uploaded: Digest: South upload',
        'Registration: Digest: a registration',
      ],
    ]);
  });
});
