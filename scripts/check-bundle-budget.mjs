// The client's bundle budget, run by `npm run build` right after `vite build`:
// the JavaScript a browser loads before any lazy route must stay within 200 KiB gzip, and konva
// (the banner editor's canvas, the largest dependency) must live in the banner page's chunk only.
// Either breach fails the build with a message naming the figures.
//
//   node scripts/check-bundle-budget.mjs [--dir dist/client] [--json]
//
// --json prints the measurement as JSON (bench/client.bench.ts quotes it); the exit code is 1
// whenever the budget or the konva rule is broken, with or without --json.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gzipSync } from 'node:zlib';

export const BUDGET_BYTES = 200 * 1024;

/**
 * Strings from konva's lib/Util.js, which every konva build includes; minification keeps string
 * literals, so a chunk holding konva holds one of these.
 */
const KONVA_MARKERS = ['Konva.js unsupported environment', 'Konva warning: '];

/** Vite names a lazy page's chunk after its module: client/pages/Banner.tsx -> Banner-<hash>.js. */
const BANNER_CHUNK = /^Banner-[\w-]+\.js$/;

const DEFAULT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));

const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;

/** Attributes of every `<tag ...>` in the HTML, as plain objects (names lower-cased). */
function tags(html, tag) {
  const found = [];
  for (const [text] of html.matchAll(new RegExp(`<${tag}\\b[^>]*>`, 'gi'))) {
    const attributes = {};
    for (const match of text.matchAll(/([\w-]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g)) {
      attributes[match[1].toLowerCase()] = match[2] ?? match[3] ?? match[4] ?? '';
    }
    found.push(attributes);
  }
  return found;
}

/**
 * The chunks a chunk imports statically (`import x from "./a.js"`, `import"./a.js"`,
 * `export * from "./a.js"`), never the dynamic `import("./a.js")` of a lazy route. Only relative
 * and root paths count: a built chunk names its neighbours that way, while a bare name such as
 * 'konva/canvas-backend' can only be text inside a message (konva's errors quote one).
 */
export function staticImports(code) {
  const pattern =
    /(?:^|[;\s}])(?:import|export)\s*(?:[\w$\s{},*]*?\s*from\s*)?["']((?:\.{1,2})?\/[^"']+)["']/g;
  return [...code.matchAll(pattern)].map((match) => match[1]);
}

/** A URL of the built client ("/assets/x.js", "./x.js" seen from /assets/y.js) as a path under dir. */
function localFile(dir, url, fromUrl = '/') {
  if (/^[a-z][a-z\d+.-]*:|^\/\//i.test(url)) return undefined; // another origin: not ours to weigh
  const resolved = new URL(url, new URL(fromUrl, 'http://client.invalid')).pathname;
  return path.join(dir, decodeURIComponent(resolved));
}

/**
 * Measures the built client in `dir`: the initial JavaScript (index.html's module scripts and
 * modulepreloads, plus everything they import statically, transitively) and where konva lives.
 * `problems` lists every broken rule; empty means the build may ship.
 */
export function measureBundle(dir = DEFAULT_DIR) {
  const indexHtml = path.join(dir, 'index.html');
  if (!existsSync(indexHtml)) {
    return {
      dir,
      budgetBytes: BUDGET_BYTES,
      initialBytes: 0,
      initial: [],
      konvaChunks: [],
      problems: [`${indexHtml} does not exist: run \`vite build\` before checking the bundle budget.`],
    };
  }
  const html = readFileSync(indexHtml, 'utf8');
  const problems = [];
  const entryUrls = [
    ...tags(html, 'script')
      .filter((script) => script.type === 'module' && script.src)
      .map((script) => script.src),
    ...tags(html, 'link')
      .filter((link) => link.rel?.split(/\s+/).includes('modulepreload') && link.href)
      .map((link) => link.href),
  ];
  if (entryUrls.length === 0) problems.push(`${indexHtml} loads no module script: nothing to measure.`);

  // Breadth-first over static imports; keyed by file so a chunk imported twice counts once.
  const initial = new Map();
  const queue = entryUrls.map((url) => ({ url, from: '/' }));
  while (queue.length > 0) {
    const { url, from } = queue.shift();
    const file = localFile(dir, url, from);
    if (!file || initial.has(file)) continue;
    if (!existsSync(file)) {
      problems.push(`${path.relative(dir, file)} is loaded initially (from ${from}) but is not in ${dir}.`);
      continue;
    }
    const code = readFileSync(file);
    initial.set(file, {
      file: path.relative(dir, file),
      bytes: code.length,
      gzipBytes: gzipSync(code, { level: constants.Z_BEST_COMPRESSION }).length,
    });
    const chunkUrl = `/${path.relative(dir, file).split(path.sep).join('/')}`;
    for (const imported of staticImports(code.toString('utf8')))
      queue.push({ url: imported, from: chunkUrl });
  }
  const initialBytes = [...initial.values()].reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
  const listing = [...initial.values()].map((chunk) => `${chunk.file} ${kib(chunk.gzipBytes)}`).join(', ');
  if (initialBytes > BUDGET_BYTES) {
    problems.push(
      `Initial JavaScript is ${kib(initialBytes)} gzip, over the budget of ${kib(BUDGET_BYTES)} (${listing}). ` +
        'Move code behind a lazy route (client/routes.tsx) or drop a dependency.',
    );
  }

  const assets = path.join(dir, 'assets');
  const chunks = existsSync(assets) ? readdirSync(assets).filter((name) => name.endsWith('.js')) : [];
  const konvaChunks = chunks.filter((name) => {
    const code = readFileSync(path.join(assets, name), 'utf8');
    return KONVA_MARKERS.some((marker) => code.includes(marker));
  });
  if (konvaChunks.length === 0) {
    problems.push(
      `konva was found in no chunk of ${assets}: the banner editor should bundle it, so the markers ` +
        `this check looks for (${KONVA_MARKERS.join(' | ')}) no longer match konva; update KONVA_MARKERS.`,
    );
  }
  for (const name of konvaChunks) {
    const isInitial = initial.has(path.join(assets, name));
    if (isInitial)
      problems.push(`konva is in ${name}, which loads initially; it belongs in the banner chunk only.`);
    else if (!BANNER_CHUNK.test(name))
      problems.push(`konva is in ${name}; it belongs in the banner chunk only.`);
  }

  return {
    dir,
    budgetBytes: BUDGET_BYTES,
    initialBytes,
    initial: [...initial.values()],
    konvaChunks,
    problems,
  };
}

function main(args) {
  const dirAt = args.indexOf('--dir');
  const dir = dirAt === -1 ? DEFAULT_DIR : path.resolve(args[dirAt + 1] ?? '');
  const result = measureBundle(dir);
  if (args.includes('--json')) console.log(JSON.stringify(result, null, 2));
  else if (result.problems.length === 0) {
    console.log(
      `Bundle budget: initial JavaScript ${kib(result.initialBytes)} gzip of ${kib(result.budgetBytes)} ` +
        `(${result.initial.map((chunk) => chunk.file).join(', ')}); konva only in ${result.konvaChunks.join(', ')}.`,
    );
  }
  if (result.problems.length > 0) {
    console.error(
      `Bundle budget check failed:\n${result.problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    process.exitCode = 1;
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2));
}
