import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { looksBlank } from '../server/documents/images';
import { inspectDocument, inspectPdf, loadPdf } from '../server/documents/pdf';
import {
  buildServerBundle,
  type ServerProcess,
  startBuiltServer,
  startPortalStack,
  stopBuiltServer,
} from '../server/test/built-server';
import {
  AGENT_PASSWORD,
  createAgents,
  expectStatus,
  openTransaction,
  type SignedIn,
  signIn,
  timedCall,
} from '../server/test/rest-client';
import { alternate } from './lib/ab';
import type { Benchmark, Goal } from './lib/benchmark';
import { cpuMs, mib, rssBytes, rssGrowthGoal, sampleRss } from './lib/process-usage';
import { gapLines, loadNoteOf, machineLine } from './lib/report';
import { median, round } from './lib/stats';

/**
 * A 30-page packet of 25 MB splits in under 3 s, and the server's
 * RSS grows by less than 100 MB while it does. The built server in its own process; the packet is
 * uploaded (POST /api/uploads/transactions/:id), then cut into 3 documents of 10 pages each
 * (POST /api/transactions/:id/split), alternated round by round with an upload of the same packet
 * to the same server: the baseline, since an upload reads, parses and pre-checks the same bytes.
 */

const COMMAND = 'npm run bench -- intake';
const PAGES = 30;
const PARTS = ['1-10', '11-20', '21-30'];
const SPLIT_GOAL_MS = 3000;
const RSS_GROWTH_GOAL_MIB = 100;
/** A scan at about 240 dpi of a Letter page. */
const SCAN = { width: 2000, height: 2600 };
/** Paper texture: each pixel's brightness varies this much around the sheet's (what makes the JPEGs big). */
const GRAIN = 9;
const JPEG_QUALITY = 92;
const LETTER = { width: 612, height: 792 };
const REQUEST_TIMEOUT_MS = 120_000;

/**
 * One scanned-looking page: a light sheet with grain, 40 lines of "words" (dark rectangles of
 * random widths), as a greyscale JPEG. Deterministic per page number.
 */
async function scannedPage(pageNumber: number): Promise<Buffer> {
  const { width, height } = SCAN;
  const pixels = Buffer.alloc(width * height);
  let state = (pageNumber * 2654435761) >>> 0;
  const next = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state;
  };
  for (let i = 0; i < pixels.length; i += 1) pixels[i] = 235 + ((next() >>> 24) % GRAIN) - (GRAIN >> 1);
  for (let line = 0; line < 40; line += 1) {
    const top = 200 + line * 55;
    for (let x = 150; x < 1800; ) {
      const word = 30 + ((next() >>> 20) % 120);
      for (let y = top; y < top + 22; y += 1)
        pixels.fill(40, y * width + x, y * width + Math.min(x + word, 1850));
      x += word + 18;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 1 } })
    .jpeg({ quality: JPEG_QUALITY })
    .toBuffer();
}

/**
 * The packet: 30 scanned pages, each a JPEG drawn over the whole Letter page; the first page of
 * each document also carries its title as text (what the upload's suggestions read), so 27 pages
 * are one image alone, which the blank-page pre-check decodes.
 */
async function makePacket(titles: readonly string[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let number = 1; number <= PAGES; number += 1) {
    const image = await doc.embedJpg(await scannedPage(number));
    const page = doc.addPage([LETTER.width, LETTER.height]);
    page.drawImage(image, { x: 0, y: 0, width: LETTER.width, height: LETTER.height });
    const title = (number - 1) % 10 === 0 ? titles[(number - 1) / 10] : undefined;
    if (title) page.drawText(title, { x: 54, y: LETTER.height - 48, size: 18, font, color: rgb(0, 0, 0) });
  }
  return Buffer.from(await doc.save());
}

type Measured = {
  ms: number;
  serverCpuMs: number;
  rssBefore: number;
  rssPeak: number;
};

