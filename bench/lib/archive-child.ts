import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { systemClock } from '../../server/clock';
import { createDb } from '../../server/db/client';
import { sealArchive } from '../../server/services/archives/seal';
import { createStorage } from '../../server/storage';
import { testConfig } from '../../server/test/test-config';

/**
 * One measured step of the archive benchmark in a process of its own, so its RSS is the step's
 * and not the heap the benchmark grew making 200 MB of PDFs: `seal <transactionId> <closedAt>`
 * or `copy <key>...`. Prints {seconds, rssBefore, rssPeak} as JSON.
 */

const [url, dataDir, keyPem, mode, ...args] = process.argv.slice(2);
if (!url || !dataDir || !keyPem || !mode)
  throw new Error('usage: archive-child <url> <dataDir> <keyPem> seal|copy ...');
const config = testConfig({ dataDir, archiveSigningKey: keyPem });
const storage = createStorage(config, systemClock);
const db = createDb(url, { poolSize: 2 });
const deps = { config, db, clock: systemClock, storage };
const ctx = { deps, db, ip: 'bench', requestId: 'bench', log: { info() {}, warn() {}, error() {} } } as never;

async function work() {
  if (mode === 'seal') {
    const [transactionId = '', closedAt = ''] = args;
    await sealArchive(ctx, { transactionId, closedAt: new Date(closedAt) });
    return;
  }
  for (const key of args) {
    const source = await storage.open(key);
    if (!source) throw new Error(`missing ${key}`);
    const copyKey = key.replace(/\/[0-9a-f-]{36}-/, `/${crypto.randomUUID()}-copy-`);
    await storage.put(copyKey, source.body.pipe(new PassThrough()), { contentType: 'application/pdf' });
    await storage.delete(copyKey);
  }
}

// Warm: the modules loaded and a statement run, so the step measures its own work only.
await db.$queryRaw`SELECT 1`;
const rssBefore = process.memoryUsage().rss;
let rssPeak = rssBefore;
const sampler = setInterval(() => {
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
}, 20);
const began = performance.now();
await work();
clearInterval(sampler);
rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
process.stdout.write(
  `${JSON.stringify({ seconds: (performance.now() - began) / 1000, rssBefore, rssPeak })}\n`,
);
await db.$disconnect();
