import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiMessages, authMessages, toasts, validation } from '../../shared/messages';
import { smtpMailer } from '../mail/mailer';
import { injectUpload, TINY_PDF } from '../test/api-calls';
import { accessTokenFor, createAdmin, createOwner, createUser, DEFAULT_PASSWORD } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { runTestJobs } from '../test/jobs';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';

/** Libraries, user administration and profile settings through the REST paths. */

const database = setupTestDatabase();
let app: FastifyInstance;
let inbox: SmtpInbox;
const clock = new TestClock();
type Actor = { id: string; token: string; email: string };
let agent: Actor;
let admin: Actor;
let owner: Actor;

async function actor(user: {
  id: string;
  email: string;
  role: 'user' | 'admin';
  tokenVersion: number;
}): Promise<Actor> {
  return { id: user.id, email: user.email, token: await accessTokenFor(user, { now: clock.now() }) };
}

beforeAll(async () => {
  inbox = await startSmtpInbox();
  app = buildTestApp(
    testDeps(database.db, { clock, mailer: smtpMailer(inbox.url, 'Portal <no-reply@portal.test>') }),
  );
  agent = await actor(await createUser(database.db));
  admin = await actor(await createAdmin(database.db));
  owner = await actor(await createOwner(database.db));
});
afterAll(async () => {
  await app.close();
  await inbox.close();
});
runTestJobs(database, () =>
  testDeps(database.db, { clock, mailer: smtpMailer(inbox.url, 'Portal <no-reply@portal.test>') }),
);

function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, who?: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: who ? { authorization: `Bearer ${who.token}` } : {},
  });
}

const uploadLibraryFile = (who: Actor, name = 'Buyer Checklist.pdf') =>
  injectUpload(app, '/api/uploads/forms', who.token, TINY_PDF, name);

describe('forms library', () => {
  it('the owner adds, updates and deletes; admins and agents get 403; everyone reads, by name, with signed links', async () => {
    const upload = (await uploadLibraryFile(owner)).json();
    for (const who of [admin, agent]) {
      expect((await call('POST', '/api/forms', who, { name: 'X', link: upload.key })).statusCode).toBe(403);
    }
    const created = await call('POST', '/api/forms', owner, { name: 'Zoning Checklist', link: upload.url });
    expect(created.statusCode).toBe(201);
    const item = created.json();
    expect(item).toMatchObject({ name: 'Zoning Checklist', link: expect.stringContaining('/files/forms/') });
    await call('POST', '/api/forms', owner, { name: 'Agency Disclosure Guide', link: upload.key });

    const page = (await call('GET', '/api/forms?page=1&limit=10', agent)).json();
    expect(Object.keys(page).sort()).toEqual(['forms', 'pages', 'total']);
    expect(page.forms.map((f: { name: string }) => f.name)).toEqual([
      'Agency Disclosure Guide',
      'Zoning Checklist',
    ]);
    const link = new URL(page.forms[1].link);
    expect((await app.inject(`${link.pathname}${link.search}`)).statusCode).toBe(200);
    const search = (await call('GET', '/api/forms/search?query=%20zoning%20&page=1&limit=10', agent)).json();
    expect(search).toMatchObject({ total: 1, pages: 1 });

    expect(
      (await call('PUT', `/api/forms/${item._id}`, admin, { name: 'Y', link: upload.key })).statusCode,
    ).toBe(403);
    const updated = await call('PUT', `/api/forms/${item._id}`, owner, {
      name: 'Zoning Checklist 2026',
      link: item.link,
    });
    expect(updated.json().name).toBe('Zoning Checklist 2026');
    expect((await call('DELETE', `/api/forms/${item._id}`, agent)).statusCode).toBe(403);
    expect((await call('DELETE', `/api/forms/${item._id}`, owner)).json()).toEqual({
      message: toasts.formDeleted,
    });
    expect((await call('DELETE', `/api/forms/${item._id}`, owner)).statusCode).toBe(404);
  });

  it('a form needs a name and a file uploaded for the library', async () => {
    const missing = await call('POST', '/api/forms', owner, { name: ' ', link: '' });
    expect(missing.json().issues).toEqual([
      { path: 'name', message: validation.nameRequired },
      { path: 'link', message: validation.fileUploadRequired },
    ]);
    for (const link of [
      'https://elsewhere.example/form.pdf',
      'forms/not-a-key.pdf',
      'transactions/x/y.pdf',
    ]) {
      const res = await call('POST', '/api/forms', owner, { name: 'Bad', link });
      expect(res.statusCode, link).toBe(400);
      expect(res.json().message).toBe(apiMessages.fileNotUploaded);
    }
  });
});

