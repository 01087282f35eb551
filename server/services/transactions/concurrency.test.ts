import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, injectUpload, TINY_PDF } from '../../test/api-calls';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { keptAndRecounted } from '../../test/progress-recount';

/**
 * Races on the compliance workflow on a real PostgreSQL: two requests that change one
 * checklist at the same moment, through the REST paths, with Promise.all. Each change locks its
 * transaction first; these tests check what that promises: one decision where two were tried, a
 * bulk accept that never accepts a file nobody saw, and counters equal to a recount afterwards.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
let agent: Actor;
let carl: Actor;
let dora: Actor;

const ROUNDS = 8;

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await createUser(database.db, { firstName: 'Rita', lastName: 'Racer' });
  carl = await createAdmin(database.db, { firstName: 'Carl', lastName: 'Compliance' });
  dora = await createAdmin(database.db, { firstName: 'Dora', lastName: 'Desk' });
});
afterAll(() => app.close());

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}

/** Stores a file for the transaction and answers its url (not yet attached to any item). */
async function uploaded(transactionId: string): Promise<string> {
  const bytes = Buffer.concat([TINY_PDF, Buffer.from(`% ${randomUUID()}\n`)]);
  const res = injectUpload(
    app,
    `/api/uploads/transactions/${transactionId}`,
    await accessTokenFor(agent, { now: clock.now() }),
    bytes,
  );
  const answer = await res;
  expect(answer.statusCode, answer.body).toBe(201);
  return answer.json().url;
}

const setFile = (transactionId: string, formId: string, url: string) =>
  call('PUT', `/api/transactions/${transactionId}/forms/${formId}`, agent, { url });

async function attach(transactionId: string, formId: string) {
  const res = await setFile(transactionId, formId, await uploaded(transactionId));
  expect(res.statusCode, res.body).toBe(200);
}

async function expectCountersRight(transactionId: string) {
  const { kept, recounted } = await keptAndRecounted(database.db, transactionId);
  expect(kept).toEqual(recounted);
}

const notificationsOf = (userId: string, transactionId: string) =>
  database.db.notification.findMany({ where: { userId, transactionId }, select: { message: true } });

describe('two admins deciding one item at once', () => {
  it('exactly one acceptance: one 201 and one 409, one decision comment, one notification', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await createTransaction(database.db, {
        userId: agent.id,
        documents: ['Contract', 'Addendum'],
      });
      const form = t.forms[0];
      if (!form) throw new Error('no form');
      await attach(t.id, form.id);
      const url = `/api/admin/transactions/${t.id}/forms/${form.id}/comments`;
      const answers = await Promise.all([
        call('POST', url, carl, { status: 'accepted' }),
        call('POST', url, dora, { status: 'accepted' }),
      ]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
      const conflict = answers.find((res) => res.statusCode === 409);
      expect(conflict?.json().message).toBe('This document is already accepted');

      const comments = await database.db.comment.findMany({ where: { formId: form.id } });
      expect(comments.map((c) => c.status)).toEqual(['accepted']);
      const versions = await database.db.formVersion.findMany({ where: { formId: form.id } });
      expect(versions.map((v) => [v.number, v.decisionStatus])).toEqual([[1, 'accepted']]);
      // The winner's decision, on the version and the comment alike.
      expect(versions[0]?.decidedById).toBe(comments[0]?.userId);
      expect(await notificationsOf(agent.id, t.id)).toEqual([
        { message: `"Contract" was accepted (${t.streetAddress}, ${t.city})` },
      ]);
      const audit = await database.db.auditEvent.count({
        where: { transactionId: t.id, action: 'form.review' },
      });
      expect(audit).toBe(1);
      await expectCountersRight(t.id);
    }
  });
});

