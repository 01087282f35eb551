import { Writable } from 'node:stream';
import { type Logger, type LoggerOptions, pino } from 'pino';

/** A pino logger whose lines a test can read: what would have gone to stdout, parsed. */
export function captureLogs(options: LoggerOptions = { level: 'info' }): {
  logger: Logger;
  lines: string[];
  entries: () => Array<Record<string, unknown>>;
} {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino(options, sink), lines, entries: () => lines.map((line) => JSON.parse(line)) };
}
