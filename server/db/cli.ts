import { pino } from 'pino';
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb } from './client';
import { migrate } from './migrate';
import { seed } from './seed';
import { startDatabase } from './start';

/**
 * `npm run db:migrate` and `npm run db:seed` against DATABASE_URL, or against the embedded
 * PostgreSQL under DATA_DIR when it is unset (started for the command, stopped after).
 * `migrate-url <url> [migrations folder]` migrates exactly that database (tests, deploy scripts).
 */
async function run([command, url, migrationsDir]: string[]): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const log = pino({ level: config.logLevel });
  if (command === 'migrate-url' && url) {
    const result = await migrate(url, { log, ...(migrationsDir ? { dir: migrationsDir } : {}) });
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  if (command !== 'migrate' && command !== 'seed') {
    throw new ConfigError([`unknown command ${JSON.stringify(command)}: use migrate or seed`]);
  }
  const database = await startDatabase(config, log);
  try {
    const result = await migrate(database.url, { log });
    process.stdout.write(
      `Applied ${result.applied.length} migration(s); ${result.alreadyApplied.length} already applied\n`,
    );
    if (command === 'seed') {
      const db = createDb(database.url);
      try {
        const seeded = await seed(db, config, log);
        if (seeded.generatedPassword) {
          process.stdout.write(
            `Owner account created: ${config.adminEmail} with password ${seeded.generatedPassword}\n`,
          );
        } else if (!seeded.ownerCreated) {
          process.stdout.write('Already seeded: the owner account exists\n');
        }
      } finally {
        await db.$disconnect();
      }
    }
  } finally {
    await database.stop();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
