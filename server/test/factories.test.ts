import { describe, expect, test } from 'vitest';
import { verifyPassword } from '../security/passwords';
import {
  accessTokenFor,
  createAdmin,
  createAuditEvent,
  createBanner,
  createComment,
  createLibraryItem,
  createNotification,
  createOwner,
  createTemplate,
  createTransaction,
  createUser,
  DEFAULT_PASSWORD,
} from './factories';
import { setupTestDatabase } from './harness';

const database = setupTestDatabase();

describe('factories', () => {
  test('users: unique, approved and verified by default, with a working password and token', async () => {
    const [a, b] = [await createUser(database.db), await createUser(database.db)];
    expect(a.email).not.toBe(b.email);
    expect(a).toMatchObject({ role: 'user', isOwner: false, isAdminApproved: true });
    expect(await verifyPassword(a.passwordHash, DEFAULT_PASSWORD)).toBe(true);
    const custom = await createUser(database.db, { password: 'another-pass-1', isAdminApproved: false });
    expect(await verifyPassword(custom.passwordHash, 'another-pass-1')).toBe(true);
    expect(custom.isAdminApproved).toBe(false);
    expect((await createAdmin(database.db)).role).toBe('admin');
    expect(await createOwner(database.db)).toMatchObject({ role: 'admin', isOwner: true });
    expect((await accessTokenFor(a)).split('.')).toHaveLength(3);
  });

  test('a transaction comes with its checklist in order, and everything else hangs off it', async () => {
    const agent = await createUser(database.db);
    const transaction = await createTransaction(database.db, { userId: agent.id, documents: ['One', 'Two'] });
    expect(transaction.forms.map((f) => [f.label, f.position, f.status])).toEqual([
      ['One', 0, 'pending'],
      ['Two', 1, 'pending'],
    ]);
    const form = transaction.forms[0];
    if (!form) throw new Error('no form');
    const comment = await createComment(database.db, {
      formId: form.id,
      userId: agent.id,
      text: 'Uploaded',
      role: 'user',
    });
    expect(comment.status).toBeNull();
    const event = await createAuditEvent(database.db, {
      actorId: agent.id,
      entityId: transaction.id,
      transactionId: transaction.id,
    });
    expect(event.action).toBe('transaction.update');
    expect((await createNotification(database.db, { userId: agent.id })).readAt).toBeNull();
    expect((await createBanner(database.db, { userId: agent.id })).elements).toEqual([]);
  });

  test('templates and library items', async () => {
    const template = await createTemplate(database.db, { type: 'Lease', role: 'Tenant' });
    expect(template.documents.length).toBeGreaterThan(0);
    await expect(createTemplate(database.db, { type: 'Lease', role: 'Tenant' })).rejects.toThrow(); // unique (type, role)
    expect(
      (await createLibraryItem(database.db, { kind: 'tutorial', link: 'https://example.com/video' })).kind,
    ).toBe('tutorial');
  });
});
