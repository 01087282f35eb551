import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium } from '@playwright/test';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { type PortalStack, startPortalStack } from '../server/test/built-server';
import { signIn } from '../server/test/rest-client';
import type { Benchmark, Goal } from './lib/benchmark';
import {
  type Account,
  agentWithTransactions,
  buildAll,
  CHROMIUM,
  CHROMIUM_ARGS,
  signInThroughPage,
} from './lib/browser';
import { mailedSigningPath } from './lib/signing-link';
import { median, round } from './lib/stats';

/**
 * Lighthouse (its default config: the mobile preset, a
 * Moto G Power-sized screen, simulated slow 4G and a 4x slower CPU) on the built server in Debian's
 * Chromium, for three pages:
 * - /auth/login, as a first visit: Lighthouse resets the origin's storage and the HTTP cache;
 * - /home signed in and cold: an agent with a page of transactions signs in through the sign-in
 *   page first (the session lives in localStorage), then the HTTP cache is cleared and Lighthouse
 *   runs with its storage reset off, so the session stays and every file still comes from the server;
 * - /sign/:token, a signer's first visit from the mailed link (no account, on a phone as often as
 *   not): a real request, sent through the API with a real PDF, the link read from the mail.
 * Goals, the median of the runs: performance >= 90 on /auth/login and /home; the signing page's
 * first contentful paint <= 1.5 s (the signer sees the page has come at once, while the document
 * loads); accessibility 100 and best practices 100 on all three.
 */

const COMMAND = 'npm run bench -- lighthouse';
const PERFORMANCE_GOAL = 90;
const FCP_GOAL_MS = 1500;
const REPORTS_DIR = path.join(os.tmpdir(), 'portal-lighthouse-reports');
const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
type Category = (typeof CATEGORIES)[number];
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

type PageName = '/auth/login' | '/home' | '/sign/:token';
type Run = { page: PageName; scores: Record<Category, number>; lhr: Result };

/**
 * Chromium started by hand with a DevTools port: Lighthouse drives it through that port, and
 * Playwright joins the same browser over CDP to sign in, so both share one profile (localStorage).
 */
async function startChromium(): Promise<{ port: number; process: ChildProcess; close(): Promise<void> }> {
  const profile = await mkdtemp(path.join(os.tmpdir(), 'portal-lighthouse-profile-'));
  const child = spawn(
    CHROMIUM,
    [
      ...CHROMIUM_ARGS,
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`Chromium gave no DevTools port in 30 s:\n${stderr}`)),
      30_000,
    );
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = stderr.match(/DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}):\n${stderr}`));
    });
  });
  return {
    port,
    process: child,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(profile, { recursive: true, force: true });
    },
  };
}

async function audit(url: string, port: number, flags: Partial<Flags>): Promise<Result> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
    ...flags,
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  // Every report is kept for a closer look (open it in the Lighthouse viewer or read its JSON).
  await mkdir(REPORTS_DIR, { recursive: true });
  const name = `${new URL(url).pathname.replaceAll('/', '_')}-${new Date().toISOString().replaceAll(':', '-')}.json`;
  await writeFile(path.join(REPORTS_DIR, name), result.report as string);
  if (result.lhr.runtimeError)
    throw new LighthouseRunError(
      `Lighthouse failed on ${url}: ${result.lhr.runtimeError.code} ${result.lhr.runtimeError.message}`,
    );
  return result.lhr;
}

/** A run Lighthouse itself gave up on (e.g. NO_NAVSTART: the trace missed the navigation). */
class LighthouseRunError extends Error {}

/**
 * On a busy machine Lighthouse now and then loses its trace (NO_NAVSTART); such a run says nothing
 * about the page, so it is run again from the start (for /home: signed in afresh, cache cleared).
 */
async function withRetries<T>(run: () => Promise<T>, log: (message: string) => void): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof LighthouseRunError) || attempt >= 3) throw error;
      log(`${error.message}; running it again`);
    }
  }
}

function scoresOf(lhr: Result): Record<Category, number> {
  const score = (category: Category) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
  };
}

/**
 * What holds a category back, with the nodes or URLs named: for accessibility and best practices
 * the scored audits that failed; for performance the opportunities and diagnostics that found
 * something (its scored audits are the metrics, quoted in the table already).
 */
function failures(lhr: Result, category: Category): string[] {
  const refs = lhr.categories[category]?.auditRefs ?? [];
  return refs.flatMap((ref) => {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1) return [];
    if (category === 'performance' ? ref.weight > 0 : ref.weight === 0) return [];
    if (category === 'performance' && audit.scoreDisplayMode !== 'metricSavings') return [];
    const items = ((audit.details as { items?: unknown[] } | undefined)?.items ?? []) as Array<
      Record<string, unknown>
    >;
    const where = items.slice(0, 6).map((item) => {
      const node = item.node as { selector?: string; snippet?: string } | undefined;
      if (node?.selector) return `\`${node.selector}\``;
      if (typeof item.url === 'string') return item.url;
      if (typeof item.description === 'string') return item.description;
      return JSON.stringify(item).slice(0, 120);
    });
    const value = audit.displayValue ? `, ${audit.displayValue}` : '';
    return [`${audit.id} (${audit.title}${value})${where.length ? `: ${where.join(', ')}` : ''}`];
  });
}

