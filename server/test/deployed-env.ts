/**
 * The environment and Node flags the server runs with where it is deployed: `npm start`
 * (package.json) and the Docker image (Dockerfile) set these, so the benchmarks that measure the
 * built server's memory start it the same way (deployed-env.unit.test.ts keeps the three in step).
 *
 * - MALLOC_ARENA_MAX=1: one glibc malloc heap for every thread. V8's compiler and GC threads
 *   left 9 to 59 MiB (it varied run to run) in a second arena that was never given back; with one
 *   heap, 10,000 subscribed sockets measured 273 MiB instead of 295 (bench d), and the list
 *   benchmark's CPU per answer stayed within its noise (1.63x raw with 1, 1.70x with 2).
 * - MALLOC_MMAP_THRESHOLD_=131072: glibc's default threshold rises to the size of the largest
 *   block freed, so after the first argon2 hash (19 MiB, on libuv's threads) such blocks come
 *   from an arena and stay resident after they are freed; a fixed threshold keeps blocks of
 *   128 KiB and more in mappings of their own that free gives back. Measured on the idle server:
 *   211 MiB without it, 148 MiB with it (docs/PERFORMANCE.md, the WebSocket goals).
 */
export const DEPLOYED_ENV: Readonly<Record<string, string>> = {
  MALLOC_ARENA_MAX: '1',
  MALLOC_MMAP_THRESHOLD_: '131072',
};

/**
 * --v8-pool-size=1: one V8 worker thread instead of four. The workers' compile jobs and GC
 * worklists all come from the one malloc heap, and four at once left it about 52 MiB after start
 * against about 35 MiB with one (five probes each; bench d: 10,000 sockets 266 -> 241 MiB, 5,000
 * 214 -> 190 MiB). The cost is less parallel GC. The list benchmark measured 1.71x and 1.82x
 * raw's CPU per answer in two runs with it, against 1.63x to 1.74x in runs without, and tRPC's
 * throughput 0.79 and 0.81 of raw, against 0.80 to 0.88. That is within the spread of runs on
 * this shared machine, but on the low side. A machine with more cores runs more instances
 * rather than more V8 threads (docs/DEPLOYMENT.md: 1 to 2 vCPU an instance).
 *
 * --max-semi-space-size=4: V8's young generation grows to two 16 MiB halves by default, and an
 * idle server keeps them; 4 MiB halves keep about 24 MiB less resident. Measured on the list
 * benchmark (bench/api-list.bench.ts, CPU per answer, default 658 µs): 4 MiB 673 µs, within the
 * run's noise; 2 MiB 739 µs, 12% more, so not smaller.
 */
export const DEPLOYED_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--v8-pool-size=1'];

/** How a benchmark starts the built server as it is deployed: these flags, no source maps. */
export const DEPLOYED_SERVER_OPTIONS = { sourceMaps: false, nodeFlags: DEPLOYED_NODE_FLAGS } as const;
