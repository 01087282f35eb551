import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { bearer } from '../test/api-calls';
import { runSql } from '../test/databases';
import { accessTokenFor } from '../test/factories';
import { buildTestApp, setupTestDatabase, TestClock, testDeps } from '../test/harness';
import { migrateUpToBefore } from '../test/migrations';
import { migrate } from './migrate';

/**
 * What the compliance migration makes of rows written before it: every current file
 * becomes version 1 of its item, with what stored_files knew of it and the latest decision taken
 * on it; every item is required; the counters and the state of each transaction are right at once.
 * The database is migrated up to just before it, filled with old-shaped rows, then to the end.
 */

const MIGRATION = '20261126120000_compliance_workflow';
const database = setupTestDatabase({ empty: true });
const query = <T extends pg.QueryResultRow>(sql: string) => runSql<T>(database.url, sql);

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
/** A storage key as uploads make them (transactions/<id>/<uuid>-<name>), the same for one name. */
const keys = new Map<string, string>();
const key = (deal: string, name: string) => {
  const known = keys.get(`${deal}/${name}`);
  if (known) return known;
  const made = `transactions/${deal}/${uuid(900 + keys.size)}-${name}`;
  keys.set(`${deal}/${name}`, made);
  return made;
};

describe('the compliance migration on existing data', () => {
  it('makes each current file version 1 with its latest decision, and counts every transaction', async () => {
    await migrateUpToBefore(database.url, MIGRATION);
    const agent = uuid(1);
    const admin = uuid(2);
    const admin2 = uuid(3);
    // mixed: one of each kind of item; done: everything accepted; bare: no file at all;
    // empty: no items; rejectedOnly: a rejection and nothing waiting.
    const mixed = uuid(10);
    const done = uuid(11);
    const bare = uuid(12);
    const empty = uuid(13);
    const rejectedOnly = uuid(14);
    const f = (n: number) => uuid(100 + n);
    await query(`
      INSERT INTO users (id, email, first_name, last_name, company, phone_number, password_hash, role,
                         is_admin_approved, email_verified_at)
      VALUES ('${agent}', 'agent@example.com', 'Ann', 'Agent', 'C', '1', 'x', 'user', true, now()),
             ('${admin}', 'admin@example.com', 'Carl', 'Desk', 'C', '1', 'x', 'admin', true, now()),
             ('${admin2}', 'admin2@example.com', 'Dora', 'Desk', 'C', '1', 'x', 'admin', true, now());
      INSERT INTO transactions (id, user_id, street_address, city, state, zip, type, role) VALUES
        ('${mixed}', '${agent}', '1 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller'),
        ('${done}', '${agent}', '2 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller'),
        ('${bare}', '${agent}', '3 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller'),
        ('${empty}', '${agent}', '4 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller'),
        ('${rejectedOnly}', '${agent}', '5 Main St', 'Town', 'ME', '04101', 'Listing', 'Seller');
      INSERT INTO stored_files (key, size, content_type, uploaded_by, transaction_id, created_at) VALUES
        ('${key(mixed, 'a.pdf')}', 1234, 'application/pdf', '${agent}', '${mixed}', '2026-03-01T10:00:00Z'),
        ('${key(mixed, 'b.png')}', 99, 'image/png', '${agent}', '${mixed}', '2026-03-02T10:00:00Z'),
        ('${key(mixed, 'c.pdf')}', 500, 'application/pdf', '${agent}', '${mixed}', '2026-03-03T10:00:00Z'),
        ('${key(done, 'd.pdf')}', 10, 'application/pdf', '${agent}', '${done}', '2026-03-04T10:00:00Z'),
        ('${key(rejectedOnly, 'e.pdf')}', 20, 'application/pdf', '${agent}', '${rejectedOnly}', '2026-03-05T10:00:00Z');
      INSERT INTO transaction_forms (id, transaction_id, label, file_key, status, position, updated_at) VALUES
        ('${f(1)}', '${mixed}', 'Accepted twice', '${key(mixed, 'a.pdf')}', 'accepted', 0, '2026-03-10T00:00:00Z'),
        ('${f(2)}', '${mixed}', 'Rejected', '${key(mixed, 'b.png')}', 'rejected', 1, '2026-03-10T00:00:00Z'),
        ('${f(3)}', '${mixed}', 'Waiting', '${key(mixed, 'c.pdf')}', 'pending', 2, '2026-03-10T00:00:00Z'),
        ('${f(4)}', '${mixed}', 'Missing', NULL, 'pending', 3, '2026-03-10T00:00:00Z'),
        ('${f(5)}', '${mixed}', 'Before stored files', '${key(mixed, 'old.pdf')}', 'pending', 4, '2026-02-01T00:00:00Z'),
        ('${f(6)}', '${done}', 'Accepted silently', '${key(done, 'd.pdf')}', 'accepted', 0, '2026-03-11T00:00:00Z'),
        ('${f(7)}', '${bare}', 'Nothing yet', NULL, 'pending', 0, '2026-03-10T00:00:00Z'),
        ('${f(8)}', '${bare}', 'Nothing either', NULL, 'pending', 1, '2026-03-10T00:00:00Z'),
        ('${f(9)}', '${rejectedOnly}', 'Rejected only', '${key(rejectedOnly, 'e.pdf')}', 'rejected', 0, '2026-03-12T00:00:00Z');
      INSERT INTO comments (form_id, user_id, text, role, status, created_at) VALUES
        ('${f(1)}', '${admin}', 'first look: fine', 'admin', 'accepted', '2026-03-05T00:00:00Z'),
        ('${f(1)}', '${admin}', 'no, page 2 is missing', 'admin', 'rejected', '2026-03-06T00:00:00Z'),
        ('${f(1)}', '${admin2}', 'now complete', 'admin', 'accepted', '2026-03-07T00:00:00Z'),
        ('${f(1)}', '${agent}', 'thanks!', 'user', NULL, '2026-03-08T00:00:00Z'),
        ('${f(2)}', '${admin2}', 'wrong property', 'admin', 'rejected', '2026-03-06T00:00:00Z'),
        ('${f(3)}', '${admin}', 'earlier rejection of an older file', 'admin', 'rejected', '2026-03-01T00:00:00Z'),
        ('${f(9)}', '${admin}', '', 'admin', 'rejected', '2026-03-12T00:00:00Z');
    `);

    await migrate(database.url);

    const versions = await query<{
      form_id: string;
      number: number;
      file_key: string;
      size: number;
      content_type: string;
      uploaded_by: string | null;
      uploaded_at: Date;
      decision_status: string | null;
      decision_text: string | null;
      decision_reasons: unknown;
      decided_at: Date | null;
      decided_by: string | null;
    }>('SELECT * FROM form_versions ORDER BY form_id');
    const byForm = Object.fromEntries(versions.map((v) => [v.form_id, v]));
    // Only items with a file have a version, and each exactly one.
    expect(versions.map((v) => [v.form_id, v.number])).toEqual([1, 2, 3, 5, 6, 9].map((n) => [f(n), 1]));
    expect(byForm[f(1)]).toMatchObject({
      file_key: key(mixed, 'a.pdf'),
      size: 1234,
      content_type: 'application/pdf',
      uploaded_by: agent,
      uploaded_at: new Date('2026-03-01T10:00:00Z'),
      decision_status: 'accepted',
      // The newest comment carrying the present status, not the older acceptance nor the chat.
      decision_text: 'now complete',
      decided_at: new Date('2026-03-07T00:00:00Z'),
      decided_by: admin2,
      decision_reasons: [],
    });
    expect(byForm[f(2)]).toMatchObject({
      size: 99,
      content_type: 'image/png',
      decision_status: 'rejected',
      decision_text: 'wrong property',
      decided_by: admin2,
    });
    // Pending: no decision, whatever older comments said.
    expect(byForm[f(3)]).toMatchObject({
      decision_status: null,
      decision_text: null,
      decided_at: null,
      decided_by: null,
    });
    // A file stored before stored_files existed: size 0, a generic type, the item's date.
    expect(byForm[f(5)]).toMatchObject({
      size: 0,
      content_type: 'application/octet-stream',
      uploaded_by: null,
      uploaded_at: new Date('2026-02-01T00:00:00Z'),
    });
    // Accepted without any comment: the decision stands, dated by the item, by nobody known.
    expect(byForm[f(6)]).toMatchObject({
      decision_status: 'accepted',
      decision_text: null,
      decided_at: new Date('2026-03-11T00:00:00Z'),
      decided_by: null,
    });
    // An empty comment carried the rejection: its author and date, no text.
    expect(byForm[f(9)]).toMatchObject({
      decision_status: 'rejected',
      decision_text: null,
      decided_at: new Date('2026-03-12T00:00:00Z'),
      decided_by: admin,
    });

    const forms = await query<{ id: string; required: boolean; version: number; submitted_at: Date | null }>(
      'SELECT id, required, version, submitted_at FROM transaction_forms ORDER BY id',
    );
    expect(forms.every((form) => form.required)).toBe(true);
    expect(Object.fromEntries(forms.map((form) => [form.id, [form.version, form.submitted_at]]))).toEqual({
      [f(1)]: [1, new Date('2026-03-01T10:00:00Z')],
      [f(2)]: [1, new Date('2026-03-02T10:00:00Z')],
      [f(3)]: [1, new Date('2026-03-03T10:00:00Z')],
      [f(4)]: [0, null],
      [f(5)]: [1, new Date('2026-02-01T00:00:00Z')],
      [f(6)]: [1, new Date('2026-03-04T10:00:00Z')],
      [f(7)]: [0, null],
      [f(8)]: [0, null],
      [f(9)]: [1, new Date('2026-03-05T10:00:00Z')],
    });

    const counts = await query<Record<string, number | string | null>>(`
      SELECT id, required_count, accepted_count, waived_count, awaiting_review_count, rejected_count,
             missing_count, pending_waiver_count, queue_count, compliance_state::text AS state, closed_at
        FROM transactions ORDER BY id`);
    const row = (
      required: number,
      accepted: number,
      awaiting: number,
      rejected: number,
      missing: number,
      queue: number,
      state: string,
    ) => ({
      required_count: required,
      accepted_count: accepted,
      waived_count: 0,
      awaiting_review_count: awaiting,
      rejected_count: rejected,
      missing_count: missing,
      pending_waiver_count: 0,
      queue_count: queue,
      state,
      closed_at: null,
    });
    expect(Object.fromEntries(counts.map(({ id, ...rest }) => [id, rest]))).toEqual({
      [mixed]: row(5, 1, 2, 1, 1, 2, 'needs-review'),
      [done]: row(1, 1, 0, 0, 0, 0, 'compliant'),
      [bare]: row(2, 0, 0, 0, 2, 0, 'missing'),
      [empty]: row(0, 0, 0, 0, 0, 0, 'compliant'),
      [rejectedOnly]: row(1, 0, 0, 1, 0, 0, 'rejected'),
    });

    const reasons = await query<{ code: string; label: string; active: boolean }>(
      'SELECT code, label, active FROM rejection_reasons ORDER BY created_at, code',
    );
    expect(reasons).toEqual([
      { code: 'missing-signature', label: 'Missing signature', active: true },
      { code: 'missing-initials', label: 'Missing initials', active: true },
      { code: 'wrong-form', label: 'Wrong form or outdated version', active: true },
      { code: 'illegible', label: 'Illegible or incomplete scan', active: true },
      { code: 'blank-fields', label: 'Required fields left blank', active: true },
      { code: 'wrong-property', label: 'Wrong property or parties', active: true },
    ]);

    // Old comments read as comments without reasons.
    const commentReasons = await query<{ reasons: unknown }>('SELECT DISTINCT reasons FROM comments');
    expect(commentReasons).toEqual([{ reasons: [] }]);

    // And the API reads the migrated rows: progress, the items, their versions and decisions.
    const app = buildTestApp(
      testDeps(database.db, { clock: new TestClock(new Date('2026-04-01T00:00:00Z')) }),
    );
    try {
      const token = await accessTokenFor(
        { id: admin, role: 'admin', tokenVersion: 0 },
        { now: new Date('2026-04-01T00:00:00Z') },
      );
      const get = (url: string) => app.inject({ method: 'GET', url, headers: bearer(token) });
      const detail = (await get(`/api/admin/transactions/individual/${mixed}`)).json();
      expect(detail).toMatchObject({
        progress: {
          required: 5,
          accepted: 1,
          waived: 0,
          awaitingReview: 2,
          rejected: 1,
          missing: 1,
          percent: 20,
        },
        compliant: false,
        status: 'needs-review',
        closedAt: null,
      });
      expect(
        detail.forms.map((form: { label: string; required: boolean; version: number; waiver: unknown }) => [
          form.label,
          form.required,
          form.version,
          form.waiver,
        ]),
      ).toEqual([
        ['Accepted twice', true, 1, null],
        ['Rejected', true, 1, null],
        ['Waiting', true, 1, null],
        ['Missing', true, 0, null],
        ['Before stored files', true, 1, null],
      ]);
      const versions = (await get(`/api/transactions/${mixed}/forms/${f(1)}/versions`)).json();
      expect(versions.versions).toEqual([
        expect.objectContaining({
          number: 1,
          size: 1234,
          contentType: 'application/pdf',
          sha256: null,
          uploadedAt: '2026-03-01T10:00:00.000Z',
          uploadedBy: { _id: agent, firstName: 'Ann', lastName: 'Agent' },
          decision: {
            status: 'accepted',
            reasons: [],
            text: 'now complete',
            at: '2026-03-07T00:00:00.000Z',
            by: { _id: admin2, firstName: 'Dora', lastName: 'Desk' },
          },
        }),
      ]);
      const silent = (await get(`/api/transactions/${done}/forms/${f(6)}/versions`)).json();
      expect(silent.versions[0].decision).toEqual({
        status: 'accepted',
        reasons: [],
        text: '',
        at: '2026-03-11T00:00:00.000Z',
        by: null,
      });
      const queue = (await get(`/api/admin/review-queue?agentId=${agent}`)).json();
      expect(
        queue.items.map((item: { form: { label: string }; submittedAt: string }) => [
          item.form.label,
          item.submittedAt,
        ]),
      ).toEqual([
        ['Before stored files', '2026-02-01T00:00:00.000Z'],
        ['Waiting', '2026-03-03T10:00:00.000Z'],
      ]);
      expect(queue.totalItems).toBe(2);
    } finally {
      await app.close();
    }
  });
});
