import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transaction } from '../../../shared/schemas/transactions';
import { bearer, injectUpload, TINY_PDF } from '../../test/api-calls';
import { accessTokenFor, createAdmin, createTransaction, createUser } from '../../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../../test/harness';
import { keptAndRecounted, recount } from '../../test/progress-recount';

/**
 * The progress counters as a property. fast-check generates one or two transactions
 * whose items start in any combination of required, status, file and waiver (written in SQL), and
 * sequences of what then happens to them: files attached, accepted, rejected with a reason, waivers asked for,
 * approved or denied, bulk accepts, items added, removed or made optional straight in SQL (one
 * statement may touch both transactions), files closed and reopened. After every step, every
 * counter the database keeps on each transaction, and its compliance_state, equal a recount in
 * TypeScript from its transaction_forms rows; at the end of each sequence the API's progress,
 * compliant and status say the same. Refused steps (409 and the like) are part of the game: they
 * must change nothing that the recount would not see.
 */

const database = setupTestDatabase();
const clock = new TestClock();
let app: FastifyInstance;

type Actor = { id: string; role: 'user' | 'admin'; tokenVersion: number };
let agent: Actor;
let admin: Actor;

const RUNS = 40;
const stats = { runs: 0, steps: 0, refused: 0 };

beforeAll(async () => {
  app = buildTestApp(testDeps(database.db, { clock }));
  agent = await createUser(database.db);
  admin = await createAdmin(database.db);
});
afterAll(async () => {
  console.warn(`progress property: ${stats.runs} runs, ${stats.steps} steps, ${stats.refused} refused`);
  await app?.close();
});

async function call(method: 'GET' | 'POST' | 'PUT', url: string, who: Actor, payload?: unknown) {
  return app.inject({
    method,
    url,
    ...(payload === undefined ? {} : { payload: payload as object }),
    headers: bearer(await accessTokenFor(who, { now: clock.now() })),
  });
}

// --- Steps ---

const target = { t: fc.nat(1), f: fc.nat(4) };
const step = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('attach' as const), ...target }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('accept' as const), ...target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('reject' as const), ...target }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('requestWaiver' as const), ...target }) },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('decideWaiver' as const), ...target, approve: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('bulkAccept' as const),
      picks: fc.uniqueArray(fc.record(target), {
        minLength: 1,
        maxLength: 3,
        selector: (p) => `${p.t}/${p.f}`,
      }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('addItem' as const), t: fc.nat(1), required: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('setRequired' as const), ...target, required: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('removeItem' as const), ...target }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('flipAll' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('close' as const), t: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), t: fc.nat(1) }) },
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** Where an item starts: any combination of the columns the counters read, written in SQL. */
const itemState = fc.record({
  required: fc.boolean(),
  status: fc.constantFrom('pending' as const, 'accepted' as const, 'rejected' as const),
  file: fc.boolean(),
  waiver: fc.constantFrom(null, 'requested' as const, 'approved' as const, 'denied' as const),
});

