import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppConfig } from '../config';
import type { RenderedMail } from './content';

/**
 * Outgoing mail: SMTP when SMTP_URL is set; otherwise each message is
 * written to DATA_DIR/outbox as an .eml file and its links are logged, so a newcomer can follow
 * a verification link without any mail server. Mails arrive rendered (server/mail/render.ts).
 */

export type SendOptions = {
  /**
   * A stable id for this mail (letters, digits, `. _ + = -`), sent as `Message-ID: <id@host of
   * APP_URL>`: a mail job passes its own id, so a retried mail keeps its Message-ID and a mail
   * server or client that saw the first attempt can tell it is the same mail.
   */
  messageId?: string;
};

export type Mailer = {
  send(mail: RenderedMail, options?: SendOptions): Promise<void>;
  /** Closes the pooled SMTP connections (tests, shutdown); idle ones close by themselves. */
  close?(): void;
};

/** @deprecated The old name of a rendered mail; build a MailContent and render it. */
export type MailMessage = RenderedMail;

type Logger = { info(obj: object, msg: string): void };

type MailerOptions = { appUrl?: string | undefined };

/** Fail fast rather than hold a job open on a mail server that does not answer. */
const SMTP_TIMEOUT_MS = 10_000;
/**
 * A reminder run queues thousands of mails: a few kept-open connections send them without a
 * TCP and TLS handshake each, and without opening more sockets than a relay lets one client have.
 */
const SMTP_POOL_CONNECTIONS = 3;
/** Closed with QUIT after this long unused, before the server or SMTP_TIMEOUT_MS drops them. */
const SMTP_POOL_IDLE_MS = 5_000;

export function createMailer(
  config: Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'dataDir'> & MailerOptions,
  log: Logger,
): Mailer {
  const options = { appUrl: config.appUrl };
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom, options);
  return outboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, log, options);
}

function messageIdHost(appUrl: string | undefined): string {
  if (!appUrl) return 'localhost';
  try {
    return new URL(appUrl).hostname.replace(/^\[|\]$/g, '') || 'localhost';
  } catch {
    return 'localhost';
  }
}

/** `<id@host>`, or undefined to let nodemailer make a random one. */
export function messageIdFor(id: string | undefined, appUrl: string | undefined): string | undefined {
  if (id === undefined) return undefined;
  if (!/^[A-Za-z0-9._+=-]{1,200}$/.test(id)) {
    throw new Error('A messageId may hold only letters, digits and . _ + = - (at most 200)');
  }
  return `<${id}@${messageIdHost(appUrl)}>`;
}

function envelope(from: string, mail: RenderedMail, options: SendOptions, appUrl: string | undefined) {
  const { to, subject, text, html, headers } = mail;
  const messageId = messageIdFor(options.messageId, appUrl);
  return { from, to, subject, text, html, headers, ...(messageId ? { messageId } : {}) };
}

export function smtpMailer(smtpUrl: string, from: string, { appUrl }: MailerOptions = {}): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: SMTP_POOL_CONNECTIONS,
    idleTimeout: SMTP_POOL_IDLE_MS,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send(mail, options = {}) {
      await transport.sendMail(envelope(from, mail, options, appUrl));
    },
    close() {
      transport.close();
    },
  };
}

export function outboxMailer(dir: string, from: string, log: Logger, { appUrl }: MailerOptions = {}): Mailer {
  // nodemailer's stream transport builds the exact MIME message SMTP would carry.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail, options = {}) {
      const info = await transport.sendMail(envelope(from, mail, options, appUrl));
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      const { to, subject, links = [] } = mail;
      log.info({ to, subject, file, links }, 'mail written to the outbox (no SMTP_URL set)');
    },
  };
}
