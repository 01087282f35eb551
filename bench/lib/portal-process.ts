import { startPortalApp } from './portal-app';

/**
 * The in-process portal of portal-app.ts, in a process of its own, for benchmarks that measure
 * the server's memory (/proc/<pid>/status) apart from the client reading its answers: no job
 * engine, so nothing runs on the dataset beside what the benchmark asks. Started by
 * startPortalProcess below with the database URL as its only argument; prints `listening on <url>`.
 */

async function main() {
  const url = process.argv[2];
  if (!url) throw new Error('usage: portal-process.ts <database url>');
  const portal = await startPortalApp(url);
  console.log(`listening on ${portal.baseUrl}`);
  process.once('SIGTERM', () => {
    portal.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