describe('a bulk accept racing a new upload of one of its items', () => {
  it('accepts the version the reviewer saw or refuses the batch; never the new file; counters stay right', async () => {
    const outcomes = { accepted: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const t = await createTransaction(database.db, {
        userId: agent.id,
        documents: ['Contract', 'Addendum', 'Inspection'],
      });
      const [contract, addendum] = t.forms;
      if (!contract || !addendum) throw new Error('no forms');
      await attach(t.id, contract.id);
      await attach(t.id, addendum.id);
      const newFile = await uploaded(t.id);
      const [bulk, upload] = await Promise.all([
        call('POST', '/api/admin/review', carl, {
          items: [
            { transactionId: t.id, formId: contract.id, version: 1 },
            { transactionId: t.id, formId: addendum.id, version: 1 },
          ],
        }),
        setFile(t.id, contract.id, newFile),
      ]);
      expect(upload.statusCode, upload.body).toBe(200);
      expect([200, 409], bulk.body).toContain(bulk.statusCode);

      const forms = await database.db.transactionForm.findMany({
        where: { transactionId: t.id },
        orderBy: { position: 'asc' },
        include: { versions: { orderBy: { number: 'asc' } } },
      });
      const [c, a] = forms;
      // Whatever the order, the new file is the current one and waits for review.
      expect(c).toMatchObject({ version: 2, status: 'pending' });
      expect(c?.versions.map((v) => [v.number, v.decisionStatus])).toEqual([
        [1, bulk.statusCode === 200 ? 'accepted' : null],
        [2, null],
      ]);
      if (bulk.statusCode === 200) {
        outcomes.accepted++;
        expect(bulk.json()).toEqual({ reviewed: 2 });
        expect(a?.status).toBe('accepted');
      } else {
        outcomes.refused++;
        expect(bulk.json().message).toBe(
          `"Contract" (${t.streetAddress}, ${t.city}) is no longer awaiting review`,
        );
        // All or nothing: the other item was not accepted either.
        expect(a?.status).toBe('pending');
        expect(a?.versions.map((v) => v.decisionStatus)).toEqual([null]);
        expect(await database.db.comment.count({ where: { form: { transactionId: t.id } } })).toBe(0);
      }
      await expectCountersRight(t.id);
    }
    expect(outcomes.accepted + outcomes.refused).toBe(ROUNDS);
  });
});

describe('a close racing a rejection', () => {
  it('never both: either closed with everything accepted, or rejected and still open', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await createTransaction(database.db, {
        userId: agent.id,
        documents: ['Contract', 'Addendum'],
      });
      for (const form of t.forms) {
        await attach(t.id, form.id);
        const res = await call('POST', `/api/admin/transactions/${t.id}/forms/${form.id}/comments`, carl, {
          status: 'accepted',
        });
        expect(res.statusCode).toBe(201);
      }
      const target = t.forms[1];
      if (!target) throw new Error('no form');
      const [close, rejection] = await Promise.all([
        call('POST', `/api/admin/transactions/${t.id}/close`, carl),
        call('POST', `/api/admin/transactions/${t.id}/forms/${target.id}/comments`, dora, {
          status: 'rejected',
          reasons: ['illegible'],
        }),
      ]);
      const row = await database.db.transaction.findUniqueOrThrow({
        where: { id: t.id },
        include: { forms: { orderBy: { position: 'asc' } } },
      });
      if (close.statusCode === 200) {
        expect(rejection.statusCode).toBe(409);
        expect(rejection.json().message).toBe('This transaction is closed');
        expect(row.closedAt).not.toBeNull();
        expect(row.forms.map((f) => f.status)).toEqual(['accepted', 'accepted']);
      } else {
        expect(close.statusCode).toBe(409);
        expect(close.json().message).toBe(
          'This transaction is not compliant yet: 1 required documents are not accepted',
        );
        expect(rejection.statusCode).toBe(201);
        expect(row.closedAt).toBeNull();
        expect(row.forms.map((f) => f.status)).toEqual(['accepted', 'rejected']);
      }
      await expectCountersRight(t.id);
    }
  });
});

describe('uploads racing on every item of one transaction', () => {
  it('the statement trigger of each writer sees the others: the counters equal a recount', async () => {
    for (let round = 0; round < 3; round++) {
      const labels = ['A', 'B', 'C', 'D', 'E', 'F'];
      const t = await createTransaction(database.db, { userId: agent.id, documents: labels });
      const urls = await Promise.all(t.forms.map(() => uploaded(t.id)));
      const answers = await Promise.all(t.forms.map((form, i) => setFile(t.id, form.id, urls[i] ?? '')));
      expect(answers.map((res) => res.statusCode)).toEqual(labels.map(() => 200));
      await expectCountersRight(t.id);
      const { kept } = await keptAndRecounted(database.db, t.id);
      expect(kept).toMatchObject({ required: 6, awaitingReview: 6, missing: 0, queue: 6 });
      // And deciding them all at once, half accepted, half rejected, from two admins.
      const decisions = await Promise.all(
        t.forms.map((form, i) =>
          call('POST', `/api/admin/transactions/${t.id}/forms/${form.id}/comments`, i % 2 ? carl : dora, {
            status: i % 2 ? 'accepted' : 'rejected',
            text: 'checked',
          }),
        ),
      );
      expect(decisions.map((res) => res.statusCode)).toEqual(labels.map(() => 201));
      await expectCountersRight(t.id);
      expect((await keptAndRecounted(database.db, t.id)).kept).toMatchObject({
        accepted: 3,
        rejected: 3,
        awaitingReview: 0,
        queue: 0,
        state: 'rejected',
      });
    }
  });
});

