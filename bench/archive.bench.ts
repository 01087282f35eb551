import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { verifyArchive } from '../server/archive/verify';
import { systemClock } from '../server/clock';
import { createDb } from '../server/db/client';
import { PROJECT_ROOT } from '../server/paths';
import { filePdf } from '../server/services/archives/file-pdf';
import { archiveKeyOf } from '../server/services/archives/key';
import { createStorage } from '../server/storage';
import { testConfig } from '../server/test/test-config';
import { archiveFile, prepareArchiveDatabase } from './lib/archive-data';
import type { Benchmark, Goal } from './lib/benchmark';
import { gapLines, loadNoteOf, machineLine } from './lib/report';
import { round } from './lib/stats';

/**
 * Sealing a closed file's archive (the archives:seal job): 40 accepted PDFs of 5 MB, 200 MB in
 * all, streamed from local storage into one zip in storage, with file.pdf, the audit trail and
 * the signed manifest. Against a baseline in the same run: the same bytes copied through storage
 * (open, put), which is what the zip cannot do faster. Each step runs in a fresh process (bench/lib/archive-child.ts) that samples its own RSS every 20 ms.
 */

const COMMAND = 'npm run bench -- archive';
const DOCUMENTS = 40;
const BYTES_EACH = 5 * 1024 * 1024;
const GOAL_S = 30;
const GOAL_RSS_MB = 100;
const MB = 1024 * 1024;

type Measured = { seconds: number; rssBefore: number; rssPeak: number };

async function measure(work: () => Promise<unknown>): Promise<Measured> {
  (globalThis as { gc?: () => void }).gc?.();
  const rssBefore = process.memoryUsage().rss;
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  }, 20);
  const began = performance.now();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  return { seconds: (performance.now() - began) / 1000, rssBefore, rssPeak };
}

const CHILD = path.join(PROJECT_ROOT, 'bench', 'lib', 'archive-child.ts');

const growth = (run: Measured) => (run.rssPeak - run.rssBefore) / MB;
const row = (name: string, run: Measured, bytes: number) =>
  `| ${name} | ${round(run.seconds, 2)} | ${round(bytes / MB / run.seconds, 0)} | ${round(run.rssBefore / MB, 0)} | ${round(growth(run), 1)} |`;

