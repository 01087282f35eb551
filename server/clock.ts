/**
 * A source of the current time; tests pass a fixed or advancing clock. A module of its own, since
 * the storage drivers and the rate limits need it and server/deps.ts (which names them) must not
 * be imported back by them.
 */
export type Clock = { now(): Date };

export const systemClock: Clock = { now: () => new Date() };
