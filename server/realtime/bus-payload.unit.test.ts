import { describe, expect, it } from 'vitest';
import { notificationsOfPayload } from './bus';

describe('the notifications channel payload', () => {
  const shared = {
    message: 'Rosa commented',
    link: '/adminTransactions/transactions/t1',
    read: false,
    createdAt: '2026-11-28T10:00:00.000Z',
    transactionDeleted: false,
  };

  it('one notification for several users: each user gets it with the id of their own row', () => {
    const payload = JSON.stringify({
      to: [
        ['u1', 'n1'],
        ['u2', 'n2'],
      ],
      notification: shared,
    });
    expect(notificationsOfPayload(payload)).toEqual([
      { userId: 'u1', notification: { _id: 'n1', ...shared } },
      { userId: 'u2', notification: { _id: 'n2', ...shared } },
    ]);
  });

  it("an older instance's message of one user is still read (rolling deploys share the database)", () => {
    const notification = { _id: 'n9', ...shared };
    expect(notificationsOfPayload(JSON.stringify({ userId: 'u9', notification }))).toEqual([
      { userId: 'u9', notification },
    ]);
  });
});
