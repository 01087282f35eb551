import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../server/paths';
import { LAYERING_PROBE_PREFIX } from './import-graph';

/**
 * The layering rules of docs/ARCHITECTURE.md are Biome rules (biome.json, noRestrictedImports
 * overrides), so `npm run lint` in CI enforces them. This proves they bite: a probe file with a
 * forbidden import, written where the rule applies, fails the lint; the same file with a
 * permitted import passes. The probes live for the length of one lint run and are removed.
 */

const run = promisify(execFile);
const BIOME = path.join(PROJECT_ROOT, 'node_modules', '.bin', 'biome');

async function lint(relativePath: string, source: string): Promise<{ ok: boolean; output: string }> {
  const file = path.join(
    PROJECT_ROOT,
    relativePath.replace('PROBE', `${LAYERING_PROBE_PREFIX}${randomUUID()}`),
  );
  await writeFile(file, source);
  try {
    const { stdout, stderr } = await run(BIOME, ['lint', '--colors=off', file], { cwd: PROJECT_ROOT });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { ok: false, output: stdout + stderr };
  } finally {
    await rm(file, { force: true });
  }
}

const module = (imports: string) => `${imports}\n\nexport const probe = [thing];\n`;

describe('layering rules (biome.json, enforced by npm run lint)', () => {
  it.each([
    ["import { thing } from 'fastify';", 'services know nothing of HTTP'],
    ["import { thing } from '@trpc/server';", 'nor of tRPC'],
    ["import { thing } from '@trpc/server/unstable-core-do-not-import';", 'nor of its internals'],
    ["import { thing } from '../rest/adapter';", 'the REST adapter is above them'],
    ["import { thing } from '../routers/users';", 'so are the routers'],
    ["import { thing } from '../trpc/init';", 'and tRPC’s setup'],
    ["import { thing } from '../../plugins/uploads';", 'and the plugins'],
    ["import { thing } from '../jobs/engine';", 'and the job engine, which runs services'],
    ["import { thing } from '../websocket/live-sockets';", 'and the WebSocket server'],
  ])('server/services refuses %s (%s)', async (imports) => {
    const { ok, output } = await lint('server/services/PROBE.ts', module(imports));
    expect(ok, output).toBe(false);
    expect(output).toContain('lint/style/noRestrictedImports');
  });

  it.each([
    ['server/queue/PROBE.ts', "import { thing } from '../services/context';", 'services are above the queue'],
    ['server/queue/PROBE.ts', "import { thing } from '../jobs/tasks';", 'so is the job engine'],
    ['server/realtime/PROBE.ts', "import { thing } from '../services/notifications';", 'and above the bus'],
    [
      'server/realtime/PROBE.ts',
      "import { thing } from '../websocket/live-sockets';",
      'the WebSocket server too',
    ],
    ['server/realtime/PROBE.ts', "import { thing } from '../trpc/context';", 'and tRPC'],
    ['server/storage/PROBE.ts', "import { thing } from '../routers/users';", 'every mechanism alike'],
  ])('%s refuses %s (%s)', async (where, imports) => {
    const { ok, output } = await lint(where, module(imports));
    expect(ok, output).toBe(false);
    expect(output).toContain('lint/style/noRestrictedImports');
  });

  it.each([
    ["import { thing } from '../../layout/breakpoints';", 'the layout is above the components'],
    ["import { thing } from '../../pages/Dashboard';", 'so are the pages'],
  ])('client/components refuses %s (%s)', async (imports) => {
    const { ok, output } = await lint('client/components/transactions/PROBE.tsx', module(imports));
    expect(ok, output).toBe(false);
    expect(output).toContain('lint/style/noRestrictedImports');
  });

  it.each([
    ["import { thing } from '../../server/errors';", 'server code'],
    ["import { thing } from '../client/trpc';", 'client code'],
    ["import { thing } from 'react';", 'a browser library'],
    ["import { thing } from 'node:fs';", 'a Node built-in'],
  ])('shared refuses %s (%s)', async (imports) => {
    const { ok, output } = await lint('shared/schemas/PROBE.ts', module(imports));
    expect(ok, output).toBe(false);
    expect(output).toContain('lint/style/noRestrictedImports');
  });

  // One lint run each: a dozen in one test outlast its time limit on a busy machine.
  it.each([
    ['server/services/PROBE.ts', "import { thing } from '../db/client';"],
    ['server/services/PROBE.ts', "import { thing } from './context';"],
    ['shared/schemas/PROBE.ts', "import { thing } from 'zod';"],
    ['shared/schemas/PROBE.ts', "import { thing } from '../messages';"],
    // The routers may import tRPC: the rule is for the services only.
    ['server/routers/PROBE.ts', "import { thing } from '@trpc/server';"],
    // Services add jobs and publish on the bus below them; the engine runs services from above.
    ['server/services/PROBE.ts', "import { thing } from '../queue/enqueue';"],
    ['server/services/PROBE.ts', "import { thing } from '../realtime/bus';"],
    ['server/jobs/PROBE.ts', "import { thing } from '../services/mail';"],
    ['server/websocket/PROBE.ts', "import { thing } from '../trpc/internals';"],
    ['client/components/transactions/PROBE.tsx', "import { thing } from '../../breakpoints';"],
    ['client/components/transactions/PROBE.tsx', "import { thing } from '../../../shared/intake/pages';"],
  ] as const)('permits what each layer may use: %s %s', async (where, imports) => {
    const { ok, output } = await lint(where, module(imports));
    expect(ok, `${where}: ${imports}\n${output}`).toBe(true);
  });
});
