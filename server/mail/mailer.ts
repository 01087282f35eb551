import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { AppConfig } from '../config';
import type { RenderedMail } from './content';

/**
 * Outgoing mail (DESIGN.md section 3): SMTP when SMTP_URL is set; otherwise each message is
 * written to DATA_DIR/outbox as an .eml file and its links are logged, so a newcomer can follow
 * a verification link without any mail server.
 */

export type MailMessage = {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The links the message carries; logged in outbox mode so they can be opened at once. */
  links: string[];
};

export type Mailer = {
  send(message: MailMessage | RenderedMail, options?: { messageId?: string }): Promise<void>;
};

type Logger = { info(obj: object, msg: string): void };

/** Fail fast rather than hold a request open on a mail server that does not answer. */
const SMTP_TIMEOUT_MS = 10_000;

export function createMailer(
  config: Pick<AppConfig, 'smtpUrl' | 'mailFrom' | 'dataDir'>,
  log: Logger,
): Mailer {
  if (config.smtpUrl) return smtpMailer(config.smtpUrl, config.mailFrom);
  return outboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, log);
}

export function smtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url: smtpUrl,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    async send({ to, subject, text, html, ...rest }, options) {
      const headers = 'headers' in rest ? rest.headers : undefined;
      await transport.sendMail({ from, to, subject, text, html, headers, messageId: options?.messageId });
    },
  };
}

export function outboxMailer(dir: string, from: string, log: Logger): Mailer {
  // nodemailer's stream transport builds the exact MIME message SMTP would carry.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send({ to, subject, text, html, ...rest }, options) {
      const headers = 'headers' in rest ? rest.headers : undefined;
      const links = 'links' in rest ? rest.links : [];
      const info = await transport.sendMail({
        from,
        to,
        subject,
        text,
        html,
        headers,
        messageId: options?.messageId,
      });
      await mkdir(dir, { recursive: true });
      const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ to, subject, file, links }, 'mail written to the outbox (no SMTP_URL set)');
    },
  };
}