const benchmark: Benchmark = {
  name: 'archive',
  async run({ log, quick }) {
    const adminUrl = process.env.BENCH_DATABASE_URL;
    if (!adminUrl) throw new Error('Set BENCH_DATABASE_URL to the benchmarks PostgreSQL (an admin URL)');
    const url = await prepareArchiveDatabase(adminUrl, log);
    const db = createDb(url, { poolSize: 2 });
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'archive-bench-'));
    const keyPem = generateKeyPairSync('ed25519')
      .privateKey.export({ type: 'pkcs8', format: 'pem' })
      .toString();
    const config = testConfig({ dataDir, archiveSigningKey: keyPem });
    const storage = createStorage(config, systemClock);
    const deps = { config, db, clock: systemClock, storage } as unknown as Parameters<typeof archiveKeyOf>[0];
    /** A step in a fresh process: its RSS is its own, not this process's heap of generated PDFs. */
    const inChild = async (args: string[]): Promise<Measured> => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', CHILD, url, dataDir, keyPem, ...args],
        { cwd: PROJECT_ROOT, maxBuffer: 1024 * 1024 },
      );
      return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measured;
    };
    const loadBefore = os.loadavg()[0] ?? 0;
    try {
      const documents = quick ? 8 : DOCUMENTS;
      log(`writing ${documents} PDFs of ${BYTES_EACH / MB} MB into storage`);
      const file = await archiveFile(db, storage, { documents, bytesEach: BYTES_EACH });
      await archiveKeyOf(deps);

      const copies: Measured[] = [];
      const seals: Measured[] = [];
      let sealedKey = '';
      let zipBytes = 0;
      for (let round_ = 0; round_ < (quick ? 1 : 2); round_++) {
        copies.push(await inChild(['copy', ...file.keys]));
        log(`copy ${round_ + 1}: ${round(copies.at(-1)?.seconds ?? 0, 2)} s`);
        const closedAt = new Date(Date.UTC(2026, 11, 1, 12, round_));
        await db.transaction.update({ where: { id: file.transactionId }, data: { closedAt } });
        seals.push(await inChild(['seal', file.transactionId, closedAt.toISOString()]));
        const archive = await db.transactionArchive.findUniqueOrThrow({
          where: { transactionId_closedAt: { transactionId: file.transactionId, closedAt } },
        });
        sealedKey = archive.storageKey ?? '';
        zipBytes = Number(archive.bytes);
        log(
          `seal ${round_ + 1}: ${round(seals.at(-1)?.seconds ?? 0, 2)} s, ${round(zipBytes / MB, 0)} MB zip`,
        );
      }
      const zipPath = path.join(dataDir, 'uploads', sealedKey);
      let verdict: Awaited<ReturnType<typeof verifyArchive>> | undefined;
      const verified = await measure(async () => {
        verdict = await verifyArchive(zipPath, (await archiveKeyOf(deps)).publicKeyPem);
      });
      if (!verdict?.valid) throw new Error(`the sealed archive did not verify: ${JSON.stringify(verdict)}`);
      // file.pdf bound by pdf-lib in memory, no cap, over a quarter of the file: why qpdf binds it.
      const uncappedDocs = Math.max(1, Math.floor(documents / 4));
      const some = file.keys.slice(0, uncappedDocs).map((key, i) => ({
        path: `documents/${i}.pdf`,
        title: `Document ${i + 1}`,
        key,
        contentType: 'application/pdf',
        size: BYTES_EACH,
      }));
      const uncapped = await measure(() => filePdf(storage, 'Bench', some, Number.POSITIVE_INFINITY));

      const worstSeal = Math.max(...seals.map((run) => run.seconds));
      const worstGrowth = Math.max(...seals.map(growth));
      const bestCopy = Math.min(...copies.map((run) => run.seconds));
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const totalMb = round(file.totalBytes / MB, 0);
      const goals: Goal[] = [
        {
          name: `Seal an archive of ${documents} documents (${totalMb} MB)`,
          goal: `<= ${GOAL_S} s`,
          baseline: `the same bytes copied through storage: ${round(bestCopy, 2)} s at best`,
          measured: `${round(worstSeal, 2)} s at worst (${round(worstSeal / bestCopy, 1)}x the copy)`,
          met: worstSeal <= GOAL_S,
          figures: [{ value: worstSeal, threshold: GOAL_S, unit: 's', better: 'lower' }],
        },
        {
          name: `RSS growth while sealing ${totalMb} MB`,
          goal: `< ${GOAL_RSS_MB} MB`,
          baseline: `RSS before each seal (${round(Math.min(...seals.map((r) => r.rssBefore)) / MB, 0)} MB at least)`,
          measured: `${round(worstGrowth, 1)} MB at worst`,
          met: worstGrowth < GOAL_RSS_MB,
          figures: [{ value: worstGrowth, threshold: GOAL_RSS_MB, unit: 'MB', better: 'lower' }],
        },
      ];
      const markdown = [
        '## Archive sealing',
        '',
        `Command: \`${COMMAND}\` (bench/archive.bench.ts).`,
        '',
        `One closed file of ${documents} accepted PDFs of ${BYTES_EACH / MB} MB (${totalMb} MB; incompressible, so stored as read) in local storage. sealArchive (the archives:seal job) streams each into the zip while hashing it, binds file.pdf of every document with qpdf from files on disk (a separate process, whose own memory these figures leave out; the portal's RSS is what the goal bounds), adds audit.json, audit.csv and the signed manifest; the zip (${round(zipBytes / MB, 0)} MB) streams into storage. Baseline: the same files opened and put again through storage. Copies and seals each run in a fresh process (bench/lib/archive-child.ts), so RSS growth is the step's own; verify and the uncapped file.pdf run in the benchmark's process.`,
        '',
        '| Run | Seconds | MB/s | RSS before (MB) | RSS growth (MB) |',
        '| --- | ---: | ---: | ---: | ---: |',
        ...copies.map((run, i) => row(`copy ${i + 1} (baseline)`, run, file.totalBytes)),
        ...seals.map((run, i) => row(`seal ${i + 1}`, run, file.totalBytes)),
        row('verify the zip (server/archive/verify.ts)', verified, zipBytes),
        row(`file.pdf of ${uncappedDocs} documents, no cap (pdf-lib)`, uncapped, uncappedDocs * BYTES_EACH),
        '',
        `pdf-lib holds every document it binds and the whole output in memory: ${uncappedDocs} documents (${round((uncappedDocs * BYTES_EACH) / MB, 0)} MB) grew RSS by ${round(growth(uncapped), 0)} MB, so all ${totalMb} MB would break the memory goal: qpdf binds file.pdf, and where it is not installed the in-memory fallback binds at most 16 MiB of documents (FILE_PDF_MAX_BYTES) and lists the rest.`,
        '',
        machineLine(loadNote),
        ...gapLines(goals),
      ].join('\n');
      return { markdown, goals };
    } finally {
      await db.$disconnect();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
