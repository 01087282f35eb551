import { readFile, stat } from 'node:fs/promises';
import { NotAnArchiveError, PublicKeyError, verifyArchive } from '../server/archive/verify';

/**
 * Checks a closed file's archive offline: `npx tsx scripts/verify-archive.ts file.zip
 * --public-key key.pem`. Needs only the zip and the installation's public key (GET
 * /api/archive/public-key): no database, no server. Prints each problem; exits 0 when the
 * archive is valid, 1 when it is not (or is not a zip), 2 on a usage error.
 */

const USAGE = 'usage: npx tsx scripts/verify-archive.ts <archive.zip> --public-key <key.pem>';

function argumentsOf(argv: readonly string[]): { zip: string; keyFile: string } | null {
  const rest = [...argv];
  let keyFile: string | undefined;
  const zips: string[] = [];
  while (rest.length > 0) {
    const arg = rest.shift() as string;
    if (arg === '--public-key') keyFile = rest.shift();
    else if (arg.startsWith('--public-key=')) keyFile = arg.slice('--public-key='.length);
    else if (arg.startsWith('-')) return null;
    else zips.push(arg);
  }
  const [zip] = zips;
  if (zips.length !== 1 || !zip || !keyFile) return null;
  return { zip, keyFile };
}

async function main(): Promise<number> {
  const args = argumentsOf(process.argv.slice(2));
  if (!args) {
    console.error(USAGE);
    return 2;
  }
  let publicKey: string;
  try {
    publicKey = await readFile(args.keyFile, 'utf8');
  } catch {
    console.error(`Cannot read the public key ${args.keyFile}\n${USAGE}`);
    return 2;
  }
  if (!(await stat(args.zip).catch(() => null))?.isFile()) {
    console.error(`Cannot read ${args.zip}\n${USAGE}`);
    return 2;
  }
  try {
    const verdict = await verifyArchive(args.zip, publicKey);
    for (const problem of verdict.problems) process.stdout.write(`${problem}\n`);
    const count = verdict.problems.length;
    process.stdout.write(
      verdict.valid ? `${args.zip}: valid\n` : `${args.zip}: invalid (${count} problems)\n`,
    );
    return verdict.valid ? 0 : 1;
  } catch (error) {
    if (error instanceof PublicKeyError) {
      console.error(`${args.keyFile}: ${error.message}`);
      return 2;
    }
    if (error instanceof NotAnArchiveError) {
      console.error(`${args.zip}: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

process.exitCode = await main();
