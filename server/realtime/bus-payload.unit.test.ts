import { describe, expect, it } from 'vitest';
import { busMessageOf } from './bus';

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
    expect(busMessageOf(payload)).toEqual({
      kind: 'users',
      deliveries: [
        { userId: 'u1', notification: { _id: 'n1', ...shared } },
        { userId: 'u2', notification: { _id: 'n2', ...shared } },
      ],
    });
  });

  it('a notice to every admin: one notification with the id of the notice, whom it excepts and its office', () => {
    const payload = JSON.stringify({
      admins: { id: 'a1', except: 'u7', office: 'o1' },
      notification: shared,
    });
    expect(busMessageOf(payload)).toEqual({
      kind: 'admins',
      except: 'u7',
      office: 'o1',
      notification: { _id: 'a1', ...shared },
    });
  });

  it("an older instance's notice names no office: for brokerage-wide admins only", () => {
    const payload = JSON.stringify({ admins: { id: 'a3', except: null }, notification: shared });
    expect(busMessageOf(payload)).toMatchObject({ kind: 'admins', office: null });
  });

  it('keeps only the fields of a notification, whatever else a message carries', () => {
    const payload = JSON.stringify({
      admins: { id: 'a2', except: null, office: null },
      notification: { ...shared, extra: 1 },
    });
    expect(busMessageOf(payload)).toEqual({
      kind: 'admins',
      except: null,
      office: null,
      notification: { _id: 'a2', ...shared },
    });
  });

  it("an older instance's message of one user is still read (rolling deploys share the database)", () => {
    const notification = { _id: 'n9', ...shared };
    expect(busMessageOf(JSON.stringify({ userId: 'u9', notification }))).toEqual({
      kind: 'users',
      deliveries: [{ userId: 'u9', notification }],
    });
  });
});
