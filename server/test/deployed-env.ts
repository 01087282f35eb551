/**
 * The environment the server runs with where it is deployed: `npm start` (package.json) and the
 * Docker image (Dockerfile) set these, so the benchmarks that measure the built server's memory
 * start it the same way (deployed-env.unit.test.ts keeps the three in step).
 *
 * - MALLOC_ARENA_MAX=2: fewer glibc malloc arenas for V8's and libuv's threads.
 * - MALLOC_MMAP_THRESHOLD_=131072: glibc's default threshold rises to the size of the largest
 *   block freed, so after the first argon2 hash (19 MiB, on libuv's threads) such blocks come
 *   from an arena and stay resident after they are freed; a fixed threshold keeps blocks of
 *   128 KiB and more in mappings of their own that free gives back. Measured on the idle server:
 *   211 MiB without it, 148 MiB with it (docs/PERFORMANCE.md section d).
 */
export const DEPLOYED_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
};
