import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * The text of a PDF's first pages, read with pdf.js (its Node build): what the checklist
 * suggestions (shared/intake/suggestions.ts) rank. pdf.js runs in a worker thread of its own:
 * - its Node build installs polyfills on the built-in prototypes (core-js patches
 *   Array.prototype.push, Function.prototype.toString), which must not touch the server's realm;
 * - it parses in the thread that calls it, which would stall every request behind a big file;
 * - a heap limit and a deadline bound what a hostile file can cost: past either, the worker is
 *   ended and the document simply has no text (no suggestions), never a failed upload.
 */

/** Enough to find a title and the words of the first document of a packet. */
export const TEXT_PAGES = 3;
/** Per page: a page of a form holds a few thousand characters. */
const MAX_PAGE_CHARS = 20_000;
const DEADLINE_MS = 10_000;
const WORKER_HEAP_MB = 192;

// A CommonJS script run as the worker (eval: no file to ship beside the bundle); it imports
// pdf.js from the path resolved here.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
let loading;
parentPort.on('message', async ({ id, bytes, pageLimit, maxChars }) => {
  let task;
  try {
    loading ??= import(workerData.pdfjsUrl);
    const pdfjs = await loading;
    task = pdfjs.getDocument({
      data: bytes, isEvalSupported: false, disableFontFace: true, useSystemFonts: false,
      stopAtErrors: false, verbosity: 0,
    });
    const doc = await task.promise;
    const texts = [];
    for (let number = 1; number <= Math.min(doc.numPages, pageLimit); number += 1) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      texts.push(content.items.map((item) => item.str ?? '').join(' ').slice(0, maxChars));
      page.cleanup();
    }
    parentPort.postMessage({ id, texts });
  } catch {
    parentPort.postMessage({ id, texts: [] });
  } finally {
    await task?.destroy().catch(() => {});
  }
});
`;

type Pending = { resolve: (texts: string[]) => void; timer: NodeJS.Timeout };

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, Pending>();

function settleAll(texts: string[]) {
  for (const [id, entry] of pending) {
    clearTimeout(entry.timer);
    entry.resolve(texts);
    pending.delete(id);
  }
}

function textWorker(): Worker {
  if (worker) return worker;
  const pdfjsUrl = pathToFileURL(
    createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'),
  ).href;
  const started = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { pdfjsUrl },
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    stdout: true,
    stderr: true,
  });
  // pdf.js may print; nothing of a client's file belongs in the server's output.
  started.stdout.resume();
  started.stderr.resume();
  started.unref();
  started.on('message', ({ id, texts }: { id: number; texts: string[] }) => {
    const entry = pending.get(id);
    if (!entry) return;
    clearTimeout(entry.timer);
    pending.delete(id);
    // Idle, the worker does not keep the process alive (a CLI, a test run ends as it would).
    if (pending.size === 0) started.unref();
    entry.resolve(texts);
  });
  // Out of heap, or ended past a deadline: whatever was asked has no text; the next ask starts anew.
  const retire = () => {
    if (worker === started) worker = null;
    settleAll([]);
  };
  started.on('error', retire);
  started.on('exit', retire);
  worker = started;
  return started;
}

export function firstPagesText(bytes: Uint8Array, pageLimit = TEXT_PAGES): Promise<string[]> {
  return new Promise((resolve) => {
    const current = textWorker();
    const id = nextId++;
    const timer = setTimeout(() => {
      // Too slow: end the worker (and with it this parse); anything else waiting gets no text either.
      void current.terminate();
    }, DEADLINE_MS);
    timer.unref();
    pending.set(id, { resolve, timer });
    current.ref();
    // A copy, handed over (not cloned again): the caller keeps its bytes.
    const copy = new Uint8Array(bytes);
    current.postMessage({ id, bytes: copy, pageLimit, maxChars: MAX_PAGE_CHARS }, [copy.buffer]);
  });
}
