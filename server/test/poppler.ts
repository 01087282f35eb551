import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * Poppler's command-line tools, run on a PDF's bytes: what an independent reader makes of the
 * PDFs the portal writes. A missing tool fails the test, saying how to install it: a signature
 * no tool checked is not a tested signature.
 */

const run = promisify(execFile);

export type PopplerTool = 'pdfsig' | 'pdftotext' | 'pdfimages';

export async function poppler(tool: PopplerTool, pdf: Uint8Array, args: string[] = []): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'poppler-'));
  const file = path.join(dir, 'document.pdf');
  try {
    await writeFile(file, pdf);
    const trailing = tool === 'pdftotext' ? [file, '-'] : [file];
    const { stdout } = await run(tool, [...args, ...trailing], { maxBuffer: 16 * 1024 * 1024 }).catch(
      (error: NodeJS.ErrnoException & { stdout?: string; stderr?: string }) => {
        if (error.code === 'ENOENT') {
          throw new Error(`${tool} is not installed: apt-get install poppler-utils`);
        }
        // pdfsig exits non-zero for a signature it finds invalid; what it printed is the answer.
        if (typeof error.stdout === 'string' && error.stdout !== '') return { stdout: error.stdout };
        throw new Error(`${tool} failed: ${error.stderr ?? error.message}`);
      },
    );
    return stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text pdftotext reads on one page (1-based). */
export const pageText = (pdf: Uint8Array, page: number) =>
  poppler('pdftotext', pdf, ['-f', String(page), '-l', String(page), '-layout']);