const scenario = fc.record({
  transactions: fc.array(fc.array(itemState, { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 2 }),
  steps: fc.array(step, { minLength: 4, maxLength: 16 }),
});

/** The item a step means: the f-th (modulo) of the transaction's items now, by position. */
async function itemOf(transactionId: string, f: number): Promise<string | undefined> {
  const forms = await database.db.transactionForm.findMany({
    where: { transactionId },
    orderBy: [{ position: 'asc' }, { id: 'asc' }],
    select: { id: true },
  });
  return forms.length ? forms[f % forms.length]?.id : undefined;
}

/** What each step may answer: anything else (a 500 above all) fails the property. */
async function run(s: Step, ids: string[]): Promise<void> {
  const id = (t: number) => ids[t % ids.length] ?? '';
  const expectOneOf = (statuses: number[], res: { statusCode: number; body: string }) => {
    expect(statuses, `${JSON.stringify(s)}: ${res.body}`).toContain(res.statusCode);
    if (res.statusCode >= 400) stats.refused++;
  };
  stats.steps++;
  switch (s.kind) {
    case 'attach': {
      const formId = await itemOf(id(s.t), s.f);
      if (!formId) return;
      const bytes = Buffer.concat([TINY_PDF, Buffer.from(`% ${randomUUID()}\n`)]);
      const token = await accessTokenFor(agent, { now: clock.now() });
      const up = await injectUpload(app, `/api/uploads/transactions/${id(s.t)}`, token, bytes);
      expectOneOf([201, 409], up);
      if (up.statusCode !== 201) return;
      expectOneOf(
        [200],
        await call('PUT', `/api/transactions/${id(s.t)}/forms/${formId}`, agent, { url: up.json().url }),
      );
      return;
    }
    case 'accept':
    case 'reject': {
      const formId = await itemOf(id(s.t), s.f);
      if (!formId) return;
      const body =
        s.kind === 'accept' ? { status: 'accepted' } : { status: 'rejected', reasons: ['missing-signature'] };
      expectOneOf(
        [201, 409],
        await call('POST', `/api/admin/transactions/${id(s.t)}/forms/${formId}/comments`, admin, body),
      );
      return;
    }
    case 'requestWaiver': {
      const formId = await itemOf(id(s.t), s.f);
      if (!formId) return;
      expectOneOf(
        [201, 409],
        await call('POST', `/api/transactions/${id(s.t)}/forms/${formId}/waiver`, agent, {
          reason: 'Not needed',
        }),
      );
      return;
    }
    case 'decideWaiver': {
      const formId = await itemOf(id(s.t), s.f);
      if (!formId) return;
      expectOneOf(
        [200, 409],
        await call('POST', `/api/admin/transactions/${id(s.t)}/forms/${formId}/waiver`, admin, {
          approve: s.approve,
        }),
      );
      return;
    }
    case 'bulkAccept': {
      const items: Array<{ transactionId: string; formId: string }> = [];
      for (const pick of s.picks) {
        const formId = await itemOf(id(pick.t), pick.f);
        if (formId && !items.some((item) => item.formId === formId))
          items.push({ transactionId: id(pick.t), formId });
      }
      if (!items.length) return;
      expectOneOf([200, 409], await call('POST', '/api/admin/review', admin, { items }));
      return;
    }
    case 'addItem':
      await database.db.$executeRaw`
        INSERT INTO transaction_forms (transaction_id, label, position, required)
        SELECT ${id(s.t)}::uuid, 'Added', coalesce(max(position) + 1, 0), ${s.required}
          FROM transaction_forms WHERE transaction_id = ${id(s.t)}::uuid`;
      return;
    case 'setRequired': {
      const formId = await itemOf(id(s.t), s.f);
      if (formId)
        await database.db
          .$executeRaw`UPDATE transaction_forms SET required = ${s.required} WHERE id = ${formId}::uuid`;
      return;
    }
    case 'removeItem': {
      const formId = await itemOf(id(s.t), s.f);
      if (formId) await database.db.$executeRaw`DELETE FROM transaction_forms WHERE id = ${formId}::uuid`;
      return;
    }
    case 'flipAll':
      // One statement over the items of every transaction of the run.
      await database.db.$executeRaw`
        UPDATE transaction_forms SET required = NOT required WHERE transaction_id = ANY (${ids}::uuid[])`;
      return;
    case 'close':
      expectOneOf([200, 409], await call('POST', `/api/admin/transactions/${id(s.t)}/close`, admin));
      return;
    case 'reopen':
      expectOneOf([200, 409], await call('POST', `/api/admin/transactions/${id(s.t)}/reopen`, admin));
      return;
  }
}

describe('progress counters', () => {
  it('equal a recount from the rows after every step of any sequence', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ transactions, steps }) => {
        stats.runs++;
        const ids: string[] = [];
        for (const items of transactions) {
          const t = await createTransaction(database.db, {
            userId: agent.id,
            documents: items.map((_, n) => `Item ${n + 1}`),
          });
          ids.push(t.id);
          for (const [n, item] of items.entries()) {
            const fileKey = item.file ? `transactions/${t.id}/${randomUUID()}-seeded.pdf` : null;
            await database.db.$executeRaw`
              UPDATE transaction_forms
                 SET required = ${item.required}, status = ${item.status}::form_status, file_key = ${fileKey},
                     version = ${item.file ? 1 : 0}, waiver_status = ${item.waiver}::waiver_status,
                     waiver_reason = ${item.waiver ? 'Seeded' : null},
                     waiver_requested_at = ${item.waiver ? clock.now() : null}
               WHERE id = ${t.forms[n]?.id}::uuid`;
          }
          const { kept, recounted } = await keptAndRecounted(database.db, t.id);
          expect(kept, `seeded ${JSON.stringify(items)}`).toEqual(recounted);
        }
        for (const s of steps) {
          clock.advance(1_000);
          await run(s, ids);
          for (const id of ids) {
            const { kept, recounted } = await keptAndRecounted(database.db, id);
            expect(kept, `after ${JSON.stringify(s)}`).toEqual(recounted);
          }
        }
        for (const id of ids) {
          const res = await call('GET', `/api/admin/transactions/individual/${id}`, admin);
          const answer: Transaction = res.json();
          const forms = await database.db.transactionForm.findMany({ where: { transactionId: id } });
          const want = recount(forms, answer.closedAt !== null);
          const done = want.accepted + want.waived;
          expect(answer.progress).toEqual({
            required: want.required,
            accepted: want.accepted,
            waived: want.waived,
            awaitingReview: want.awaitingReview,
            rejected: want.rejected,
            missing: want.missing,
            percent: want.required === 0 ? 100 : Math.round((100 * done) / want.required),
          });
          expect(answer.compliant).toBe(done >= want.required);
          expect(answer.status).toBe(want.state);
          // The required items are the items marked required, and each is in one bucket.
          expect(want.required).toBe(answer.forms.filter((f) => f.required).length);
          expect(done + want.awaitingReview + want.rejected + want.missing).toBe(want.required);
        }
      }),
      // No shrinking: each try replays a sequence against the database, and the failing step is
      // named in the assertion's message already.
      { numRuns: RUNS, endOnFailure: true },
    );
    // Every step is a few real requests and queries: generous on a busy machine.
  }, 120_000);
});
