import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { PROJECT_ROOT } from '../server/paths';
import type { CertificateFacts, PlacedValue } from '../server/services/esign/pdf';
import type { Benchmark, Goal } from './lib/benchmark';
import { mib, rssBytes, rssGrowthGoal, sampleRss } from './lib/process-usage';
import { gapLines, loadNoteOf, machineLine } from './lib/report';
import { median, percentile, round } from './lib/stats';

/**
 * Completing an e-signature request on a 30-page, 25 MB document with 20 fields: the values
 * drawn, the certificate page appended, the whole file signed (server/services/esign/pdf.ts,
 * signedDocument). p95 <= 3 s, and the process's RSS grows by less than 100 MB while it runs.
 * Against pdf-lib's load and save of the same document, alternated with it in the same process:
 * the least any change of the document costs. The completions run in a process of their own
 * (bench/lib/esign-completions.ts) whose RSS is read from /proc while each runs. No dataset.
 */

const COMMAND = 'npm run bench -- esign';
const PAGES = 30;
const FIELDS = 20;
const P95_GOAL_MS = 3000;
const RSS_GROWTH_GOAL_MIB = 100;
/** Noise compresses badly, so each page's scan is about 0.85 MB: 25 MB in all. */
const SCAN = { width: 1360, height: 1000, quality: 80 } as const;

async function documentOf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let number = 1; number <= PAGES; number += 1) {
    const { width, height, quality } = SCAN;
    const noise = randomBytes(width * height * 3);
    const jpeg = await sharp(noise, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
    const page = doc.addPage([612, 792]);
    page.drawImage(await doc.embedJpg(jpeg), { x: 36, y: 60, width: 540, height: 700 });
    page.drawText(`Residential purchase agreement, page ${number} of ${PAGES}`, {
      x: 36,
      y: 30,
      size: 9,
      font,
    });
  }
  return doc.save();
}

