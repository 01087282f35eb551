import { readFile } from 'node:fs/promises';
import type { Goal } from './benchmark';
import { median, round } from './stats';

/**
 * The resident memory and CPU time of another process (the server under test), read from /proc
 * as a supervisor would see them: what the kernel charges the process, heap and buffers alike.
 */

const MIB = 2 ** 20;

/** VmRSS of the process, in bytes (Linux only). */
export async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const match = status.match(/^VmRSS:\s+(\d+)\s+kB$/m);
  if (!match?.[1]) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

export const mib = (bytes: number) => bytes / MIB;

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time the process has used so far (user + system), in ms, at 10 ms resolution. On a shared
 * machine it says what a step cost the process, whatever else was running: wall time does not.
 */
export async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces) start after its closing bracket.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const userTicks = Number(fields[11]);
  const systemTicks = Number(fields[12]);
  return ((userTicks + systemTicks) * 1000) / TICKS_PER_SECOND;
}

/**
 * Samples the process's RSS every `everyMs` until stopped; the samples say how high it went
 * while something ran, which one reading before and one after would miss.
 */
export function sampleRss(pid: number, everyMs = 25): { stop(): Promise<number[]> } {
  const samples: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      samples.push(await rssBytes(pid));
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      samples.push(await rssBytes(pid));
      return samples;
    },
  };
}

export type MemoryMap = {
  /** Mapped files: the node binary and shared libraries (shared with other processes). */
  files: number;
  /** The main thread's malloc heap ([heap]). */
  mainMallocHeap: number;
  /** glibc's per-thread malloc arenas: anonymous mappings starting on a 64 MiB boundary. */
  threadMallocArenas: number;
  /** Every other anonymous mapping: V8's heap pages and JIT code, thread stacks, large mallocs. */
  otherAnonymous: number;
};

/** 64 MiB: glibc aligns every per-thread arena heap to its maximum size. */
const ARENA_ALIGNMENT = 64 * MIB;

/**
 * Where the process's resident memory lies, by mapping (/proc/<pid>/smaps). A heuristic, but a
 * useful one: it separates what V8 holds from what the C allocator keeps for its threads.
 */
export async function memoryMap(pid: number): Promise<MemoryMap> {
  const text = await readFile(`/proc/${pid}/smaps`, 'utf8');
  const map: MemoryMap = { files: 0, mainMallocHeap: 0, threadMallocArenas: 0, otherAnonymous: 0 };
  let bucket: keyof MemoryMap = 'otherAnonymous';
  for (const line of text.split('\n')) {
    const header = line.match(/^([0-9a-f]+)-[0-9a-f]+\s+\S+\s+\S+\s+\S+\s+\S+\s*(.*)$/);
    if (header) {
      const start = Number.parseInt(header[1] ?? '0', 16);
      const name = header[2] ?? '';
      if (name === '[heap]') bucket = 'mainMallocHeap';
      else if (name.startsWith('/')) bucket = 'files';
      else if (name === '' && start % ARENA_ALIGNMENT === 0 && start >= 2 ** 46)
        bucket = 'threadMallocArenas';
      else bucket = 'otherAnonymous';
      continue;
    }
    const rss = line.match(/^Rss:\s+(\d+) kB$/);
    if (rss) map[bucket] += Number(rss[1]) * 1024;
  }
  return map;
}

/**
 * The goal "the server's RSS grows by less than `goalMib` while it streams": each run's peak
 * against its RSS before, the worst run deciding. Shared by the streaming benchmarks (upload,
 * CSV export), which measure the same thing of different streams.
 */
export function rssGrowthGoal(
  name: string,
  goalMib: number,
  runs: ReadonlyArray<{ rssBefore: number; rssPeak: number }>,
  what: string,
): { goal: Goal; growth: number[]; worstGrowth: number } {
  const growth = runs.map((run) => mib(run.rssPeak - run.rssBefore));
  const worstGrowth = Math.max(...growth);
  const met = worstGrowth < goalMib;
  return {
    growth,
    worstGrowth,
    goal: {
      name,
      goal: `< ${goalMib} MB`,
      baseline: `RSS before each ${what} (median ${round(mib(median(runs.map((run) => run.rssBefore))), 0)} MiB)`,
      measured: `${round(worstGrowth, 1)} MiB at worst (median ${round(median(growth), 1)} MiB)`,
      met,
      figures: [{ value: worstGrowth, threshold: goalMib, unit: 'MB', better: 'lower' }],
      ...(met
        ? {}
        : { gap: `the server holds more of the ${what} than its stream buffers; see the table per round.` }),
    },
  };
}
