import { describe, expect, it } from 'vitest';
import { TestClock } from '../test/harness';
import { AUTH_LIMITS, RateLimiter } from './rate-limits';

describe('RateLimiter', () => {
  it('allows exactly `max` events per window, then refuses until the window ends', () => {
    const clock = new TestClock();
    const limiter = new RateLimiter(clock);
    const { max, windowMs } = AUTH_LIMITS.registerPerIp;
    for (let i = 0; i < max; i++) expect(limiter.take('registerPerIp', '10.0.0.1')).toBe(true);
    expect(limiter.take('registerPerIp', '10.0.0.1')).toBe(false);
    expect(limiter.isLimited('registerPerIp', '10.0.0.1')).toBe(true);

    clock.advance(windowMs - 1);
    expect(limiter.take('registerPerIp', '10.0.0.1')).toBe(false);
    clock.advance(1);
    expect(limiter.take('registerPerIp', '10.0.0.1')).toBe(true);
  });

  it('keeps keys and limits apart', () => {
    const limiter = new RateLimiter(new TestClock());
    for (let i = 0; i < AUTH_LIMITS.refreshPerIp.max; i++) limiter.hit('refreshPerIp', 'a');
    expect(limiter.isLimited('refreshPerIp', 'a')).toBe(true);
    expect(limiter.isLimited('refreshPerIp', 'b')).toBe(false);
    expect(limiter.isLimited('registerPerIp', 'a')).toBe(false);
  });

  it('reset clears one key at once', () => {
    const limiter = new RateLimiter(new TestClock());
    for (let i = 0; i < AUTH_LIMITS.loginFailuresPerAccount.max; i++)
      limiter.hit('loginFailuresPerAccount', 'k');
    expect(limiter.isLimited('loginFailuresPerAccount', 'k')).toBe(true);
    limiter.reset('loginFailuresPerAccount', 'k');
    expect(limiter.isLimited('loginFailuresPerAccount', 'k')).toBe(false);
  });

  it('sweeps expired windows so a flood of distinct keys does not grow memory without bound', () => {
    const clock = new TestClock();
    const limiter = new RateLimiter(clock);
    for (let i = 0; i < 10_000; i++) limiter.hit('refreshPerIp', `ip-${i}`);
    clock.advance(AUTH_LIMITS.refreshPerIp.windowMs);
    limiter.hit('refreshPerIp', 'newcomer');
    expect(limiter.trackedKeys).toBe(1);
  });
});
