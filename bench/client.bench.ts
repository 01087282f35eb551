import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type Browser, type BrowserContext, chromium, type Page } from '@playwright/test';
import { PROJECT_ROOT } from '../server/paths';
import { buildServerBundle, startPortalStack } from '../server/test/built-server';
import { signIn } from '../server/test/rest-client';
import { PAGE_SIZE } from '../shared/constants';
import { alternate } from './lib/ab';
import type { Benchmark, Goal } from './lib/benchmark';
import {
  type Account,
  agentWithTransactions,
  CHROMIUM,
  CHROMIUM_ARGS,
  signInThroughPage,
} from './lib/browser';
import { percentile, round } from './lib/stats';

/**
 * Goal f, the client as a browser gets it from the built server:
 * - initial JavaScript <= 200 KiB gzip and konva only in the banner chunk, as the build's budget
 *   check (scripts/check-bundle-budget.mjs) measures them;
 * - LCP of /home with 10 rows <= 1.0 s in headless Chromium, alternated with the LCP of the
 *   sign-in page from the same server as the baseline;
 * - click-to-paint on paging <= 100 ms: from the click on the pager's Next button to the first
 *   paint after the next page's rows are in the DOM, alternated with the bare tRPC call the page
 *   makes for them (the floor the server and the network set).
 * Each sample opens a fresh browser context (cold HTTP cache, no memory of earlier pages).
 */

const COMMAND = 'npm run bench -- client';
const LCP_GOAL_MS = 1_000;
const CLICK_GOAL_MS = 100;
/** A data row of the transactions table (a message row such as "Loading..." has one cell). */
const DATA_ROWS = 'tbody[aria-busy="false"] > tr > td:nth-child(5)';

type BundleMeasurement = {
  budgetBytes: number;
  initialBytes: number;
  initial: Array<{ file: string; bytes: number; gzipBytes: number }>;
  konvaChunks: string[];
  problems: string[];
};

type HomeMilestones = {
  html: number;
  initialJs: number;
  fcp: number;
  homeChunk: number;
  listSent: number;
  listAnswered: number;
  rowsPainted: number;
};
type LcpSample = {
  lcpMs: number;
  element: string;
  size: number;
  rowsPaintedMs?: number;
  milestones?: HomeMilestones;
};
type ClickSample = { clickToPaintMs: number; eventTimingMs?: number };

const run = promisify(execFile);
const kib = (bytes: number) => `${round(bytes / 1024, 1)} KiB`;
const list = (values: number[]) => values.map((value) => round(value, 0)).join(', ');

/** `vite build`, then the build's own budget check on its output (its verdict is a figure here, not a crash). */
async function buildClient(): Promise<BundleMeasurement> {
  await run(path.join(PROJECT_ROOT, 'node_modules', '.bin', 'vite'), ['build'], { cwd: PROJECT_ROOT });
  // As `npm run build` does after the budget check: the server then sends the brotli copies.
  await run(process.execPath, [path.join(PROJECT_ROOT, 'scripts', 'precompress.mjs')], { cwd: PROJECT_ROOT });
  const script = path.join(PROJECT_ROOT, 'scripts', 'check-bundle-budget.mjs');
  const answer = await run(process.execPath, [script, '--json'], { cwd: PROJECT_ROOT }).catch(
    (failed: { stdout?: string }) => ({ stdout: failed.stdout ?? '' }),
  );
  return JSON.parse(answer.stdout) as BundleMeasurement;
}

/** Signs in through the sign-in page once; the browser storage it leaves is every later sample's session. */
async function sessionOf(browser: Browser, baseUrl: string, account: Account) {
  const context = await browser.newContext({ baseURL: baseUrl });
  try {
    await signInThroughPage(await context.newPage(), baseUrl, account);
    return await context.storageState();
  } finally {
    await context.close();
  }
}

/**
 * The page's last largest-contentful-paint entry, read with a buffered PerformanceObserver one
 * paint after `ready` holds, so the paint that showed it has had its chance to be the largest.
 */