/** A signature as a browser's canvas sends it: a 600x200 PNG. */
async function signaturePng(): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><path d="M20 150 C 120 20, 200 180, 300 90 S 480 40, 580 140" stroke="#123" stroke-width="6" fill="none"/></svg>`;
  const png = await sharp(Buffer.from(svg)).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

async function inputOf(): Promise<{ values: PlacedValue[]; certificate: CertificateFacts }> {
  const png = await signaturePng();
  const kinds: PlacedValue['kind'][] = ['signature', 'initials', 'date', 'text'];
  const values = Array.from({ length: FIELDS }, (_, index): PlacedValue => {
    const kind = kinds[index % kinds.length] ?? 'text';
    const drawn = kind === 'signature' || kind === 'initials';
    return {
      page: 1 + Math.floor((index * PAGES) / FIELDS),
      kind,
      x: 72,
      y: 600 + (index % 3) * 40,
      width: kind === 'initials' ? 60 : 200,
      height: 32,
      value: drawn ? png : kind === 'date' ? 'December 3, 2026' : 'Subject to inspection by March 1',
    };
  });
  const at = new Date('2026-12-03T15:00:00Z');
  const certificate: CertificateFacts = {
    subject: '1200 Harbor Lane: residential purchase agreement',
    documentSha256: 'a'.repeat(64),
    completedAt: at,
    timeZone: 'America/Chicago',
    signers: ['Dana Buyer', 'Sam Buyer', 'Lee Seller', 'Kim Seller'].map((name, index) => ({
      name,
      email: `${name.toLowerCase().replace(' ', '.')}@example.com`,
      ip: `203.0.113.${10 + index}`,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 Safari/604.1',
      viewedAt: at,
      signedAt: at,
    })),
  };
  return { values, certificate };
}

type Step = { ms: number; bytes: number; rssBefore: number; rssPeak: number };

function completionsProcess(args: string[]): { child: ChildProcessWithoutNullStreams; lines: Interface } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/lib/esign-completions.ts', ...args], {
    cwd: PROJECT_ROOT,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  return { child, lines: createInterface({ input: child.stdout }) };
}

const ms = (value: number) => round(value, 0);

const benchmark: Benchmark = {
  name: 'esign',
  async run({ log, quick }) {
    const loadBefore = os.loadavg()[0] ?? 0;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'esign-bench-'));
    const pdfFile = path.join(dir, 'document.pdf');
    const inputFile = path.join(dir, 'input.json');
    log(`making a ${PAGES}-page document of scans`);
    const pdf = await documentOf();
    await writeFile(pdfFile, pdf);
    await writeFile(inputFile, JSON.stringify(await inputOf()));
    const { child, lines } = completionsProcess([pdfFile, inputFile, path.join(dir, 'data')]);
    const replies = lines[Symbol.asyncIterator]();
    const reply = async () => {
      const next = await replies.next();
      if (next.done) throw new Error('the completions process ended early');
      return JSON.parse(next.value) as { ms: number; bytes: number };
    };
    const pid = child.pid ?? 0;
    const growthOf = (s: Step) => round(mib(s.rssPeak - s.rssBefore), 1);
    const step = async (name: 'small' | 'baseline' | 'sign'): Promise<Step> => {
      const rssBefore = await rssBytes(pid);
      const sampler = sampleRss(pid, 10);
      child.stdin.write(`${name}\n`);
      const done = await reply();
      return { ...done, rssBefore, rssPeak: Math.max(...(await sampler.stop())) };
    };
    try {
      await reply();
      // The first completion of this document, in a process that holds it and has completed a
      // one-page document (its code loaded, as in a running server): the growth an instance pays
      // before V8's heap and malloc's arenas hold room for such a document.
      await step('small');
      const idleRss = await rssBytes(pid);
      const cold = await step('sign');
      const rounds = quick ? 5 : 20;
      log('warming up');
      for (let i = 0; i < 2; i++) {
        await step('baseline');
        await step('sign');
      }
      const baseline: Step[] = [];
      const signed: Step[] = [];
      log(`${rounds} rounds, each a load+save and a completion, alternately first`);
      for (let i = 0; i < rounds; i++) {
        if (i % 2 === 0) {
          baseline.push(await step('baseline'));
          signed.push(await step('sign'));
        } else {
          signed.push(await step('sign'));
          baseline.push(await step('baseline'));
        }
      }
      const signMs = signed.map((s) => s.ms);
      const baseMs = baseline.map((s) => s.ms);
      const p95 = percentile(signMs, 95);
      const ratio = median(signMs) / median(baseMs);
      log(`completion p95 ${ms(p95)} ms (p50 ${ms(median(signMs))}), load+save p50 ${ms(median(baseMs))} ms`);
      const loadNote = loadNoteOf(loadBefore, os.loadavg()[0] ?? 0);
      const size = `${round(mib(pdf.length), 1)} MiB`;
      const time: Goal = {
        name: `Completing a ${PAGES}-page, ${size} document with ${FIELDS} fields: p95 of signedDocument`,
        goal: `<= ${P95_GOAL_MS} ms`,
        baseline: `pdf-lib load + save of the same document, alternated in the same process: p50 ${ms(median(baseMs))} ms, p95 ${ms(percentile(baseMs, 95))} ms`,
        measured: `p95 ${ms(p95)} ms (p50 ${ms(median(signMs))} ms; ${round(ratio, 2)}x the load + save at the median)`,
        met: p95 <= P95_GOAL_MS,
        figures: [{ value: p95, threshold: P95_GOAL_MS, unit: 'ms', better: 'lower' }],
        ...(p95 <= P95_GOAL_MS ? {} : { gap: `on 2 shared cores (${loadNote}); see the rounds.` }),
      };
      const rss = rssGrowthGoal(
        `Completing the ${size} document: RSS growth of the process`,
        RSS_GROWTH_GOAL_MIB,
        [cold, ...signed],
        'completion',
      );
      if (!rss.goal.met) {
        rss.goal.gap = `the first completion of this document grows the process's RSS by ${growthOf(cold)} MiB (later ones reuse that room: ${round(median(signed.map((s) => mib(s.rssPeak - s.rssBefore))), 1)} MiB at the median). At its peak a completion holds the document three times: the input, pdf-lib's parse and the saved file (signed in place, not copied again), with the V8 heap of pdf-lib's objects. Plan: load the input without keeping a second copy of its streams.`;
      }
      const goals = [time, rss.goal];
      const markdown = [
        '## Completing an e-signature: values, certificate page, PDF signature',
        '',
        `Command: \`${COMMAND}\` (bench/esign.bench.ts). No dataset.`,
        '',
        `A ${PAGES}-page document of ${size} (a ${SCAN.width}x${SCAN.height} JPEG scan on each page), ${FIELDS} fields (signatures and initials as 600x200 PNGs, dates, texts) on its pages, 4 signers on the certificate page, the self-signed identity. signedDocument in a process of its own (bench/lib/esign-completions.ts), one step at a time, alternated with pdf-lib's load and save of the same document (the baseline); its RSS read from /proc every 10 ms while each step runs. ${rounds} rounds after 2 warm-up rounds.`,
        '',
        '| Round | completion ms | load + save ms | RSS before MiB | RSS peak MiB | growth MiB | load + save growth MiB |',
        '| ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
        ...signed.map(
          (s, i) =>
            `| ${i + 1} | ${ms(s.ms)} | ${ms(baseline[i]?.ms ?? Number.NaN)} | ${round(mib(s.rssBefore), 1)} | ${round(mib(s.rssPeak), 1)} | ${growthOf(s)} | ${baseline[i] ? growthOf(baseline[i]) : 'n/a'} |`,
        ),
        '',
        `The first completion of this document in the process (idle at ${round(mib(idleRss), 1)} MiB, holding the document and the identity, after one completion of a one-page document so the code is loaded as in a running server): ${ms(cold.ms)} ms, RSS ${round(mib(cold.rssBefore), 1)} to ${round(mib(cold.rssPeak), 1)} MiB, growth **${growthOf(cold)} MiB**. Later ones reuse the room it left.`,
        '',
        `Completion p50 ${ms(median(signMs))} ms, p95 **${ms(p95)} ms** (goal <= ${P95_GOAL_MS} ms); load + save p50 ${ms(median(baseMs))} ms. RSS growth during a completion at worst, the first included, **${round(rss.worstGrowth, 1)} MiB** (goal < ${RSS_GROWTH_GOAL_MIB} MB).`,
        '',
        machineLine(loadNote),
        ...gapLines(goals),
      ].join('\n');
      return { markdown, goals };
    } finally {
      child.kill();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default benchmark;
