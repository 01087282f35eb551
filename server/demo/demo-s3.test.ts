import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { seed } from '../db/seed';
import { fileTypeOfBytes } from '../storage/file-types';
import { setupTestDatabase, TestClock } from '../test/harness';
import { type S3TestServer, startS3TestServer } from '../test/s3-server';
import { auditStoredFilesInBucket, STORAGE_AND_ROWS_AGREE } from '../test/stored-files-audit';
import { seedDemo } from './demo';

/** SEED_DEMO with STORAGE_DRIVER=s3: the demo's PDFs land in the bucket, each with its row. */

const database = setupTestDatabase();
const quiet = { info: () => {}, warn: () => {} };
let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3TestServer();
});
afterAll(() => s3?.close());

describe('demo data on S3', () => {
  test('every demo file is an object in the bucket with its stored_files row; the links serve the PDFs', async () => {
    await seed(
      database.db,
      { adminEmail: 'owner@example.com', adminPassword: 'owner-password-1', env: 'test' },
      quiet,
    );
    // The real time: s3rver judges a presigned link's expiry by its own clock.
    const clock = new TestClock(new Date());
    const storage = s3.storage(clock);
    expect(
      await seedDemo(database.db, storage, { cost: 'test', now: clock.now(), transactions: 6 }, quiet),
    ).toBe(true);

    const audit = await auditStoredFilesInBucket(database.url, s3);
    expect(audit).toMatchObject(STORAGE_AND_ROWS_AGREE);
    const formFiles = await database.db.transactionForm.count({ where: { fileKey: { not: null } } });
    expect(formFiles).toBeGreaterThan(0);
    expect(audit.files).toBe(formFiles + 4); // and the four library forms

    const libraryForm = await database.db.libraryItem.findFirstOrThrow({ where: { kind: 'form' } });
    const res = await fetch(await storage.signedUrl(libraryForm.link));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(await fileTypeOfBytes(Buffer.from(await res.arrayBuffer()))).toBe('pdf');
  });
});