const metric = (lhr: Result, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
const formatMetric = (id: string, value: number) =>
  id === 'cumulative-layout-shift' ? round(value, 3) : `${round(value / 1000, 2)} s`;

const lighthouseBench: Benchmark = {
  name: 'lighthouse',
  async run({ log, quick }) {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is not at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
    }
    const rounds = quick ? 1 : 3;
    const loadBefore = os.loadavg()[0] ?? Number.NaN;
    log('npm run build (client, budget check, precompression, server bundle)');
    await buildAll();
    log('starting the built server on its own embedded PostgreSQL');
    const stack: PortalStack = await startPortalStack({ RATE_LIMIT_PER_MIN: '0' });
    const browserProcess = await startChromium();
    let browser: Browser | undefined;
    try {
      const baseUrl = stack.server.baseUrl;
      const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
      log('creating an agent with 10 transactions');
      const agent: Account = await agentWithTransactions(stack, owner, 'Lighthouse', 10);
      log("sending a PDF for signature; the signer's link from the mail");
      const signPath = await mailedSigningPath(
        stack,
        (await signIn(baseUrl, agent.email, agent.password)).token,
      );
      browser = await chromium.connectOverCDP(`http://127.0.0.1:${browserProcess.port}`);
      const context = browser.contexts()[0];
      if (!context) throw new Error('Chromium has no default context');
      const connected = context;

      const login = (): Promise<Run> => withRetries(loginOnce, log);
      const home = (): Promise<Run> => withRetries(homeOnce, log);
      const sign = (): Promise<Run> => withRetries(signOnce, log);
      const loginOnce = async (): Promise<Run> => {
        // Lighthouse's own storage reset signs the agent out and empties the cache: a first visit.
        const lhr = await audit(`${baseUrl}/auth/login`, browserProcess.port, {});
        return { page: '/auth/login', scores: scoresOf(lhr), lhr };
      };
      const homeOnce = async (): Promise<Run> => {
        const page = await connected.newPage();
        try {
          await signInThroughPage(page, baseUrl, agent);
          // Signed in; now forget every file the sign-in loaded, so /home is a cold load.
          const cdp = await connected.newCDPSession(page);
          await cdp.send('Network.clearBrowserCache');
          await cdp.detach();
        } finally {
          await page.close();
        }
        const lhr = await audit(`${baseUrl}/home`, browserProcess.port, { disableStorageReset: true });
        if (!lhr.finalDisplayedUrl.endsWith('/home'))
          throw new Error(`/home ended on ${lhr.finalDisplayedUrl}: the session did not hold`);
        return { page: '/home', scores: scoresOf(lhr), lhr };
      };
      const signOnce = async (): Promise<Run> => {
        // A first visit, as the signer's from the mail: storage and cache reset by Lighthouse.
        const lhr = await audit(`${baseUrl}${signPath}`, browserProcess.port, {});
        if (!new URL(lhr.finalDisplayedUrl).pathname.startsWith('/sign/'))
          throw new Error(`the signing link ended on ${lhr.finalDisplayedUrl}`);
        return { page: '/sign/:token', scores: scoresOf(lhr), lhr };
      };

      log(
        `${rounds} rounds of /auth/login, /home and /sign/:token, each round starting with the next page (one warm-up each, not counted)`,
      );
      await login();
      await home();
      await sign();
      const runs: Run[] = [];
      const pageRuns = [login, home, sign];
      for (let i = 0; i < rounds; i++) {
        const order = [...pageRuns.slice(i % 3), ...pageRuns.slice(0, i % 3)];
        for (const next of order) {
          const run = await next();
          runs.push(run);
          log(
            `${run.page}: performance ${run.scores.performance}, accessibility ${run.scores.accessibility}, ` +
              `best practices ${run.scores['best-practices']}`,
          );
        }
      }

      const load = `load average ${round(loadBefore, 1)} at the start and ${round(os.loadavg()[0] ?? Number.NaN, 1)} at the end on ${os.cpus().length} cores`;
      const pages: PageName[] = ['/auth/login', '/home', '/sign/:token'];
      const version = runs[0]?.lhr.lighthouseVersion ?? 'unknown';
      const fcpOf = (page: PageName) =>
        median(
          runs.filter((run) => run.page === page).map((run) => metric(run.lhr, 'first-contentful-paint')),
        );
      const goals: Goal[] = [];
      const sections: string[] = [];
      for (const page of pages) {
        const mine = runs.filter((run) => run.page === page);
        const medians = Object.fromEntries(
          CATEGORIES.map((category) => [category, median(mine.map((run) => run.scores[category]))]),
        ) as Record<Category, number>;
        // The run whose performance score is the median one: its audits are the ones quoted.
        const sorted = [...mine].sort((a, b) => a.scores.performance - b.scores.performance);
        const typical = sorted[Math.floor((sorted.length - 1) / 2)] as Run;
        const failing = CATEGORIES.flatMap((category) =>
          failures(typical.lhr, category).map((line) => `- ${category}: ${line}`),
        );
        const met = {
          performance: medians.performance >= PERFORMANCE_GOAL,
          accessibility: medians.accessibility === 100,
          'best-practices': medians['best-practices'] === 100,
        };
        const gapOf = (categories: Category[]) =>
          categories
            .flatMap((category) => failures(typical.lhr, category).map((line) => `${category}: ${line}`))
            .join('; ');
        const fcp = fcpOf(page);
        const fcpMet = fcp <= FCP_GOAL_MS;
        goals.push(
          page === '/sign/:token'
            ? {
                name: `Lighthouse mobile ${page}: first contentful paint`,
                goal: `<= ${round(FCP_GOAL_MS / 1000, 1)} s (median)`,
                baseline: `FCP of /auth/login, a first visit too, in the same run: median ${round(fcpOf('/auth/login') / 1000, 2)} s`,
                measured: `median ${round(fcp / 1000, 2)} s (${mine.map((run) => round(metric(run.lhr, 'first-contentful-paint') / 1000, 2)).join(', ')} s; performance ${mine.map((run) => run.scores.performance).join(', ')})`,
                met: fcpMet,
                figures: [{ value: fcp, threshold: FCP_GOAL_MS, unit: 'ms', better: 'lower' }],
                ...(fcpMet
                  ? {}
                  : {
                      gap:
                        `${load}; median run: ${METRICS.map(([id, name]) => `${name} ${formatMetric(id, metric(typical.lhr, id))}`).join(', ')}. ` +
                        gapOf(['performance']),
                    }),
              }
            : {
                name: `Lighthouse mobile ${page}: performance`,
                goal: `>= ${PERFORMANCE_GOAL}`,
                baseline: 'first measured: 61 on /auth/login, 46-54 on a cold /home',
                measured: `median ${medians.performance} (${mine.map((run) => run.scores.performance).join(', ')})`,
                met: met.performance,
                figures: [
                  {
                    value: medians.performance,
                    threshold: PERFORMANCE_GOAL,
                    unit: 'score',
                    better: 'higher',
                  },
                ],
                ...(met.performance
                  ? {}
                  : {
                      gap:
                        `${load}; median run: ${METRICS.map(([id, name]) => `${name} ${formatMetric(id, metric(typical.lhr, id))}`).join(', ')}. ` +
                        gapOf(['performance']),
                    }),
              },
          {
            name: `Lighthouse mobile ${page}: accessibility, best practices`,
            goal: '100, 100',
            baseline: `Lighthouse ${version} audits`,
            measured: `${medians.accessibility}, ${medians['best-practices']}`,
            met: met.accessibility && met['best-practices'],
            figures: [
              { value: medians.accessibility, threshold: 100, unit: 'score', better: 'higher' },
              { value: medians['best-practices'], threshold: 100, unit: 'score', better: 'higher' },
            ],
            ...(met.accessibility && met['best-practices']
              ? {}
              : { gap: gapOf(['accessibility', 'best-practices']) }),
          },
        );
        sections.push(
          `### ${page}${page === '/home' ? ' (signed in, cold cache)' : ' (first visit)'}`,
          '',
          '| Run | Performance | Accessibility | Best practices | ' +
            METRICS.map(([, name]) => name).join(' | ') +
            ' |',
          `| --- | ---: | ---: | ---: | ${METRICS.map(() => '---:').join(' | ')} |`,
          ...mine.map(
            (run, i) =>
              `| ${i + 1} | ${run.scores.performance} | ${run.scores.accessibility} | ${run.scores['best-practices']} | ` +
              METRICS.map(([id]) => formatMetric(id, metric(run.lhr, id))).join(' | ') +
              ' |',
          ),
          `| **median** | **${medians.performance}** | **${medians.accessibility}** | **${medians['best-practices']}** | ` +
            METRICS.map(([id]) => formatMetric(id, median(mine.map((run) => metric(run.lhr, id))))).join(
              ' | ',
            ) +
            ' |',
          '',
          failing.length
            ? `Audits not passed in the median run:\n\n${failing.join('\n')}`
            : 'Every scored audit passed in the median run.',
          '',
        );
      }

      const markdown = [
        "## Lighthouse (mobile preset): /auth/login, a cold signed-in /home and a signer's /sign/:token",
        '',
        `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC by \`${COMMAND}\` (bench/lighthouse.bench.ts)${quick ? ', **quick mode** (one run per page: indicative only)' : ''}.`,
        '',
        `- What: Lighthouse ${version} with its default settings, the mobile preset (a 412x823 screen, simulated slow 4G:`,
        '  150 ms round trips and 1.6 Mbit/s, and a CPU 4 times slower than this one), categories performance,',
        `  accessibility and best practices, in Debian's Chromium (${CHROMIUM}, headless) on the built server`,
        '  (`npm run build`, then `node dist/server/main.js` with an embedded PostgreSQL, NODE_ENV=production).',
        `- Every report's JSON is kept under ${REPORTS_DIR}/ until the machine is cleaned.`,
        '- /auth/login: a first visit (Lighthouse clears the storage and the HTTP cache of the origin).',
        '- /home: an agent with 10 transactions signs in through the sign-in page (the session is kept in',
        '  localStorage), then the HTTP cache is cleared and Lighthouse loads /home without resetting the storage:',
        '  signed in, every file fetched afresh. The page shows its 10 rows.',
        "- /sign/:token: a signer's first visit from the mailed link (storage and cache reset, no account): the agent",
        '  sent an item of a new transaction, a two-page PDF, for signature through the REST API, and the link is the',
        "  one the server's mail job wrote to DATA_DIR/outbox. The page shows the request, the PDF and the fields.",
        `- ${rounds} run${rounds > 1 ? 's' : ''} per page after a warm-up of each, alternating which page goes first; quoted: each run and the median.`,
        `- Machine: ${load}. Lighthouse simulates the throttling from what it observes, so a busy machine lowers the performance score (longer tasks count as blocking time).`,
        '',
        ...sections,
        ...goals.map(
          (g) => `- Goal ${g.name}: ${g.goal}; measured ${g.measured}: **${g.met ? 'met' : 'not met'}**.`,
        ),
      ].join('\n');
      return { markdown, goals };
    } finally {
      await browser?.close().catch(() => undefined);
      await browserProcess.close();
      await stack.close();
    }
  },
};

export default lighthouseBench;
