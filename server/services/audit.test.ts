import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectUpload, TINY_PDF } from '../test/api-calls';
import { runSql } from '../test/databases';
import { accessTokenFor, createAdmin, createOwner, createUser, DEFAULT_PASSWORD } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';

/**
 * Accounts and library items leave an audit event for every change, like transactions
 * and templates do: who acted, the record before and after (public fields only), written in the
 * change's own database transaction, so neither lands without the other.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;
let admin: { id: string; token: string };
let owner: { id: string; token: string };

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  const adminRow = await createAdmin(database.db);
  admin = { id: adminRow.id, token: await accessTokenFor(adminRow, { now: clock.now() }) };
  const ownerRow = await createOwner(database.db);
  owner = { id: ownerRow.id, token: await accessTokenFor(ownerRow, { now: clock.now() }) };
});
afterAll(() => app.close());

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, token: string, payload?: object) {
  return app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload ? { payload } : {}),
  });
}

/** The audit events of one record, oldest first. */
function eventsOf(entityId: string) {
  return database.db.auditEvent.findMany({
    where: { entityId },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { action: true, entity: true, actorId: true, before: true, after: true },
  });
}

/** Nothing secret may reach the trail: no hash, no token, no password in any form. */
function expectNoSecrets(events: Array<{ before: unknown; after: unknown }>) {
  const text = JSON.stringify(events.map(({ before, after }) => [before, after])).toLowerCase();
  for (const secret of ['password', 'hash', 'token', DEFAULT_PASSWORD.toLowerCase()]) {
    expect(text).not.toContain(secret);
  }
}

/** While it runs, PostgreSQL refuses every new audit event (as a database going away would). */
async function whileAuditRefused<T>(work: () => Promise<T>): Promise<T> {
  await runSql(
    database.url,
    `CREATE FUNCTION refuse_audit() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN RAISE EXCEPTION 'shutting down' USING ERRCODE = '57P01'; END $$;
     CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION refuse_audit();`,
  );
  try {
    return await work();
  } finally {
    await runSql(database.url, 'DROP TRIGGER refuse_audit ON audit_events; DROP FUNCTION refuse_audit();');
  }
}

const newUser = (n: string) => ({
  firstName: 'Audrey',
  lastName: 'Trail',
  email: `audrey.${n}@example.com`,
  phoneNumber: '123-456-7890',
  company: 'Ledger Realty',
  password: 'a long enough password',
  role: 'user',
});

