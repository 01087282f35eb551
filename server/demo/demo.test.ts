import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { seed } from '../db/seed';
import { verifyPassword } from '../security/passwords';
import { fileTypeOfBytes } from '../storage/file-types';
import { localStorage } from '../storage/local';
import { setupTestDatabase, TestClock } from '../test/harness';
import { DEMO_AGENTS, DEMO_PASSWORD, seedDemo } from './demo';

const database = setupTestDatabase();
const quiet = { info: () => {}, warn: () => {} };
let root: string | undefined;
afterAll(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

describe('demo data', () => {
  test('agents who can sign in, transactions in every state with real PDFs, added only once', async () => {
    await seed(
      database.db,
      { adminEmail: 'owner@example.com', adminPassword: 'owner-password-1', env: 'test' },
      quiet,
    );
    root = await mkdtemp(path.join(os.tmpdir(), 'demo-'));
    const clock = new TestClock();
    const storage = localStorage({ root, publicBaseUrl: 'http://x', signingKey: Buffer.alloc(32), clock });
    expect(
      await seedDemo(database.db, storage, { cost: 'test', now: clock.now(), transactions: 12 }, quiet),
    ).toBe(true);

    const agent = await database.db.user.findUniqueOrThrow({ where: { email: DEMO_AGENTS[0]?.email } });
    expect(agent).toMatchObject({ isAdminApproved: true, role: 'user' });
    expect(await verifyPassword(agent.passwordHash, DEMO_PASSWORD)).toBe(true);
    expect(await database.db.transaction.count()).toBe(12);

    const forms = await database.db.transactionForm.findMany();
    expect(new Set(forms.map((f) => f.status))).toEqual(new Set(['pending', 'accepted', 'rejected']));
    // Every badge, as the database derives it, on some file.
    const files = await database.db.transaction.findMany({
      select: {
        complianceState: true,
        closedAt: true,
        forms: { select: { required: true, status: true, waiverStatus: true } },
      },
    });
    expect(new Set(files.map((file) => file.complianceState))).toEqual(
      new Set(['closed', 'compliant', 'needs_review', 'rejected', 'missing']),
    );
    // A newcomer can close one at once: open, every required item accepted or waived (one waived).
    const closable = files.filter((file) => file.complianceState === 'compliant');
    expect(closable.length).toBeGreaterThan(0);
    for (const file of closable) {
      expect(file.closedAt).toBeNull();
      for (const form of file.forms.filter((f) => f.required))
        expect(form.status === 'accepted' || form.waiverStatus === 'approved').toBe(true);
    }
    expect(closable.some((file) => file.forms.some((f) => f.waiverStatus === 'approved'))).toBe(true);
    const withFile = forms.find((f) => f.fileKey);
    const file = await storage.open(withFile?.fileKey ?? '');
    const chunks: Buffer[] = [];
    for await (const chunk of file?.body ?? []) chunks.push(chunk as Buffer);
    expect(await fileTypeOfBytes(Buffer.concat(chunks))).toBe('pdf');

    expect(await database.db.libraryItem.count({ where: { kind: 'form' } })).toBe(4);
    expect(await database.db.libraryItem.count({ where: { kind: 'tutorial' } })).toBe(3);
    const libraryForm = await database.db.libraryItem.findFirstOrThrow({ where: { kind: 'form' } });
    expect(await storage.exists(libraryForm.link)).toBe(true);
    // Every demo file has its stored_files row, like an upload.
    const storedKeys = (await database.db.storedFile.findMany()).map((row) => row.key).sort();
    const fileKeys = [...forms.flatMap((f) => (f.fileKey ? [f.fileKey] : [])), libraryForm.link];
    expect(storedKeys).toEqual(expect.arrayContaining(fileKeys));
    expect(storedKeys).toHaveLength(forms.filter((f) => f.fileKey).length + 4);

    expect(await seedDemo(database.db, storage, { cost: 'test', now: clock.now() }, quiet)).toBe(false);
    expect(await database.db.transaction.count()).toBe(12);
  });
});
