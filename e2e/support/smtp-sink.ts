import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';

/**
 * The browser suite's mail server: a real SMTP server the portal under test sends to
 * over a socket, as in production, through its outbox, jobs and retries. Each message it
 * accepts is written, exactly as received, to the folder the tests read (E2E_OUTBOX).
 *
 * Usage: tsx e2e/support/smtp-sink.ts <port> <folder>
 */

const [portText, folder] = process.argv.slice(2);
const port = Number(portText);
if (!Number.isInteger(port) || !folder) {
  process.stderr.write('usage: smtp-sink.ts <port> <folder>\n');
  process.exit(2);
}
mkdirSync(folder, { recursive: true });

let received = 0;
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  closeTimeout: 100,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received++;
      // Named so that a plain sort is the order of arrival.
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${String(received).padStart(6, '0')}.eml`;
      writeFileSync(path.join(folder, name), Buffer.concat(chunks));
      callback();
    });
  },
});
server.listen(port, '127.0.0.1', () =>
  process.stdout.write(`smtp sink on 127.0.0.1:${port}, writing to ${folder}\n`),
);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => server.close(() => process.exit(0)));
