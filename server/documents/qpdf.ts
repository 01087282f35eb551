import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

/**
 * qpdf (Debian's `qpdf` package), run as a child process: it binds PDFs page by page from files
 * on disk, reading each object when it writes it, so binding hundreds of megabytes costs the
 * portal no memory (pdf-lib, in process, holds every input and the whole output at once).
 * Optional: where it is not installed, callers fall back to what pdf-lib can do in memory.
 */

const run = promisify(execFile);
const QPDF = process.env.QPDF_PATH ?? 'qpdf';
/** qpdf exits 3 for warnings it recovered from (a damaged cross-reference table, say): still a result. */
const WARNINGS = '--warning-exit-0';

let available: Promise<boolean> | undefined;

/** Whether qpdf can be run here (asked once per process). */
export function qpdfAvailable(): Promise<boolean> {
  available ??= run(QPDF, ['--version']).then(
    () => true,
    () => false,
  );
  return available;
}

/** The page count of the PDF at `path`, or null when qpdf cannot read it (damaged, encrypted). */
export async function pageCountOf(path: string): Promise<number | null> {
  try {
    const { stdout } = await run(QPDF, [WARNINGS, '--show-npages', path]);
    const pages = Number.parseInt(stdout.trim(), 10);
    return Number.isInteger(pages) && pages > 0 ? pages : null;
  } catch {
    return null;
  }
}

/** Writes to `output` every page of `inputs`, in order (each a PDF qpdf could read). */
export async function bindPdfs(inputs: readonly string[], output: string): Promise<void> {
  await run(QPDF, [WARNINGS, '--empty', '--pages', ...inputs, '--', output], { maxBuffer: 1024 * 1024 });
}