describe('tutorials library', () => {
  it('owner-only changes, http(s) links validated and kept as given', async () => {
    const body = { name: 'Using the checklist', link: 'https://videos.example.com/checklist?t=1' };
    expect((await call('POST', '/api/tutorials', admin, body)).statusCode).toBe(403);
    const created = await call('POST', '/api/tutorials', owner, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject(body);
    for (const link of ['javascript:alert(1)', 'ftp://files.example.com/x', 'not a url']) {
      const res = await call('POST', '/api/tutorials', owner, { name: 'Bad', link });
      expect(res.statusCode, link).toBe(400);
    }
    expect((await call('POST', '/api/tutorials', owner, { name: 'x', link: '' })).json().issues).toEqual([
      { path: 'link', message: validation.linkRequired },
    ]);
    const list = (await call('GET', '/api/tutorials?page=1&limit=10', agent)).json();
    expect(Object.keys(list).sort()).toEqual(['pages', 'total', 'tutorials']);
    expect(list.tutorials).toEqual([created.json()]);
    const id = created.json()._id;
    expect((await call('DELETE', `/api/tutorials/${id}`, owner)).json()).toEqual({
      message: toasts.tutorialDeleted,
    });
    // A tutorial id is not a form id: the kinds stay apart.
    expect((await call('DELETE', `/api/forms/${id}`, owner)).statusCode).toBe(404);
  });
});

describe('user administration', () => {
  it('admin-created users sign in at once; only the owner creates admins; taken e-mail is 409', async () => {
    const body = {
      firstName: 'Ivy',
      lastName: 'Nguyen',
      email: 'ivy.nguyen@example.com',
      phoneNumber: '555-010-2222',
      company: 'Harbor Realty',
      password: 'ivy password 1',
      role: 'user',
    };
    expect((await call('POST', '/api/users', agent, body)).statusCode).toBe(403);
    const created = await call('POST', '/api/users', admin, body);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      email: body.email,
      role: 'user',
      isAdminApproved: true,
      isEmailVerified: true,
    });
    const login = await call('POST', '/api/auth/login', undefined, {
      email: body.email,
      password: body.password,
    });
    expect(login.statusCode).toBe(200);
    expect((await call('POST', '/api/users', admin, body)).statusCode).toBe(409);

    const adminBody = { ...body, email: 'new.admin@example.com', role: 'admin' };
    const refused = await call('POST', '/api/users', admin, adminBody);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(apiMessages.ownerOnlyCreatesAdmins);
    expect((await call('POST', '/api/users', owner, adminBody)).statusCode).toBe(201);
  });

  it("the Add user dialog's messages come back from the server too", async () => {
    const res = await call('POST', '/api/users', admin, {
      firstName: 'I',
      lastName: '',
      email: 'x@y',
      phoneNumber: '+1 555 0100',
      company: '',
      password: 'short',
      role: 'boss',
    });
    const messages = Object.fromEntries(
      (res.json().issues as Array<{ path: string; message: string }>).map((i) => [i.path, i.message]),
    );
    expect(messages).toMatchObject({
      firstName: validation.firstNameMin,
      lastName: validation.lastNameRequired,
      email: validation.invalidEmailAddress,
      company: validation.companyNameRequired,
      password: validation.passwordMin,
    });
  });

  it('activation notifies the user in the portal and by e-mail with a sign-in link', async () => {
    const pending = await createUser(database.db, {
      isAdminApproved: false,
      email: 'pending.person@example.com',
    });
    expect((await call('GET', `/api/users/activate/${pending.id}`, admin)).statusCode).toBe(200);
    const mail = await inbox.waitFor('pending.person@example.com');
    expect(linkIn(mail.text, 'http://localhost:3000/auth/')).toBe('http://localhost:3000/auth/login');
    expect(await database.db.notification.count({ where: { userId: pending.id } })).toBe(1);
  });

  it('the owner cannot be deactivated; a deactivated user is refused at once', async () => {
    expect((await call('GET', `/api/users/deactivated/${owner.id}`, admin)).statusCode).toBe(403);
    const victim = await actor(await createUser(database.db));
    expect((await call('GET', `/api/settings/getUser/${victim.id}`, victim)).statusCode).toBe(200);
    await call('GET', `/api/users/deactivated/${victim.id}`, admin);
    expect((await call('GET', `/api/settings/getUser/${victim.id}`, victim)).statusCode).toBe(401);
  });
});