describe('accounts', () => {
  it('create, profile change, deactivate and activate each write one event with the account before and after', async () => {
    const created = await call('POST', '/api/users', admin.token, newUser('one'));
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json()._id;

    const renamed = await call('PUT', `/api/settings/updateUser/${id}`, admin.token, {
      firstName: 'Audra',
      lastName: 'Trail',
      company: 'Ledger Realty',
      phoneNumber: '+1 555 010 0000',
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect((await call('GET', `/api/users/deactivated/${id}`, admin.token)).statusCode).toBe(200);
    expect((await call('GET', `/api/users/activate/${id}`, admin.token)).statusCode).toBe(200);
    // Activating an active account changes nothing, so it records nothing.
    expect((await call('GET', `/api/users/activate/${id}`, admin.token)).statusCode).toBe(200);

    const events = await eventsOf(id);
    expect(events.map((e) => e.action)).toEqual([
      'user.create',
      'user.update',
      'user.deactivate',
      'user.activate',
    ]);
    expect(events.every((e) => e.entity === 'User' && e.actorId === admin.id)).toBe(true);
    expect(events[0]).toMatchObject({ before: null, after: { _id: id, firstName: 'Audrey', role: 'user' } });
    expect(events[1]).toMatchObject({
      before: { firstName: 'Audrey', phoneNumber: '123-456-7890' },
      after: { firstName: 'Audra', phoneNumber: '+1 555 010 0000' },
    });
    expect(events[2]).toMatchObject({ before: { isAdminApproved: true }, after: { isAdminApproved: false } });
    expect(events[3]).toMatchObject({ before: { isAdminApproved: false }, after: { isAdminApproved: true } });
    expectNoSecrets(events);
  });

  it('a registration is its own actor; a password change is recorded without any of the password', async () => {
    const registered = await app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...newUser('two'), confirmPassword: 'a long enough password' },
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const row = await database.db.user.findUniqueOrThrow({ where: { email: 'audrey.two@example.com' } });

    const agent = await createUser(database.db);
    const token = await accessTokenFor(agent, { now: clock.now() });
    const changed = await call('POST', `/api/settings/changePassword/${agent.id}`, token, {
      currentPassword: DEFAULT_PASSWORD,
      password: 'a brand new password',
      confirmPassword: 'a brand new password',
    });
    expect(changed.statusCode, changed.body).toBe(200);

    const registration = await eventsOf(row.id);
    expect(registration).toEqual([
      {
        action: 'user.register',
        entity: 'User',
        actorId: row.id,
        before: null,
        after: expect.objectContaining({ _id: row.id, isAdminApproved: false, isEmailVerified: false }),
      },
    ]);
    const passwordChange = await eventsOf(agent.id);
    expect(passwordChange).toEqual([
      { action: 'user.password-change', entity: 'User', actorId: agent.id, before: null, after: null },
    ]);
    expectNoSecrets([...registration, ...passwordChange]);
  });

  it('when the event cannot be written, the change does not happen either', async () => {
    const user = await createUser(database.db, { firstName: 'Unchanged' });
    const answers = await whileAuditRefused(async () => [
      await call('PUT', `/api/settings/updateUser/${user.id}`, admin.token, {
        firstName: 'Changed',
        lastName: user.lastName,
        company: user.company,
        phoneNumber: user.phoneNumber,
      }),
      await call('GET', `/api/users/deactivated/${user.id}`, admin.token),
      await call('POST', '/api/users', admin.token, newUser('three')),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([503, 503, 503]);
    expect(await database.db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      firstName: 'Unchanged',
      isAdminApproved: true,
    });
    expect(await database.db.user.count({ where: { email: 'audrey.three@example.com' } })).toBe(0);
    expect(await eventsOf(user.id)).toEqual([]);
  });
});

describe('library items', () => {
  it('create, update and delete of a form and of a tutorial each write one event, keeping the stored link', async () => {
    const upload = await injectUpload(app, '/api/uploads/forms', owner.token, TINY_PDF, 'Listing.pdf');
    expect(upload.statusCode, upload.body).toBe(201);
    const { key, url } = upload.json();

    const form = await call('POST', '/api/forms', owner.token, { name: 'Listing Agreement', link: url });
    expect(form.statusCode, form.body).toBe(201);
    const formId = form.json()._id;
    await call('PUT', `/api/forms/${formId}`, owner.token, { name: 'Listing Agreement (2026)', link: key });
    await call('DELETE', `/api/forms/${formId}`, owner.token);

    const tutorial = await call('POST', '/api/tutorials', owner.token, {
      name: 'Uploading documents',
      link: 'https://example.com/uploading',
    });
    const tutorialId = tutorial.json()._id;
    await call('PUT', `/api/tutorials/${tutorialId}`, owner.token, {
      name: 'Uploading documents',
      link: 'https://example.com/uploading-v2',
    });
    await call('DELETE', `/api/tutorials/${tutorialId}`, owner.token);

    const formEvents = await eventsOf(formId);
    expect(formEvents).toEqual([
      {
        action: 'library.create',
        entity: 'LibraryItem',
        actorId: owner.id,
        before: null,
        // The key, not the signed link the answer carried: a link expires, the key does not.
        after: { kind: 'form', name: 'Listing Agreement', link: key },
      },
      {
        action: 'library.update',
        entity: 'LibraryItem',
        actorId: owner.id,
        before: { kind: 'form', name: 'Listing Agreement', link: key },
        after: { kind: 'form', name: 'Listing Agreement (2026)', link: key },
      },
      {
        action: 'library.delete',
        entity: 'LibraryItem',
        actorId: owner.id,
        before: { kind: 'form', name: 'Listing Agreement (2026)', link: key },
        after: null,
      },
    ]);
    expect(
      (await eventsOf(tutorialId)).map((e) => [e.action, (e.after ?? e.before) as { link: string }]),
    ).toEqual([
      ['library.create', expect.objectContaining({ link: 'https://example.com/uploading' })],
      ['library.update', expect.objectContaining({ link: 'https://example.com/uploading-v2' })],
      ['library.delete', expect.objectContaining({ link: 'https://example.com/uploading-v2' })],
    ]);
  });

  it('when the event cannot be written, the item is neither created, changed nor deleted', async () => {
    const kept = await call('POST', '/api/tutorials', owner.token, {
      name: 'Kept as it is',
      link: 'https://example.com/kept',
    });
    const keptId = kept.json()._id;
    const answers = await whileAuditRefused(async () => [
      await call('POST', '/api/tutorials', owner.token, {
        name: 'Never saved',
        link: 'https://example.com/x',
      }),
      await call('PUT', `/api/tutorials/${keptId}`, owner.token, {
        name: 'Renamed',
        link: 'https://example.com/y',
      }),
      await call('DELETE', `/api/tutorials/${keptId}`, owner.token),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([503, 503, 503]);
    expect(await database.db.libraryItem.count({ where: { name: 'Never saved' } })).toBe(0);
    expect(await database.db.libraryItem.findUniqueOrThrow({ where: { id: keptId } })).toMatchObject({
      name: 'Kept as it is',
      link: 'https://example.com/kept',
    });
    expect((await eventsOf(keptId)).map((e) => e.action)).toEqual(['library.create']);
  });
});
