import type { Clock } from '../deps';

/**
 * The sign-in, registration, reset and refresh limits of DESIGN.md section 4. They are checked
 * before any password is hashed, so a flood of guesses costs us a map lookup, not argon2.
 *
 * Fixed windows per key, kept in this process: simple and enough for one instance. With several
 * instances each keeps its own counts, so the effective limit is multiplied by their number
 * (noted in docs/ARCHITECTURE.md).
 */

export type LimitRule = { max: number; windowMs: number };

const MINUTE = 60_000;

export const AUTH_LIMITS = {
  /** Failed sign-ins for one account from one address. */
  loginFailuresPerAccount: { max: 10, windowMs: 15 * MINUTE },
  /** Every sign-in attempt from one address. */
  loginPerIp: { max: 100, windowMs: 15 * MINUTE },
  registerPerIp: { max: 20, windowMs: 60 * MINUTE },
  /** Reset and verification-resend requests for one address, and from one IP. */
  resetPerEmail: { max: 5, windowMs: 15 * MINUTE },
  resetPerIp: { max: 30, windowMs: 15 * MINUTE },
  refreshPerIp: { max: 60, windowMs: 15 * MINUTE },
} as const satisfies Record<string, LimitRule>;

export type LimitName = keyof typeof AUTH_LIMITS;

type Window = { count: number; resetsAt: number };

/** Beyond this many live keys, expired windows are swept on the next write. */
const SWEEP_THRESHOLD = 10_000;

export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    private readonly clock: Clock,
    private readonly rules: Record<LimitName, LimitRule> = AUTH_LIMITS,
  ) {}

  /** True when the key has used up its window: the caller answers 429 and does nothing else. */
  isLimited(name: LimitName, key: string): boolean {
    const window = this.current(name, key);
    return window !== undefined && window.count >= this.rules[name].max;
  }

  /** Counts one event against the key. */
  hit(name: LimitName, key: string): void {
    const now = this.clock.now().getTime();
    const window = this.current(name, key);
    if (window) {
      window.count += 1;
      return;
    }
    if (this.windows.size >= SWEEP_THRESHOLD) this.sweep(now);
    this.windows.set(`${name}\u0000${key}`, { count: 1, resetsAt: now + this.rules[name].windowMs });
  }

  /** Checks and counts in one step: false when the limit was already reached. */
  take(name: LimitName, key: string): boolean {
    if (this.isLimited(name, key)) return false;
    this.hit(name, key);
    return true;
  }

  /** How many windows are held in memory (bounded by the sweep). */
  get trackedKeys(): number {
    return this.windows.size;
  }

  reset(name: LimitName, key: string): void {
    this.windows.delete(`${name}\u0000${key}`);
  }

  private current(name: LimitName, key: string): Window | undefined {
    const id = `${name}\u0000${key}`;
    const window = this.windows.get(id);
    if (window && window.resetsAt <= this.clock.now().getTime()) {
      this.windows.delete(id);
      return undefined;
    }
    return window;
  }

  private sweep(now: number): void {
    for (const [id, window] of this.windows) if (window.resetsAt <= now) this.windows.delete(id);
  }
}