async function readLcp(page: Page): Promise<Pick<LcpSample, 'lcpMs' | 'element' | 'size'>> {
  return page.evaluate(
    () =>
      new Promise<{ lcpMs: number; element: string; size: number }>((resolve, reject) => {
        requestAnimationFrame(() =>
          setTimeout(() => {
            const timeout = setTimeout(() => reject(new Error('no largest-contentful-paint entry')), 5_000);
            new PerformanceObserver((entries, observer) => {
              const last = entries.getEntries().at(-1) as
                | (PerformanceEntry & { element: Element | null; size: number })
                | undefined;
              if (!last) return;
              observer.disconnect();
              clearTimeout(timeout);
              const text = (last.element?.textContent ?? '').trim().slice(0, 40);
              resolve({
                lcpMs: last.startTime,
                element: `${last.element?.tagName.toLowerCase() ?? '?'}${text ? ` "${text}"` : ''}`,
                size: last.size,
              });
            }).observe({ type: 'largest-contentful-paint', buffered: true });
          }, 0),
        );
      }),
  );
}

async function inFreshContext<T>(
  browser: Browser,
  options: Parameters<Browser['newContext']>[0],
  work: (page: Page, context: BrowserContext) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext(options);
  try {
    return await work(await context.newPage(), context);
  } finally {
    await context.close();
  }
}

