import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../paths';

/**
 * docs/PERFORMANCE.md is written by more than one benchmark: each owns the section between its
 * `<!-- name:start -->` and `<!-- name:end -->` markers and replaces only that, so runs of one
 * never disturb the figures of another.
 */

export const PERFORMANCE_DOC = path.join(PROJECT_ROOT, 'docs', 'PERFORMANCE.md');

const INTRO = `# Performance

Figures measured by the project's own benchmarks, each section written by the run named in it
(never edited by hand: rerun the command instead). They describe the machine they were measured
on; compare runs on the same machine only.
`;

/** The text with the named section replaced (or appended when it has none yet). */
export function withSection(text: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const section = `${start}\n${body.trim()}\n${end}`;
  const from = text.indexOf(start);
  const to = text.indexOf(end, from);
  if (from !== -1 && to !== -1) return text.slice(0, from) + section + text.slice(to + end.length);
  return `${text.trimEnd()}\n\n${section}\n`;
}

/**
 * Writes `body` as the named section of docs/PERFORMANCE.md, creating the file when missing, then
 * lets Biome format it (it aligns Markdown tables), so `npm run lint` stays clean after a run.
 */
export async function writePerformanceSection(
  name: string,
  body: string,
  file = PERFORMANCE_DOC,
): Promise<void> {
  const current = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return INTRO;
    throw error;
  });
  await writeFile(file, withSection(current, name, body));
  const biome = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');
  await promisify(execFile)(biome, ['format', '--write', file], { cwd: PROJECT_ROOT });
}
