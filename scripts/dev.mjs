#!/usr/bin/env node
/**
 * `npm run dev`: the API (tsx watch) and the Vite dev server side by side, output prefixed, and
 * both stopped together when either exits or this script is interrupted.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const apiPort = process.env.API_PORT ?? '3000';
// Children write to pipes, not a terminal, so they would drop colors unless told otherwise.
const color = process.stdout.isTTY ? { FORCE_COLOR: '1' } : {};

const tasks = [
  {
    name: 'api',
    args: ['tsx', 'watch', 'server/main.ts'],
    env: { NODE_ENV: 'development', PORT: apiPort },
    color: 36,
  },
  // API_PORT reaches vite.config.ts, whose proxy must target the port the API listens on.
  { name: 'web', args: ['vite'], env: { API_PORT: apiPort }, color: 35 },
];

const width = Math.max(...tasks.map((task) => task.name.length));
const children = [];
let stopping = false;
let exitCode = 0;

function prefixed(name, code) {
  const label = `[${name}]`.padEnd(width + 2);
  return process.stdout.isTTY ? `\u001b[${code}m${label}\u001b[0m` : label;
}

function pipeLines(stream, out, prefix) {
  createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
    out.write(`${prefix} ${line}\n`);
  });
}

// npx runs the real program as its own child (tsx watch even adds a grandchild), so signals go
// to the whole process group; a signal to npx alone could leave the server holding its port.
function signalGroup(child, signal) {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

function stop(code) {
  if (stopping) return;
  stopping = true;
  exitCode = code;
  process.exitCode = code;
  for (const child of children) signalGroup(child, 'SIGTERM');
  setTimeout(() => {
    for (const child of children) signalGroup(child, 'SIGKILL');
    process.exit(exitCode);
  }, 5000).unref();
}

let running = tasks.length;
for (const task of tasks) {
  const prefix = prefixed(task.name, task.color);
  const child = spawn('npx', task.args, {
    env: { ...process.env, ...color, ...task.env },
    // Own process group (see signalGroup). stdin is not shared: a background group reading the
    // terminal would be stopped by SIGTTIN.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  pipeLines(child.stdout, process.stdout, prefix);
  pipeLines(child.stderr, process.stderr, prefix);
  child.on('error', (error) => {
    process.stderr.write(`${prefix} failed to start: ${error.message}\n`);
    stop(1);
  });
  child.on('exit', (code, signal) => {
    process.stdout.write(`${prefix} exited with ${signal ?? `code ${code}`}\n`);
    // Whichever stops first decides the exit status; the other was only stopped by us.
    stop(code ?? 1);
  });
  // 'close' (pipes drained, and it follows a failed spawn too) rather than 'exit', so no output
  // is cut off.
  child.on('close', () => {
    running -= 1;
    if (running === 0) process.exit(exitCode);
  });
}

process.on('SIGINT', () => stop(130));
process.on('SIGTERM', () => stop(143));
