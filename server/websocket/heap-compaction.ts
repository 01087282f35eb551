import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection after a storm of sockets.
 *
 * When thousands of clients connect at once (a deploy, a restart, a network blip), each one's
 * upgrade, context and first queries leave garbage that V8 promotes to its old generation while
 * the queries wait. V8 collects the old generation only when it needs room, so an idle server
 * kept that garbage, and the pages under it, for as long as nothing else allocated. What it buys
 * (`npm run bench -- websocket`, 2026-12-02): 10,000 subscribed sockets in 261 MB of server RSS
 * with it, 417 MB without (goal 300 MB); 5,000 in 210 MB against 264 (goal 220). The 10-minute
 * soak of 2,000 churning sockets stays within its goal either way (+6.0 % without it).
 *
 * So once a storm is over (many sockets opened or closed, then a quiet moment), the server asks
 * for one full, compacting collection: a pause, at a moment when nothing is waiting, at most
 * once per `minIntervalMs`. The collector is V8's own `gc`, exposed at run
 * time; where it cannot be (another engine), nothing happens.
 */

type Collect = () => void;

let collector: Collect | null | undefined;

/**
 * V8's most thorough collection, or null where V8's gc cannot be exposed.
 *
 * The collection V8 runs before it gives up for lack of memory,
 * gc({type: 'major', execution: 'sync', flavor: 'last-resort'}), collects while reducing memory:
 * every page is evacuated and the empty ones are given back. A probe shaped like the unit test
 * (a million small objects, one in ten kept) on Node 24's V8 (13.6): 20 MiB of heap and 75 MiB
 * RSS after it, where a plain gc() with `--compact-on-every-full-gc` set for it left 83 to 156 MiB
 * of heap and 235 to 250 MiB RSS, with pauses alike (110 to 560 ms each on a busy two-core
 * machine). That flag was the way on Node 20's V8 (11.3), where the options form did not even
 * free the garbage; heap-compaction.unit.test.ts checks the effect, not the call.
 */
export function fullCollector(): Collect | null {
  if (collector !== undefined) return collector;
  try {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as unknown;
    collector =
      typeof gc === 'function'
        ? () => (gc as (options: object) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' })
        : null;
  } catch {
    collector = null;
  }
  return collector;
}

export type HeapCompactionOptions = {
  /** Socket openings and closings that make a storm. */
  churn: number;
  /** How long it must be quiet (no socket opened or closed) before collecting. */
  quietMs: number;
  /** The least time between two collections. */
  minIntervalMs: number;
  /** A storm that never goes quiet (steady churn) is collected this long after it began. */
  maxWaitMs: number;
};

export const DEFAULT_HEAP_COMPACTION: HeapCompactionOptions = {
  churn: 500,
  quietMs: 2_000,
  minIntervalMs: 10_000,
  maxWaitMs: 30_000,
};

export class HeapCompaction {
  private churned = 0;
  /** When the churn counted now began (0: none counted since the last collection). */
  private stormStartedAt = 0;
  private lastCollectedAt = 0;
  private timer: NodeJS.Timeout | undefined;
  /** Collections run so far (the tests read it). */
  collections = 0;

  constructor(
    private readonly options: HeapCompactionOptions = DEFAULT_HEAP_COMPACTION,
    private readonly collect: Collect | null = fullCollector(),
  ) {}

  /** A socket opened or closed. */
  noteChurn(): void {
    if (!this.collect) return;
    if (this.churned === 0) this.stormStartedAt = Date.now();
    this.churned += 1;
    if (this.churned < this.options.churn) return;
    // Each new event restarts the wait, so the collection comes when the storm is over; a storm
    // that goes on (sockets replaced all day) is collected anyway after maxWaitMs.
    const waited = Date.now() - this.stormStartedAt;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.run(), waited >= this.options.maxWaitMs ? 0 : this.options.quietMs);
    this.timer.unref();
  }

  private run(): void {
    this.timer = undefined;
    const wait = this.lastCollectedAt + this.options.minIntervalMs - Date.now();
    if (wait > 0) {
      this.timer = setTimeout(() => this.run(), wait);
      this.timer.unref();
      return;
    }
    this.churned = 0;
    this.stormStartedAt = 0;
    this.lastCollectedAt = Date.now();
    this.collections += 1;
    this.collect?.();
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