/** /auth/login in a fresh context: static content, no data to wait for. */
async function loginLcp(browser: Browser, baseUrl: string): Promise<LcpSample> {
  return inFreshContext(browser, { baseURL: baseUrl }, async (page) => {
    await page.goto('/auth/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    return readLcp(page);
  });
}

/**
 * /home in a fresh context holding the session: LCP once the 10 rows are visible, when the
 * first paint after they entered the DOM happened (a MutationObserver installed before any
 * script), and the milestones of the load on the way (Navigation, Resource and Paint Timing).
 */
async function homeLcp(browser: Browser, baseUrl: string, storageState: StorageState): Promise<LcpSample> {
  return inFreshContext(browser, { baseURL: baseUrl, storageState }, async (page, context) => {
    await context.addInitScript((selector: string) => {
      const probe = window as unknown as { rowsPaintedAt?: number };
      const observer = new MutationObserver(() => {
        if (document.querySelectorAll(selector).length < 10) return;
        observer.disconnect();
        requestAnimationFrame(() => setTimeout(() => (probe.rowsPaintedAt = performance.now()), 0));
      });
      observer.observe(document, { childList: true, subtree: true, attributes: true });
    }, DATA_ROWS);
    await page.goto('/home');
    await page.waitForFunction(
      (selector) =>
        document.querySelectorAll(selector).length === 10 &&
        (window as unknown as { rowsPaintedAt?: number }).rowsPaintedAt !== undefined,
      DATA_ROWS,
    );
    const lcp = await readLcp(page);
    const milestones = await page.evaluate(() => {
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const navigation = performance.getEntriesByType('navigation')[0] as
        | PerformanceNavigationTiming
        | undefined;
      const initialScripts = resources.filter(
        (entry) =>
          entry.initiatorType === 'script' || (entry.initiatorType === 'link' && entry.name.endsWith('.js')),
      );
      const homeChunk = resources.find((entry) => /\/assets\/Home-[\w-]+\.js$/.test(entry.name));
      const list = resources.find((entry) => entry.name.includes('transactions.list'));
      return {
        html: navigation?.responseEnd ?? Number.NaN,
        initialJs: Math.max(
          ...initialScripts
            .filter((e) => e.startTime < (homeChunk?.startTime ?? Infinity))
            .map((e) => e.responseEnd),
        ),
        fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN,
        homeChunk: homeChunk?.responseEnd ?? Number.NaN,
        listSent: list?.startTime ?? Number.NaN,
        listAnswered: list?.responseEnd ?? Number.NaN,
        rowsPainted: (window as unknown as { rowsPaintedAt: number }).rowsPaintedAt,
      };
    });
    return { ...lcp, rowsPaintedMs: milestones.rowsPainted, milestones };
  });
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * One click on Next: from the click event's timestamp to the first paint after the new page's
 * rows replaced the old ones; plus the Event Timing API's duration for that click (input to the
 * next paint, as INP counts it), which Chromium reports only above 16 ms.
 */
async function clickNext(page: Page): Promise<ClickSample> {
  // No named functions in here: tsx wraps them in an `__name` helper the page does not have.
  await page.evaluate((selector) => {
    const probe = window as unknown as { clickSample?: Promise<{ clickToPaintMs: number; clickAt: number }> };
    const before = document.querySelector('tbody')?.textContent ?? '';
    probe.clickSample = new Promise((resolve, reject) => {
      const noClick = setTimeout(() => reject(new Error('no click reached the page in 10 s')), 10_000);
      document.addEventListener(
        'click',
        (event) => {
          clearTimeout(noClick);
          const clickAt = event.timeStamp;
          const stuck = setTimeout(() => {
            const rows = document.querySelector('tbody')?.textContent?.slice(0, 120);
            reject(new Error(`the rows did not change within 10 s of the click; the table says: ${rows}`));
          }, 10_000);
          const observer = new MutationObserver(() => {
            const replaced =
              document.querySelectorAll(selector).length > 0 &&
              document.querySelector('tbody')?.textContent !== before;
            if (!replaced) return;
            observer.disconnect();
            clearTimeout(stuck);
            requestAnimationFrame(() =>
              setTimeout(() => resolve({ clickToPaintMs: performance.now() - clickAt, clickAt }), 0),
            );
          });
          observer.observe(document.body, {
            childList: true,
            subtree: true,
            characterData: true,
            attributes: true,
          });
        },
        { capture: true, once: true },
      );
    });
  }, DATA_ROWS);
  await page.getByRole('button', { name: 'Next', exact: true }).click();
  const { clickToPaintMs, clickAt } = await page.evaluate(
    () =>
      (window as unknown as { clickSample: Promise<{ clickToPaintMs: number; clickAt: number }> })
        .clickSample,
  );
  const eventTimingMs = await page.evaluate((at) => {
    const entries = (window as unknown as { clickEntries: Array<{ startTime: number; duration: number }> })
      .clickEntries;
    return entries.find((entry) => Math.abs(entry.startTime - at) < 1)?.duration;
  }, clickAt);
  return eventTimingMs === undefined ? { clickToPaintMs } : { clickToPaintMs, eventTimingMs };
}

/** The request the page sends for a page of rows (httpBatchLink's GET), timed inside the same page. */
async function listCallMs(page: Page, userId: string, pageNumber: number): Promise<number> {
  return page.evaluate(
    async ({ userId, pageNumber, pageSize }) => {
      const input = encodeURIComponent(JSON.stringify({ 0: { userId, page: pageNumber, limit: pageSize } }));
      const began = performance.now();
      const response = await fetch(`/trpc/transactions.list?batch=1&input=${input}`, {
        headers: { authorization: `Bearer ${localStorage.getItem('accessToken')}` },
      });
      await response.json();
      if (!response.ok) throw new Error(`transactions.list answered ${response.status}`);
      return performance.now() - began;
    },
    { userId, pageNumber, pageSize: PAGE_SIZE },
  );
}

const MILESTONES: Array<[keyof HomeMilestones, string]> = [
  ['html', 'index.html received'],
  ['initialJs', 'initial JavaScript received'],
  ['homeChunk', "the Home page's lazy chunk received"],
  ['fcp', 'first contentful paint (shell and page together)'],
  ['listSent', 'tRPC transactions.list sent'],
  ['listAnswered', 'tRPC transactions.list answered'],
  ['rowsPainted', '10 rows painted'],
];

function milestoneRows(samples: LcpSample[]): string[] {
  return MILESTONES.map(([key, label]) => {
    const values = samples.map((sample) => sample.milestones?.[key] ?? Number.NaN);
    return `| ${label} | ${round(percentile(values, 50), 0)} |`;
  });
}

function latencyRow(name: string, values: number[]): string {
  return `| ${name} | ${values.length} | ${round(percentile(values, 50), 0)} | ${round(percentile(values, 95), 0)} | ${round(percentile(values, 99), 0)} | ${round(Math.max(...values), 0)} |`;
}

const client: Benchmark = {
  name: 'client',
  async run({ log, quick }) {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is not at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
    }
    const lcpRounds = quick ? 5 : 10;
    const clickRounds = quick ? 10 : 20;

    const loadBefore = os.loadavg()[0] ?? Number.NaN;
    log('building the client (vite build + budget check) and the server bundle');
    const bundle = await buildClient();
    await buildServerBundle();

    log('starting the built server on its own embedded PostgreSQL');
    const stack = await startPortalStack({ RATE_LIMIT_PER_MIN: '0' });
    let browser: Browser | undefined;
    try {
      const baseUrl = stack.server.baseUrl;
      const owner = await signIn(baseUrl, stack.owner.email, stack.owner.password);
      // One page more than there are clicks, so every click fetches a page the client has not cached.
      const pagingCount = (clickRounds + 1) * PAGE_SIZE + 5;
      log(`creating an agent with 10 transactions and one with ${pagingCount}`);
      const tenRows = await agentWithTransactions(stack, owner, 'Tenrows', 10);
      const paging = await agentWithTransactions(stack, owner, 'Paging', pagingCount);
      const pagingId = (await signIn(baseUrl, paging.email, paging.password)).id;

      browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
      const tenRowsSession = await sessionOf(browser, baseUrl, tenRows);
      const pagingSession = await sessionOf(browser, baseUrl, paging);

      log(`LCP: ${lcpRounds} alternating rounds of /auth/login and /home (one warm-up each, not counted)`);
      const openBrowser = browser;
      await loginLcp(openBrowser, baseUrl);
      await homeLcp(openBrowser, baseUrl, tenRowsSession);
      const loginSamples: LcpSample[] = [];
      const homeSamples: LcpSample[] = [];
      const lcp = await alternate(
        lcpRounds,
        async () => {
          const sample = await loginLcp(openBrowser, baseUrl);
          loginSamples.push(sample);
          return sample.lcpMs;
        },
        async () => {
          const sample = await homeLcp(openBrowser, baseUrl, tenRowsSession);
          homeSamples.push(sample);
          return sample.lcpMs;
        },
      );

      log(`paging: ${clickRounds} clicks on Next alternating with the bare tRPC list call`);
      const clickSamples: ClickSample[] = [];
      const clicks = await inFreshContext(
        openBrowser,
        { baseURL: baseUrl, storageState: pagingSession },
        async (page, context) => {
          await context.addInitScript(() => {
            const store = window as unknown as {
              clickEntries: Array<{ startTime: number; duration: number }>;
            };
            store.clickEntries = [];
            new PerformanceObserver((entries) => {
              for (const entry of entries.getEntries()) {
                if (entry.name === 'click')
                  store.clickEntries.push({ startTime: entry.startTime, duration: entry.duration });
              }
            }).observe({ type: 'event', buffered: true, durationThreshold: 16 } as PerformanceObserverInit);
          });
          await page.goto('/home');
          await page.waitForFunction(
            (selector) => document.querySelectorAll(selector).length === 10,
            DATA_ROWS,
          );
          let callPage = 0;
          const result = await alternate(
            clickRounds,
            () => listCallMs(page, pagingId, (callPage++ % 5) + 1),
            async () => {
              const sample = await clickNext(page);
              clickSamples.push(sample);
              return sample.clickToPaintMs;
            },
          );
          const summary = await page.getByTestId('pager-summary').textContent();
          const expected = `Showing ${clickRounds * PAGE_SIZE + 1} to ${(clickRounds + 1) * PAGE_SIZE} of ${pagingCount} results`;
          if (summary !== expected)
            throw new Error(`after ${clickRounds} clicks the pager says "${summary}"`);
          return result;
        },
      );

      const load = `load average ${round(loadBefore, 1)} at the start and ${round(os.loadavg()[0] ?? Number.NaN, 1)} at the end on ${os.cpus().length} cores`;
      const homeLcps = homeSamples.map((sample) => sample.lcpMs);
      const rowsPainted = homeSamples.map((sample) => sample.rowsPaintedMs ?? Number.NaN);
      const loginLcps = loginSamples.map((sample) => sample.lcpMs);
      const clickToPaint = clickSamples.map((sample) => sample.clickToPaintMs);
      const eventTimings = clickSamples.flatMap((sample) =>
        sample.eventTimingMs === undefined ? [] : [sample.eventTimingMs],
      );
      const lcpP95 = percentile(homeLcps, 95);
      const clickP95 = percentile(clickToPaint, 95);
      const budgetProblems = bundle.problems.filter((problem) => !problem.startsWith('konva'));
      const konvaProblems = bundle.problems.filter((problem) => problem.startsWith('konva'));
      const elements = [...new Set(homeSamples.map((sample) => sample.element))];
      const loginElements = [...new Set(loginSamples.map((sample) => sample.element))];

      const goals: Goal[] = [
        {
          name: 'f. Initial JavaScript (gzip)',
          goal: '<= 200 KiB, konva only in the banner chunk',
          baseline: 'budget check of `npm run build`',
          measured: `${kib(bundle.initialBytes)} in ${bundle.initial.length} files; konva in ${bundle.konvaChunks.join(', ') || 'no chunk'}`,
          met: bundle.problems.length === 0,
          figures: [{ value: bundle.initialBytes / 1024, threshold: 200, unit: 'KiB', better: 'lower' }],
          ...(bundle.problems.length ? { gap: bundle.problems.join(' ') } : {}),
        },
        {
          name: 'f. LCP of /home with 10 rows (headless Chromium)',
          goal: '<= 1.0 s (p95)',
          baseline: `LCP of /auth/login, median ${round(lcp.baselineMedian, 0)} ms`,
          measured: `median ${round(lcp.candidateMedian, 0)} ms, p95 ${round(lcpP95, 0)} ms (${round(lcp.ratio, 2)}x baseline)`,
          met: lcpP95 <= LCP_GOAL_MS,
          figures: [{ value: lcpP95, threshold: LCP_GOAL_MS, unit: 'ms', better: 'lower' }],
          ...(lcpP95 <= LCP_GOAL_MS
            ? {}
            : {
                gap:
                  `p95 ${round(lcpP95, 0)} ms (median ${round(lcp.candidateMedian, 0)} ms) with the ${load}, shared with other benchmarks. ` +
                  `The sign-in page, with no data and no lazy chunk, takes ${round(lcp.baselineMedian, 0)} ms by itself: most of the time is the ` +
                  'JavaScript boot both pages pay (parse and run the initial bundle, then the first render of the Mantine shell), CPU work ' +
                  'that the load stretches. Plan: shrink the initial JavaScript (zod, the largest package in it after react-dom and ' +
                  '@mantine/core, is there for the sign-in forms, the token refresh and the notification feed), and ask for the first page ' +
                  'of transactions together with the page chunk instead of after the first render.',
              }),
        },
        {
          name: 'f. Click-to-paint on paging (Next)',
          goal: '<= 100 ms (p95)',
          baseline: `the tRPC list call alone, median ${round(clicks.baselineMedian, 0)} ms`,
          measured: `p50 ${round(percentile(clickToPaint, 50), 0)} ms, p95 ${round(clickP95, 0)} ms (${round(clicks.ratio, 2)}x baseline)`,
          met: clickP95 <= CLICK_GOAL_MS,
          figures: [{ value: clickP95, threshold: CLICK_GOAL_MS, unit: 'ms', better: 'lower' }],
          ...(clickP95 <= CLICK_GOAL_MS
            ? {}
            : {
                gap:
                  `p95 ${round(clickP95, 0)} ms with the ${load}; the bare tRPC call's median is ${round(clicks.baselineMedian, 0)} ms, so the rest is ` +
                  'rendering, stretched by the load: the table renders twice per click (the single Loading... row, then the ' +
                  'rows). Plan: prefetch the next page while a page is shown, so Next renders its rows from the cache in one render ' +
                  '(the Loading... row then shows only when a page really has to load).',
              }),
        },
      ];

      const markdown = [
        '## f. Client: bundle budget, LCP and click-to-paint',
        '',
        `Command: \`${COMMAND}\` (bench/client.bench.ts). It runs \`vite build\` and the budget check, builds the`,
        'server bundle, starts the built server on an embedded PostgreSQL of its own, creates two agents through',
        `the REST API (one with 10 transactions, one with ${pagingCount}), signs each in once through the sign-in`,
        `page, then drives Debian's Chromium (${CHROMIUM}, headless, 1280x720, no throttling, localhost).`,
        `Machine during the run: ${load}; PostgreSQL, the server, Chromium and other benchmarks share the cores.`,
        '',
        '### Initial JavaScript',
        '',
        'What `index.html` loads before any lazy route: its module script and modulepreloads plus every chunk',
        'they import statically, gzip level 9, as `scripts/check-bundle-budget.mjs` measures it in `npm run build`',
        '(the build fails above 200 KiB, or when konva is in any chunk but the banner page).',
        '',
        '| File | bytes | gzip |',
        '| --- | ---: | ---: |',
        ...bundle.initial.map((chunk) => `| ${chunk.file} | ${chunk.bytes} | ${kib(chunk.gzipBytes)} |`),
        `| **total** | ${bundle.initial.reduce((sum, chunk) => sum + chunk.bytes, 0)} | **${kib(bundle.initialBytes)}** |`,
        '',
        `Budget ${kib(bundle.budgetBytes)}: ${budgetProblems.length ? `**exceeded**: ${budgetProblems.join(' ')}` : `**met** (${kib(bundle.budgetBytes - bundle.initialBytes)} to spare)`}.`,
        `konva: in ${bundle.konvaChunks.join(', ') || 'no chunk'} ${konvaProblems.length ? `(**wrong**: ${konvaProblems.join(' ')})` : '(the banner page, loaded only when /banner opens): **met**'}.`,
        '',
        '### LCP of /home with 10 rows',
        '',
        `Each sample opens a fresh browser context (cold HTTP cache) holding the agent's session, loads /home and`,
        'waits for the 10 rows; then a buffered PerformanceObserver gives the last `largest-contentful-paint`',
        "entry. Baseline, alternated with it: the sign-in page's LCP, from the same server in the same way",
        `(static content, no data). ${lcpRounds} rounds each, after one warm-up of each. "Rows painted" is the first`,
        'paint after the 10 rows entered the DOM (MutationObserver, then requestAnimationFrame + setTimeout 0),',
        'so the figure holds even when the largest element is not a row.',
        '',
        '| ms | n | p50 | p95 | p99 | max |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        latencyRow('/home LCP', homeLcps),
        latencyRow('/home 10 rows painted', rowsPainted),
        latencyRow('/auth/login LCP (baseline)', loginLcps),
        '',
        'Where the time goes on /home (median over the samples, ms after the navigation started):',
        '',
        '| Milestone | median ms |',
        '| --- | ---: |',
        ...milestoneRows(homeSamples),
        '',
        `Every sample, /home LCP: ${list(homeLcps)}; /auth/login LCP: ${list(loginLcps)}.`,
        `LCP element on /home: ${elements.join('; ')}. On /auth/login: ${loginElements.join('; ')}.`,
        `Ratio /home / /auth/login (medians): ${round(lcp.ratio, 2)}. Goal p95 <= 1.0 s: ${lcpP95 <= LCP_GOAL_MS ? '**met**' : '**not met**'}.`,
        '',
        'Fixed for this goal: the page of the address the app opens on is loaded before the first render',
        '(client/lazy-page.ts, client/main.tsx). Before, /home first rendered its shell with a loader while the',
        "page's chunk arrived, and React keeps a Suspense fallback on screen for at least 300 ms",
        '(FALLBACK_THROTTLE_MS), so the heading and the list request waited for that throttle: the list request',
        'left 200-500 ms after the chunk had arrived. Now shell and page appear in one paint and the request leaves',
        'right after it.',
        '',
        '### Click-to-paint on paging',
        '',
        `One page, ${clickRounds} clicks on the pager's Next button, each onto a page not seen before (the rows`,
        "come from the server every time). Measured in the page from the click event's timeStamp to the first",
        'paint after the new rows replaced the old ones (the table shows its loading row in between). Baseline,',
        "alternated with each click: the same tRPC GET the page sends (httpBatchLink, the agent's token),",
        'timed in the same page with fetch: the part the server and the network set.',
        '',
        '| ms | n | p50 | p95 | p99 | max |',
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        latencyRow('click to rows painted', clickToPaint),
        latencyRow('tRPC transactions.list alone (baseline)', clicks.baseline),
        '',
        `Every click: ${list(clickToPaint)}.`,
        `Event Timing API (INP's own measure, click to the next paint, which shows the loading row): ${eventTimings.length} of ${clickSamples.length} clicks above Chromium's 16 ms reporting floor${eventTimings.length ? `, longest ${round(Math.max(...eventTimings), 0)} ms` : ''}.`,
        `Ratio click-to-paint / bare call (medians): ${round(clicks.ratio, 2)}. Goal p95 <= 100 ms: ${clickP95 <= CLICK_GOAL_MS ? '**met**' : '**not met**'}.`,
      ].join('\n');
      return { markdown, goals };
    } finally {
      await browser?.close();
      await stack.close();
    }
  },
};

export default client;