describe('two admins adding rejection reasons at once', () => {
  it('labels that make the same code both get one: the code and the code with -2', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const base = `Race ${round} ${Date.now().toString(36)}`;
      const answers = await Promise.all([
        call('POST', '/api/admin/rejection-reasons', carl, { label: base }),
        call('POST', '/api/admin/rejection-reasons', dora, { label: `${base}!` }),
      ]);
      expect(
        answers.map((res) => res.statusCode),
        answers.map((res) => res.body).join(' / '),
      ).toEqual([201, 201]);
      const code = base.toLowerCase().replaceAll(' ', '-');
      expect(answers.map((res) => res.json().code).sort()).toEqual([code, `${code}-2`]);
    }
  });

  it('the same label twice: one 201, one 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const label = `Same ${round} ${Date.now().toString(36)}`;
      const answers = await Promise.all([
        call('POST', '/api/admin/rejection-reasons', carl, { label }),
        call('POST', '/api/admin/rejection-reasons', dora, { label }),
      ]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
      expect(await database.db.rejectionReason.count({ where: { label } })).toBe(1);
    }
  });

  it('two reasons reworded to one label at once: one 200, one 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const stamp = `${round} ${Date.now().toString(36)}`;
      const codes = [];
      for (const label of [`First ${stamp}`, `Second ${stamp}`]) {
        const res = await call('POST', '/api/admin/rejection-reasons', carl, { label });
        codes.push(res.json().code);
      }
      const label = `Reworded ${stamp}`;
      const answers = await Promise.all(
        codes.map((code, i) =>
          call('PUT', `/api/admin/rejection-reasons/${code}`, i ? dora : carl, { label }),
        ),
      );
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      expect(await database.db.rejectionReason.count({ where: { label } })).toBe(1);
    }
  });
});

describe('other races on one item', () => {
  it('two files attached to one item at once: versions 1 and 2, the item at version 2', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await createTransaction(database.db, { userId: agent.id, documents: ['Contract'] });
      const form = t.forms[0];
      if (!form) throw new Error('no form');
      const [first, second] = await Promise.all([uploaded(t.id), uploaded(t.id)]);
      const answers = await Promise.all([setFile(t.id, form.id, first), setFile(t.id, form.id, second)]);
      expect(answers.map((res) => res.statusCode)).toEqual([200, 200]);
      const row = await database.db.transactionForm.findUniqueOrThrow({
        where: { id: form.id },
        include: { versions: { orderBy: { number: 'asc' } } },
      });
      expect(row.versions.map((v) => v.number)).toEqual([1, 2]);
      expect(row).toMatchObject({ version: 2, fileKey: row.versions[1]?.fileKey, status: 'pending' });
      expect(new Set(row.versions.map((v) => v.fileKey)).size).toBe(2);
      await expectCountersRight(t.id);
    }
  });

  it('one waiver asked twice at once: one 201, one 409', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await createTransaction(database.db, { userId: agent.id, documents: ['Contract'] });
      const url = `/api/transactions/${t.id}/forms/${t.forms[0]?.id}/waiver`;
      const answers = await Promise.all([
        call('POST', url, agent, { reason: 'Not needed' }),
        call('POST', url, carl, { reason: 'Exempt' }),
      ]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([201, 409]);
      expect(answers.find((res) => res.statusCode === 409)?.json().message).toBe(
        'A waiver is already requested for this document',
      );
      await expectCountersRight(t.id);
    }
  });

  it('two bulk accepts sharing an item: one accepts, the other is refused whole', async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const t = await createTransaction(database.db, { userId: agent.id, documents: ['A', 'B', 'C'] });
      const [a, b, c] = t.forms;
      if (!a || !b || !c) throw new Error('no forms');
      for (const form of t.forms) await attach(t.id, form.id);
      const answers = await Promise.all([
        call('POST', '/api/admin/review', carl, {
          items: [
            { transactionId: t.id, formId: a.id },
            { transactionId: t.id, formId: b.id },
          ],
        }),
        call('POST', '/api/admin/review', dora, {
          items: [
            { transactionId: t.id, formId: c.id },
            { transactionId: t.id, formId: b.id },
          ],
        }),
      ]);
      expect(answers.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const statuses = (
        await database.db.transactionForm.findMany({
          where: { transactionId: t.id },
          orderBy: { position: 'asc' },
        })
      ).map((form) => form.status);
      // Exactly the winner's two items, and B once.
      expect([
        ['accepted', 'accepted', 'pending'],
        ['pending', 'accepted', 'accepted'],
      ]).toContainEqual(statuses);
      expect(await database.db.comment.count({ where: { formId: b.id } })).toBe(1);
      expect(await notificationsOf(agent.id, t.id)).toHaveLength(1);
      await expectCountersRight(t.id);
    }
  });
});