describe('profile settings', () => {
  it('update changes the profile (not the e-mail) with the product messages; another user is 403', async () => {
    const me = await actor(await createUser(database.db));
    const res = await call('PUT', `/api/settings/updateUser/${me.id}`, me, {
      firstName: 'Renamed',
      lastName: 'Person',
      company: 'New Co',
      phoneNumber: '+1 (555) 010-9999',
      email: 'hijack@example.com',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: 'Renamed', company: 'New Co', email: me.email });
    const bad = await call('PUT', `/api/settings/updateUser/${me.id}`, me, {
      firstName: '',
      lastName: 'x',
      company: 'x',
      phoneNumber: '555 0100 abc',
    });
    expect(bad.json().issues).toEqual([
      { path: 'firstName', message: validation.firstNameRequired },
      { path: 'phoneNumber', message: validation.phoneFormatProfile },
    ]);
    expect(
      (
        await call('PUT', `/api/settings/updateUser/${me.id}`, agent, {
          firstName: 'a',
          lastName: 'b',
          company: 'c',
          phoneNumber: '+1 555',
        })
      ).statusCode,
    ).toBe(403);
  });

  it('the owner cannot be demoted: no profile field changes a role', async () => {
    const res = await call('PUT', `/api/settings/updateUser/${owner.id}`, owner, {
      firstName: 'Olive',
      lastName: 'Owner',
      company: 'Brokerage',
      phoneNumber: '+1 555 0100',
      role: 'user',
      isOwner: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: 'admin', isOwner: true, firstName: 'Olive' });
    const stored = await database.db.user.findUniqueOrThrow({ where: { id: owner.id } });
    expect(stored).toMatchObject({ role: 'admin', isOwner: true, isAdminApproved: true });
  });

  it('a password change needs the current password, ends every other session and keeps this one', async () => {
    const user = await createUser(database.db);
    const login = async (password: string) =>
      call('POST', '/api/auth/login', undefined, { email: user.email, password });
    const other = (await login(DEFAULT_PASSWORD)).json();
    const mine = (await login(DEFAULT_PASSWORD)).json();
    const me: Actor = { id: user.id, email: user.email, token: mine.token };

    const wrong = await call('POST', `/api/settings/changePassword/${user.id}`, me, {
      currentPassword: 'not my password',
      password: 'a brand new password',
      confirmPassword: 'a brand new password',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe(apiMessages.wrongCurrentPassword);

    const changed = await call('POST', `/api/settings/changePassword/${user.id}`, me, {
      currentPassword: DEFAULT_PASSWORD,
      password: 'a brand new password',
      confirmPassword: 'a brand new password',
    });
    expect(changed.statusCode).toBe(200);
    const fresh = changed.json();
    expect(
      (await call('POST', '/api/auth/refresh', undefined, { refreshToken: other.refreshToken })).statusCode,
    ).toBe(401);
    expect(
      (await call('POST', '/api/auth/refresh', undefined, { refreshToken: mine.refreshToken })).statusCode,
    ).toBe(401);
    expect(
      (await call('GET', `/api/settings/getUser/${user.id}`, { ...me, token: other.token })).statusCode,
    ).toBe(401);
    expect(
      (await call('GET', `/api/settings/getUser/${user.id}`, { ...me, token: fresh.token })).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', '/api/auth/refresh', undefined, { refreshToken: fresh.refreshToken })).statusCode,
    ).toBe(200);
    expect((await login(DEFAULT_PASSWORD)).json().message).toBe(authMessages.invalidCredentials);
    expect((await login('a brand new password')).statusCode).toBe(200);
    expect(
      (
        await call('POST', `/api/settings/changePassword/${user.id}`, agent, {
          currentPassword: 'x',
          password: 'y'.repeat(8),
          confirmPassword: 'y'.repeat(8),
        })
      ).statusCode,
    ).toBe(403);
  });
});
