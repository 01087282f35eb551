import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * scripts/check-bundle-budget.mjs run as `npm run build` runs it, on small built clients written
 * here: what counts as initial JavaScript, the 200 KiB gzip budget and the konva rule.
 */

const SCRIPT = path.join(import.meta.dirname, 'check-bundle-budget.mjs');
const KONVA = 'var n=`Konva.js unsupported environment.`;';
/** About 300 KiB gzip: random text barely compresses, so it alone breaks the 200 KiB budget. */
const HEAVY = `export const blob="${randomBytes(300 * 1024).toString('base64')}";`;

const INDEX_HTML = `<!doctype html><html><head>
<script type="module" crossorigin src="/assets/index-A1.js"></script>
<link rel="modulepreload" crossorigin href="/assets/shared-B2.js">
<link rel="stylesheet" crossorigin href="/assets/index-C3.css">
</head><body><div id="root"></div></body></html>`;

/** A client like Vite's: an entry that imports shared-B2 (which imports deep-D4), pages loaded lazily. */
const BASE_FILES: Record<string, string> = {
  'index-A1.js':
    'import{t as e}from"./shared-B2.js";const r=()=>import("./Banner-E5.js"),f=()=>import("./Forms-F6.js");e(r,f);',
  'shared-B2.js': 'import"./deep-D4.js";export function t(a,b){return[a,b]}',
  'deep-D4.js': 'export const d=1;',
  'index-C3.css': 'body{margin:0}',
  'Banner-E5.js': `import{t}from"./shared-B2.js";${KONVA}t(n);`,
  'Forms-F6.js': 'import{t}from"./shared-B2.js";t(1);',
};

type Measurement = {
  initialBytes: number;
  initial: Array<{ file: string; gzipBytes: number }>;
  konvaChunks: string[];
  problems: string[];
};

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function builtClient(overrides: Record<string, string> = {}, indexHtml: string | null = INDEX_HTML) {
  const dir = await mkdtemp(path.join(tmpdir(), 'bundle-budget-'));
  dirs.push(dir);
  await mkdir(path.join(dir, 'assets'));
  if (indexHtml !== null) await writeFile(path.join(dir, 'index.html'), indexHtml);
  for (const [name, code] of Object.entries({ ...BASE_FILES, ...overrides })) {
    await writeFile(path.join(dir, 'assets', name), code);
  }
  return dir;
}

async function check(dir: string, ...flags: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [SCRIPT, '--dir', dir, ...flags]);
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

const gzipSize = (code: string) => gzipSync(code, { level: constants.Z_BEST_COMPRESSION }).length;

describe('check-bundle-budget', () => {
  it('counts the entry and everything it imports statically, and not the lazy pages', async () => {
    // The heavy chunk is a lazy page: it must not count, or the build would fail here.
    const dir = await builtClient({ 'Forms-F6.js': HEAVY });
    const result = await check(dir, '--json');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const measured = JSON.parse(result.stdout) as Measurement;
    expect(measured.problems).toEqual([]);
    expect(measured.initial.map((chunk) => chunk.file).sort()).toEqual([
      'assets/deep-D4.js',
      'assets/index-A1.js',
      'assets/shared-B2.js',
    ]);
    const initialNames = ['index-A1.js', 'shared-B2.js', 'deep-D4.js'];
    const expected = initialNames.reduce((sum, name) => sum + gzipSize(BASE_FILES[name] ?? ''), 0);
    expect(measured.initialBytes).toBe(expected);
    expect(measured.konvaChunks).toEqual(['Banner-E5.js']);
  });

  it('says the size, the budget and where konva is when the build may ship', async () => {
    const result = await check(await builtClient());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^Bundle budget: initial JavaScript \d+\.\d KiB gzip of 200\.0 KiB \(assets\/index-A1\.js, assets\/shared-B2\.js, assets\/deep-D4\.js\); konva only in Banner-E5\.js\.$/m,
    );
  });

  it('fails over 200 KiB gzip, naming the size and the budget, even when only a deep import is heavy', async () => {
    // deep-D4 is in no tag of index.html: only following shared-B2's import finds it.
    const result = await check(await builtClient({ 'deep-D4.js': HEAVY }));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /Initial JavaScript is (2\d\d|[3-9]\d\d)\.\d KiB gzip, over the budget of 200\.0 KiB \(.*assets\/deep-D4\.js \d+\.\d KiB/,
    );
  });

  it('fails when konva loads initially', async () => {
    const result = await check(
      await builtClient({ 'shared-B2.js': `import"./deep-D4.js";${KONVA}export function t(){}` }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('konva is in shared-B2.js, which loads initially');
  });

  it('fails when konva is in a lazy chunk other than the banner page', async () => {
    const result = await check(
      await builtClient({ 'Forms-F6.js': `import{t}from"./shared-B2.js";${KONVA}t(n);` }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('konva is in Forms-F6.js; it belongs in the banner chunk only');
    expect(result.stderr).not.toContain('Banner-E5.js');
  });

  it('fails when konva is nowhere, since then its markers no longer match konva', async () => {
    const result = await check(await builtClient({ 'Banner-E5.js': 'import{t}from"./shared-B2.js";t(2);' }));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('konva was found in no chunk');
  });

  it('fails when a chunk loaded initially is missing', async () => {
    const result = await check(
      await builtClient({ 'shared-B2.js': 'import"./gone-G7.js";export function t(){}' }),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('assets/gone-G7.js is loaded initially (from /assets/shared-B2.js)');
  });

  it('fails when the client is not built', async () => {
    const result = await check(await builtClient({}, null));
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/index\.html does not exist: run `vite build`/);
  });
});
