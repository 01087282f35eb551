import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/**
 * A real SMTP server (smtp-server) on a free loopback port for mail tests: the app sends through
 * nodemailer over a socket exactly as in production, and the test reads what arrived.
 */

export type ReceivedMail = {
  /** RCPT TO addresses of the envelope. */
  to: string[];
  subject: string;
  text: string;
  html: string;
  raw: string;
  /** The Message-ID header as sent (with its angle brackets). */
  messageId: string;
};

export type SmtpInboxOptions = {
  /** Listen on this port (a test that closes the inbox and opens it again keeps its URL). */
  port?: number;
  /**
   * A slow mail server: each message waits this long after its data has arrived and before the
   * inbox keeps it and answers 250. A client that is gone by then (killed mid-send) never
   * receives the 250, so the message is dropped as a real server would drop an unfinished one.
   */
  acceptDelayMs?: number;
  /**
   * false: keep each message raw (recipients and Message-ID only, subject and bodies empty),
   * without mailparser: a benchmark receiving thousands of mails spends no CPU on parsing.
   */
  parse?: boolean;
};

export type SmtpInbox = {
  url: string;
  messages: ReceivedMail[];
  /** How many SMTP connections clients have opened so far. */
  readonly connections: number;
  /** Messages whose data has arrived and that wait out acceptDelayMs (mid-send, for the client). */
  receiving(): number;
  /** Messages dropped because their client went away before the 250 (acceptDelayMs). */
  dropped(): number;
  /** SMTP connections open now. */
  openConnections(): number;
  /**
   * Keeps every message that finishes its acceptDelayMs from here on waiting, with no 250, until
   * releaseAnswers(). A test that kills the client uses it to kill outside the window SMTP
   * cannot close: a 250 on the wire while the client dies delivers a mail the client never
   * learns was sent, and it is sent again (the same Message-ID each time, for the receiver).
   */
  holdAnswers(): void;
  /** Answers the held messages: kept if their client is still there, dropped if it went away. */
  releaseAnswers(): void;
  /** Resolves with the next message to `to` (already received or still to come). */
  waitFor(to: string, options?: { timeoutMs?: number; after?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
};

export async function startSmtpInbox(options: SmtpInboxOptions = {}): Promise<SmtpInbox> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let connections = 0;
  let holding = false;
  const held: (() => void)[] = [];
  const closedSessions = new Set<string>();
  let receiving = 0;
  let dropped = 0;
  const acceptDelayMs = options.acceptDelayMs ?? 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // The app's SMTP mailer keeps pooled connections open for a while after its last mail:
    // close() ends them after 100 ms rather than smtp-server's default 30 s.
    closeTimeout: 100,
    onConnect(_session, callback) {
      connections++;
      callback();
    },
    onClose(session) {
      closedSessions.add(session.id);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const keep = () => {
          receiving--;
          if (closedSessions.has(session.id)) {
            dropped++;
            return callback(new Error('the client went away'));
          }
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          if (options.parse === false) {
            const messageId = raw.match(/^Message-ID:\s*(<[^>\r\n]*>)/im)?.[1] ?? '';
            messages.push({ to, subject: '', text: '', html: '', raw: '', messageId });
            for (const wake of waiters) wake();
            return callback();
          }
          simpleParser(raw)
            .then((parsed: ParsedMail) => {
              messages.push({
                to,
                subject: parsed.subject ?? '',
                text: parsed.text ?? '',
                html: typeof parsed.html === 'string' ? parsed.html : '',
                raw,
                messageId: parsed.messageId ?? '',
              });
              for (const wake of waiters) wake();
              callback();
            })
            .catch(callback);
        };
        const answer = () => (holding ? held.push(keep) : keep());
        receiving++;
        if (acceptDelayMs > 0) setTimeout(answer, acceptDelayMs);
        else answer();
      });
    },
  });
  // A client killed mid-send resets its connection: an ordinary event here, not a test failure.
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    get connections() {
      return connections;
    },
    receiving: () => receiving,
    dropped: () => dropped,
    // Every connection's session closes once: those opened and not closed yet.
    openConnections: () => connections - closedSessions.size,
    holdAnswers() {
      holding = true;
    },
    releaseAnswers() {
      holding = false;
      for (const keep of held.splice(0)) keep();
    },
    waitFor(to, { timeoutMs = 5_000, after = 0 } = {}) {
      const find = () => messages.slice(after).find((m) => m.to.includes(to.toLowerCase()));
      return new Promise((resolve, reject) => {
        const found = find();
        if (found) return resolve(found);
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`No mail to ${to} within ${timeoutMs} ms`));
        }, timeoutMs);
        function check() {
          const message = find();
          if (!message) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(message);
        }
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a message's text that starts with the given base (e.g. APP_URL/auth/...). */
export function linkIn(text: string, prefix: string): string {
  const escaped = prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = text.match(new RegExp(`${escaped}[^\\s"<>]+`));
  if (!match) throw new Error(`No link starting with ${prefix} in:\n${text}`);
  return match[0];
}