/** A request timed from send to the end of its answer, the server's RSS sampled every 20 ms. */
async function measured<T>(serverPid: number, call: () => Promise<T>): Promise<Measured & { answer: T }> {
  const rssBefore = await rssBytes(serverPid);
  const cpuBefore = await cpuMs(serverPid);
  const sampler = sampleRss(serverPid, 20);
  const began = performance.now();
  let answer: T;
  try {
    answer = await call();
  } catch (error) {
    await sampler.stop().catch(() => {}); // the server may be gone: the call's error says more
    throw error;
  }
  const ms = performance.now() - began;
  const serverCpuMs = (await cpuMs(serverPid)) - cpuBefore;
  const samples = await sampler.stop();
  return { answer, ms, serverCpuMs, rssBefore, rssPeak: Math.max(...samples) };
}

type Upload = Measured & { key: string };

async function uploadPacket(
  baseUrl: string,
  serverPid: number,
  agent: SignedIn,
  transactionId: string,
  packet: Blob,
): Promise<Upload> {
  const form = new FormData();
  form.append('file', packet, 'scanned-packet.pdf');
  const done = await measured(serverPid, () =>
    expectStatus(
      timedCall(baseUrl, 'POST', `/api/uploads/transactions/${transactionId}`, {
        token: agent.token,
        form,
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      201,
    ),
  );
  const stored = done.answer as { key: string; pages: number | null; size: number };
  if (stored.pages !== PAGES) throw new Error(`the upload read ${stored.pages} pages, not ${PAGES}`);
  if (stored.size !== packet.size) throw new Error(`stored ${stored.size} bytes, sent ${packet.size}`);
  return { ...done, key: stored.key };
}

type FormState = { _id: string; version: number; pages: number | null };

async function splitPacket(
  baseUrl: string,
  serverPid: number,
  agent: SignedIn,
  transactionId: string,
  key: string,
  formIds: readonly string[],
  expectedVersion: number,
): Promise<Measured> {
  const done = await measured(serverPid, () =>
    expectStatus(
      timedCall(baseUrl, 'POST', `/api/transactions/${transactionId}/split`, {
        token: agent.token,
        json: { key, parts: PARTS.map((pages, i) => ({ formId: formIds[i], pages })) },
        timeoutMs: REQUEST_TIMEOUT_MS,
      }),
      200,
    ),
  );
  // Each item got a new version of 10 pages: the split did happen, whole.
  const forms = (done.answer as { forms: FormState[] }).forms;
  for (const formId of formIds) {
    const form = forms.find((candidate) => candidate._id === formId);
    if (form?.version !== expectedVersion || form.pages !== 10)
      throw new Error(`after the split, item ${formId} is ${JSON.stringify(form)}`);
  }
  return done;
}

/** Wall and CPU ms of one step (CPU: this whole process, libvips' threads included). */
type Cost = { ms: number; cpuMs: number };
const STEPS = [
  'load',
  'copyPages',
  'save',
  'inspect',
  'blankChecks',
  'hashAndWrite',
  'inspectPacket',
] as const;
type Profile = Record<(typeof STEPS)[number], Cost> & { partBytes: number[] };

async function timed<T>(cost: Cost, step: () => Promise<T>): Promise<T> {
  const cpuBefore = process.cpuUsage();
  const began = performance.now();
  const value = await step();
  cost.ms += performance.now() - began;
  const cpu = process.cpuUsage(cpuBefore);
  cost.cpuMs += (cpu.user + cpu.system) / 1000;
  return value;
}

/**
 * The split's steps one by one, in the benchmark's process, with the server's own code (pdf-lib
 * and sharp as server/documents uses them): where the time of a split goes.
 */
async function profileSplit(packet: Buffer, scratch: string, jpegs: readonly Buffer[]): Promise<Profile> {
  const profile = {
    ...Object.fromEntries(STEPS.map((step) => [step, { ms: 0, cpuMs: 0 }])),
    partBytes: [],
  } as unknown as Profile;
  const doc = await timed(profile.load, () => loadPdf(packet));
  for (const [index, range] of PARTS.entries()) {
    const [first = 1, last = 1] = range.split('-').map(Number);
    const part = await PDFDocument.create({ updateMetadata: false });
    const copied = await timed(profile.copyPages, () =>
      part.copyPages(
        doc,
        Array.from({ length: last - first + 1 }, (_, i) => first - 1 + i),
      ),
    );
    for (const page of copied) part.addPage(page);
    // As splitPdf does: the part's facts from the document in memory, its blank pages carried over
    // from the packet's upload (none here: every page has print on it).
    const facts = await timed(profile.inspect, () => inspectDocument(part, { blankPages: [] }));
    const bytes = await timed(profile.save, () => part.save({ useObjectStreams: true }));
    profile.partBytes.push(bytes.length);
    if (facts.kind !== 'pdf' || facts.pages !== 10)
      throw new Error(`part ${index + 1}: ${JSON.stringify(facts)}`);
    await timed(profile.hashAndWrite, async () => {
      createHash('sha256').update(bytes).digest('hex');
      await writeFile(path.join(scratch, `part-${index + 1}.pdf`), bytes);
    });
  }
  // The blank check alone, as the upload's inspectPdf runs it on each page that is one JPEG (27 of
  // the 30: the title pages paint text too): what a split saves by carrying the packet's answer.
  await timed(profile.blankChecks, async () => {
    for (const [i, jpeg] of jpegs.entries()) if (i % 10 !== 0) await looksBlank(jpeg);
  });
  await timed(profile.inspectPacket, () => inspectPdf(packet));
  return profile;
}

const intakeBench: Benchmark = {
  name: 'intake',
  async run({ log, quick }) {
    const rounds = quick ? 3 : 5;
    log('building dist/server/main.js');
    await buildServerBundle();
    const stack = await startPortalStack();
    const scratch = await mkdtemp(path.join(os.tmpdir(), 'intake-bench-'));
    let restarted: ServerProcess | undefined;
    try {
      const { baseUrl } = stack.server;
      const serverPid = stack.server.child.pid;
      if (!serverPid) throw new Error('the server has no pid');
      const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
      const [agent] = await createAgents(baseUrl, owner, 1, 'intake');
      if (!agent) throw new Error('no agent');
      const deal = (await openTransaction(baseUrl, agent.token, {
        streetAddress: '22 Packet Lane',
      })) as { _id: string; forms: Array<{ _id: string; label: string }> };
      if (deal.forms.length < PARTS.length)
        throw new Error(`the template has ${deal.forms.length} items; the split needs ${PARTS.length}`);
      const items = deal.forms.slice(0, PARTS.length);
      const formIds = items.map((item) => item._id);

      log('generating the 30-page scanned packet');
      const jpegs = await Promise.all(Array.from({ length: PAGES }, (_, i) => scannedPage(i + 1)));
      const packet = await makePacket(items.map((item) => item.label));
      // Made once: every upload sends these same bytes.
      const packetBlob = new Blob([new Uint8Array(packet)], { type: 'application/pdf' });
      const jpegBytes = jpegs.map((jpeg) => jpeg.length);
      log(`packet: ${(packet.length / 1e6).toFixed(1)} MB, ${PAGES} pages`);

      // The first upload and split on the fresh server: not counted in the times (code is loaded
      // and compiled), but its RSS counts, since the heap is then at its smallest.
      const idleRss = await rssBytes(serverPid);
      const coldUpload = await uploadPacket(baseUrl, serverPid, agent, deal._id, packetBlob);
      const coldSplit = await splitPacket(baseUrl, serverPid, agent, deal._id, coldUpload.key, formIds, 1);
      log(`cold upload and split: ${round(coldUpload.ms, 0)} ms, ${round(coldSplit.ms, 0)} ms`);

      const loadBefore = os.loadavg()[0] ?? Number.NaN;
      const uploads: Upload[] = [];
      const splits: Measured[] = [];
      const ab = await alternate(
        rounds,
        async () => {
          const done = await uploadPacket(baseUrl, serverPid, agent, deal._id, packetBlob);
          uploads.push(done);
          return done.ms;
        },
        async () => {
          // The packet uploaded last (the cold one in the first round, when the split goes first).
          const key = uploads.at(-1)?.key ?? coldUpload.key;
          const done = await splitPacket(
            baseUrl,
            serverPid,
            agent,
            deal._id,
            key,
            formIds,
            splits.length + 2,
          );
          splits.push(done);
          log(`split ${splits.length}/${rounds}: ${round(done.ms, 0)} ms`);
          return done.ms;
        },
      );
      const loadAfter = os.loadavg()[0] ?? Number.NaN;
      const loadNote = loadNoteOf(loadBefore, loadAfter);

      // A packet uploaded before the server last started, split by a fresh process: the split's own
      // memory, with none of an upload's left in the process to reuse. The same database and files.
      const restartedSplits: Array<Measured & { idleRss: number }> = [];
      for (let i = 0; i < (quick ? 1 : 3); i += 1) {
        await stopBuiltServer(restarted ?? stack.server);
        restarted = await startBuiltServer(
          {
            DATABASE_URL: stack.databaseUrl,
            JWT_SECRET: 'intake-bench-restart-secret-with-enough-length-0123456789',
            ADMIN_EMAIL: stack.owner.email,
            ADMIN_PASSWORD: stack.owner.password,
            SEED_DEMO: 'false',
            LOG_LEVEL: 'warn',
          },
          stack.dataDir,
        );
        const pid = restarted.child.pid;
        if (!pid) throw new Error('the restarted server has no pid');
        const again = await signIn(restarted.baseUrl, agent.email, AGENT_PASSWORD);
        const idle = await rssBytes(pid);
        const key = uploads.at(-1)?.key ?? coldUpload.key;
        const version = splits.length + restartedSplits.length + 2;
        const done = await splitPacket(restarted.baseUrl, pid, again, deal._id, key, formIds, version);
        restartedSplits.push({ ...done, idleRss: idle });
        log(`split on a restarted server ${i + 1}: ${round(done.ms, 0)} ms`);
      }

      log('profiling the steps in this process');
      const profiles: Profile[] = [];
      for (let i = 0; i < 3; i += 1) profiles.push(await profileSplit(packet, scratch, jpegs));
      const step = (name: (typeof STEPS)[number]): Cost => ({
        ms: median(profiles.map((p) => p[name].ms)),
        cpuMs: median(profiles.map((p) => p[name].cpuMs)),
      });
      const splitSteps = ['load', 'copyPages', 'save', 'inspect', 'hashAndWrite'] as const;
      const total: Cost = {
        ms: splitSteps.reduce((sum, name) => sum + step(name).ms, 0),
        cpuMs: splitSteps.reduce((sum, name) => sum + step(name).cpuMs, 0),
      };
      const partBytes = profiles[0]?.partBytes ?? [];

      const splitMedian = ab.candidateMedian;
      const splitWorst = Math.max(...ab.candidate);
      const uploadWorst = Math.max(...ab.baseline);
      const splitCpu = median(splits.map((s) => s.serverCpuMs));
      const uploadCpu = median(uploads.map((u) => u.serverCpuMs));
      const timeMet = splitMedian < SPLIT_GOAL_MS;
      const rss = rssGrowthGoal(
        'Split a 30-page 25 MB packet: server RSS growth',
        RSS_GROWTH_GOAL_MIB,
        [coldSplit, ...splits, ...restartedSplits],
        'split, those on a fresh server included',
      );
      const growthOf = (run: Measured) => mib(run.rssPeak - run.rssBefore);
      if (!rss.goal.met) {
        const restartedGrowth = restartedSplits.map((split) => round(growthOf(split), 0)).join(', ');
        rss.goal.gap = `on a server restarted since the packet was uploaded, a split grows its RSS by ${restartedGrowth} MiB; right after an upload it reuses the memory the upload left (median ${round(median(splits.map(growthOf)), 1)} MiB). A split holds the packet (one buffer of its stored size), pdf-lib's copy of its streams, and one part at a time: its copied pages and its saved bytes, freed only when V8 collects. Plan: write each part to storage as pdf-lib saves it, and drop the packet's buffer once pdf-lib has parsed it.`;
      }
      const uploadGrowth = uploads.map(growthOf);
      const packetMb = round(packet.length / 1e6, 1);
      const blank = step('blankChecks');
      const inspect = step('inspect');
      const share = (part: number, whole: number) => `${Math.round((100 * part) / whole)}%`;
      const goals: Goal[] = [
        {
          name: 'Split a 30-page 25 MB packet into 3 documents: time',
          goal: `< ${SPLIT_GOAL_MS / 1000} s (median)`,
          baseline: `upload of the same packet to the same server: median ${round(ab.baselineMedian, 0)} ms`,
          measured: `median ${round(splitMedian, 0)} ms, worst ${round(splitWorst, 0)} ms (ratio ${round(ab.ratio, 2)} to the upload; server CPU ${round(splitCpu, 0)} ms)`,
          met: timeMet,
          figures: [{ value: splitMedian, threshold: SPLIT_GOAL_MS, unit: 'ms', better: 'lower' }],
          ...(timeMet
            ? {}
            : {
                gap: `a split costs the server ${round(splitCpu, 0)} ms of CPU (median; the upload of the same packet ${round(uploadCpu, 0)} ms) and took ${round(splitMedian, 0)} ms of wall time on 2 cores shared with other work (${loadNote}). Of the steps measured here (${round(total.cpuMs, 0)} ms of CPU), saving the parts took ${round(step('save').cpuMs, 0)} ms (${share(step('save').cpuMs, total.cpuMs)}) and their pre-check ${round(inspect.cpuMs, 0)} ms. Plan: save the parts without object streams (less to compress), then profile again.`,
              }),
        },
        rss.goal,
      ];

      const row = (label: string, cost: Cost, note: string) =>
        `| ${label} | ${round(cost.ms, 0)} | ${round(cost.cpuMs, 0)} | ${note} |`;
      const roundRow = (label: string, split: Measured, upload: Measured | undefined) =>
        `| ${label} | ${round(split.ms, 0)} | ${round(upload?.ms ?? Number.NaN, 0)} | ${round(split.serverCpuMs, 0)} | ${round(upload?.serverCpuMs ?? Number.NaN, 0)} | ${round(mib(split.rssBefore), 1)} | ${round(mib(split.rssPeak), 1)} | ${round(growthOf(split), 1)} | ${upload ? round(growthOf(upload), 1) : 'n/a'} |`;
      const markdown = [
        '## Splitting a 30-page, 25 MB scanned packet',
        '',
        `Command: \`${COMMAND}\` (bench/intake.bench.ts).`,
        '',
        `What: a packet of ${PAGES} scanned pages, ${packetMb} MB (${(packet.length / 2 ** 20).toFixed(1)} MiB, under the default MAX_UPLOAD_MB of 25):`,
        `each page a greyscale JPEG of ${SCAN.width} x ${SCAN.height} px (a sheet with paper grain and 40 lines of dark "words",`,
        `quality ${JPEG_QUALITY}, median ${round(median(jpegBytes) / 1000, 0)} kB) drawn over the whole Letter page with pdf-lib, and the`,
        'first page of each document titled in text with its checklist item. It is uploaded by an agent to their',
        'transaction (POST /api/uploads/transactions/:id) on the built server (its own process, NODE_ENV=production,',
        'default settings, local storage), then cut into 3 documents of 10 pages each, one per checklist item',
        `(POST /api/transactions/:id/split, parts ${PARTS.join(', ')}): the time runs from sending the request to the end of`,
        "its 200 answer, which comes after the parts are written, pre-checked and attached. The server's RSS",
        '(/proc/<pid>/status VmRSS) is sampled every 20 ms; growth = highest sample - the reading just before the request.',
        'CPU ms is what the server process spent on the CPU meanwhile (/proc/<pid>/stat, all its threads):',
        'unlike wall time, it does not depend on what else the shared machine runs.',
        '',
        'Baseline, alternated round by round on the same server: the upload of the same packet. It reads the same',
        '25 MB and does the same kind of work (pdf-lib parses the packet, sharp decodes each scanned page for the',
        "blank-page check, pdf.js reads the first 3 pages' text in a worker), so the ratio says what a split costs",
        "in uploads of its packet; a plain pdf-lib load + save in the benchmark's process would leave out the",
        'pre-checks, which are most of the work (see the steps below). The upload times are the figures of the upload too.',
        `${rounds} rounds each, after a first upload and split on the fresh server (idle RSS ${round(mib(idleRss), 0)} MiB), shown apart:`,
        'not counted in the times, counted in the RSS goal; and, last, splits of the stored packet each by a server',
        'restarted on the same database and files (a packet uploaded before the process started, so none of an',
        "upload's memory is there to reuse): counted in the RSS goal; their times, the first request of a process, are not.",
        '',
        '| Round | split ms | upload ms | server CPU ms (split) | server CPU ms (upload) | RSS before split MiB | RSS peak MiB | split growth MiB | upload growth MiB |',
        '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        roundRow('first (fresh server)', coldSplit, coldUpload),
        ...splits.map((split, i) => roundRow(String(i + 1), split, uploads[i])),
        ...restartedSplits.map((split, i) => roundRow(`restarted server ${i + 1}`, split, undefined)),
        `| **median** | **${round(splitMedian, 0)}** | **${round(ab.baselineMedian, 0)}** | **${round(splitCpu, 0)}** | **${round(uploadCpu, 0)}** | | | **${round(median(splits.map(growthOf)), 1)}** | **${round(median(uploadGrowth), 1)}** |`,
        `| **worst** | **${round(splitWorst, 0)}** | **${round(uploadWorst, 0)}** | | | | | **${round(rss.worstGrowth, 1)}** | **${round(Math.max(...uploadGrowth, growthOf(coldUpload)), 1)}** |`,
        '',
        `Split: median **${round(splitMedian, 0)} ms**, worst ${round(splitWorst, 0)} ms (goal < ${SPLIT_GOAL_MS} ms: ${timeMet ? 'met' : '**not met**'}); ${round(ab.ratio, 2)} times the upload of the packet (median ${round(ab.baselineMedian, 0)} ms, worst ${round(uploadWorst, 0)} ms).`,
        `RSS growth during a split at worst: **${round(rss.worstGrowth, 1)} MiB** (goal < ${RSS_GROWTH_GOAL_MIB} MB: ${rss.goal.met ? 'met' : '**not met**'}).`,
        `The first upload on the fresh server grows its RSS from ${round(mib(idleRss), 0)} to ${round(mib(coldUpload.rssPeak), 0)} MiB: an upload keeps the PDF in memory for its`,
        'pre-checks (at most MAX_UPLOAD_MB), and the process keeps the memory for the next one.',
        '',
        "Where a split's time goes: its steps one by one in the benchmark's process, with the server's code",
        '(server/documents: loadPdf, copyPages, inspectDocument and save as splitPdf does them),',
        `median of ${profiles.length} runs, one after the other (the server does the same, one part after another).`,
        '',
        '| Step | ms | CPU ms | |',
        '| --- | ---: | ---: | --- |',
        row('load the packet (pdf-lib)', step('load'), `${packetMb} MB`),
        row('copyPages, 3 parts', step('copyPages'), ''),
        row(
          'save, 3 parts',
          step('save'),
          `parts of ${partBytes.map((bytes) => round(bytes / 1e6, 1)).join(', ')} MB`,
        ),
        row(
          'pre-check, 3 parts (inspectDocument)',
          inspect,
          "signature fields counted in memory; blank pages carried over from the packet's upload",
        ),
        row(
          'not done: the blank checks again (sharp)',
          blank,
          "27 pages decoded again, as the split did before it carried the packet's answer over; not in the total",
        ),
        row('sha256 and write, 3 parts', step('hashAndWrite'), 'to the local disk'),
        row('**total**', total, 'without HTTP, reading the packet from storage, the database'),
        row(
          'for comparison: inspectPdf of the packet',
          step('inspectPacket'),
          "the PDF part of the upload's pre-checks",
        ),
        '',
        machineLine(loadNote),
        ...gapLines(goals),
      ].join('\n');
      return { markdown, goals };
    } catch (error) {
      const server = restarted ?? stack.server;
      if (!server.isRunning())
        throw new Error(
          `the server exited (${JSON.stringify(await server.exited)}):\n${server.output().slice(-4000)}`,
          { cause: error },
        );
      throw error;
    } finally {
      if (restarted) await stopBuiltServer(restarted);
      await rm(scratch, { recursive: true, force: true });
      await stack.close();
    }
  },
};

export default intakeBench;
