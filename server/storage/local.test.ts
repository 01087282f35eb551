import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Clock, systemClock } from '../clock';
import { buildTestApp, setupTestDatabase, TEST_JWT_SECRET, testDeps } from '../test/harness';
import { localStorage } from './local';
import { fileSigningKey } from './signed-urls';
import { bytesUnder, describeStorageContract } from './storage-contract';

/** The storage contract for the local driver; its links are checked by the app's /files route. */

const database = setupTestDatabase();

describeStorageContract('local driver', { verifiesSignatures: true }, async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'portal-local-storage-'));
  const signingKey = fileSigningKey(TEST_JWT_SECRET);
  const driver = (clock: Clock) =>
    localStorage({ root, publicBaseUrl: 'http://localhost:3000', signingKey, clock });
  // The real app on the real clock: the driver under test may sign in the past, the route judges now.
  const app = buildTestApp(testDeps(database.db, { clock: systemClock, storage: driver(systemClock) }));
  return {
    driver,
    async fetchLink(url, headers) {
      const link = new URL(url);
      const res = await app.inject({ method: 'GET', url: `${link.pathname}${link.search}`, headers });
      const header = (name: string) => {
        const value = res.headers[name];
        return typeof value === 'string' ? value : undefined;
      };
      return {
        status: res.statusCode,
        body: res.rawPayload,
        contentType: header('content-type'),
        contentDisposition: header('content-disposition'),
        contentRange: header('content-range'),
        acceptRanges: header('accept-ranges'),
      };
    },
    unfinishedWrites: async () =>
      (await readdir(root, { recursive: true })).filter((name) => name.endsWith('.partial')),
    bytesHeld: () => bytesUnder(root),
    async close() {
      await app.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});
