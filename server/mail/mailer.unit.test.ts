import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';
import type { MailContent } from './content';
import { createMailer, type Mailer, messageIdFor, outboxMailer, smtpMailer } from './mailer';
import { renderMail } from './render';
import { resetPasswordMessage, verifyEmailMessage } from './templates';

const FROM = 'Portal <no-reply@example.com>';
const LINK = 'http://localhost:3000/auth/verify-email/abcDEF123_-xyz';
const APP_URL = 'https://portal.example.com';

/** A reminder as the key-date job will queue it: a notification mail, so it can be unsubscribed. */
function reminder(to: string): MailContent {
  return {
    to,
    subject: 'Inspection deadline for 12 Main St is in 3 days',
    preview: 'Dec 1',
    greeting: 'Hello Ada,',
    paragraphs: ['Inspection deadline for 12 Main St is in 3 days (Dec 1).'],
    items: [{ text: 'Inspection deadline', when: 'Dec 1', link: `${APP_URL}/home/transactions/t1` }],
    action: { label: 'Open the transaction', url: `${APP_URL}/home/transactions/t1` },
    unsubscribe: {
      url: `${APP_URL}/api/notifications/unsubscribe/tok123`,
      page: `${APP_URL}/unsubscribe/tok123`,
      what: 'Key dates',
    },
  };
}

/** The header as it went over the wire, unfolded (nodemailer folds lines over 76 characters). */
function headerLine(parsed: ParsedMail, key: string): string | undefined {
  return parsed.headerLines.find((header) => header.key === key)?.line.replace(/\r?\n[ \t]+/g, ' ');
}

let inbox: SmtpInbox;
const mailers: Mailer[] = [];
function smtp(options?: { appUrl?: string }): Mailer {
  const mailer = smtpMailer(inbox.url, FROM, options);
  mailers.push(mailer);
  return mailer;
}
beforeAll(async () => {
  inbox = await startSmtpInbox();
});
afterAll(async () => {
  for (const mailer of mailers) mailer.close?.();
  await inbox.close();
});

describe('SMTP mailer', () => {
  it('delivers a plain-text and an HTML body carrying the link to a real SMTP server', async () => {
    await smtp().send(
      await renderMail(verifyEmailMessage({ to: 'Jane@Example.com', firstName: 'Jane', link: LINK })),
    );
    const mail = await inbox.waitFor('jane@example.com');
    expect(mail.subject).toBe('Verify your email for Brokerage Portal');
    expect(linkIn(mail.text, 'http://localhost:3000/auth/verify-email/')).toBe(LINK);
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.text).toContain('Hello Jane,');
    // An account mail is not a notification: nothing to unsubscribe from.
    expect(mail.raw).not.toMatch(/^List-Unsubscribe/im);
  });

  it('delivers a notification mail with both parts, the RFC 8058 headers and the given Message-ID', async () => {
    await smtp({ appUrl: `${APP_URL}/` }).send(await renderMail(reminder('notify@example.com')), {
      messageId: 'mail-job-42',
    });
    const received = await inbox.waitFor('notify@example.com');
    const parsed = await simpleParser(received.raw);

    expect(parsed.messageId).toBe('<mail-job-42@portal.example.com>');
    expect(headerLine(parsed, 'list-unsubscribe')).toBe(
      `List-Unsubscribe: <${APP_URL}/api/notifications/unsubscribe/tok123>`,
    );
    expect(headerLine(parsed, 'list-unsubscribe-post')).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    // multipart/alternative: the text part and the HTML part, the same content in each.
    expect(received.raw).toMatch(/Content-Type: multipart\/alternative/i);
    expect(parsed.text).toContain('Inspection deadline for 12 Main St is in 3 days (Dec 1).');
    expect(parsed.text).toContain(`Open the transaction: ${APP_URL}/home/transactions/t1`);
    expect(parsed.text).toContain(`Unsubscribe: ${APP_URL}/unsubscribe/tok123`);
    expect(parsed.html).toContain('Inspection deadline for 12 Main St is in 3 days (Dec 1).');
    expect(parsed.html).toContain(`href="${APP_URL}/unsubscribe/tok123"`);
  });

  it('gives a retried mail the same Message-ID, and mails without an id different ones', async () => {
    const mailer = smtp({ appUrl: APP_URL });
    const mail = await renderMail(reminder('retry@example.com'));
    await mailer.send(mail, { messageId: 'job-7' });
    await mailer.send(mail, { messageId: 'job-7' });
    await mailer.send(mail);
    await mailer.send(mail);
    await expect.poll(() => inbox.messages.filter((m) => m.to.includes('retry@example.com')).length).toBe(4);
    const ids = await Promise.all(
      inbox.messages
        .filter((m) => m.to.includes('retry@example.com'))
        .map(async (m) => (await simpleParser(m.raw)).messageId),
    );
    expect(ids.slice(0, 2)).toEqual(['<job-7@portal.example.com>', '<job-7@portal.example.com>']);
    expect(ids[2]).toMatch(/^<.+@.+>$/);
    expect(ids[3]).toMatch(/^<.+@.+>$/);
    expect(new Set(ids).size).toBe(3);
  });

  it('sends a burst of mails over a few pooled connections', async () => {
    const mailer = smtp();
    const before = inbox.connections;
    const mails = await Promise.all(
      Array.from({ length: 40 }, (_, index) => renderMail(reminder(`burst${index}@example.com`))),
    );
    await Promise.all(mails.map((mail) => mailer.send(mail)));
    for (let index = 0; index < 40; index++) await inbox.waitFor(`burst${index}@example.com`);
    // One connection per mail without the pool; at most SMTP_POOL_CONNECTIONS with it.
    expect(inbox.connections - before).toBeGreaterThan(0);
    expect(inbox.connections - before).toBeLessThanOrEqual(3);
  });

  it('refuses a messageId that could break out of the header', async () => {
    const mail = await renderMail(reminder('never@example.com'));
    await expect(smtp().send(mail, { messageId: 'x>\r\nBcc: victim@example.com' })).rejects.toThrow(
      /messageId/,
    );
    await expect(smtp().send(mail, { messageId: 'a@b' })).rejects.toThrow(/messageId/);
    expect(messageIdFor('job.1_a-B', undefined)).toBe('<job.1_a-B@localhost>');
    expect(messageIdFor('x', 'http://[::1]:3000')).toBe('<x@::1>');
    expect(messageIdFor(undefined, APP_URL)).toBeUndefined();
  });

  it('createMailer picks SMTP when SMTP_URL is set, and names APP_URL in the Message-ID', async () => {
    const mailer = createMailer(
      { smtpUrl: inbox.url, mailFrom: FROM, dataDir: '/nonexistent', appUrl: 'http://portal.test:3000' },
      { info() {} },
    );
    mailers.push(mailer);
    const link = 'http://localhost:3000/auth/new-password/token123';
    await mailer.send(
      await renderMail(resetPasswordMessage({ to: 'reset@example.com', firstName: 'Ray', link })),
      {
        messageId: 'reset-1',
      },
    );
    const mail = await inbox.waitFor('reset@example.com');
    expect(mail.subject).toBe('Reset your Brokerage Portal password');
    expect(linkIn(mail.text, 'http://localhost:3000/auth/new-password/')).toBe(link);
    expect((await simpleParser(mail.raw)).messageId).toBe('<reset-1@portal.test>');
  });

  it('rejects when the SMTP server cannot be reached, so the caller can report it', async () => {
    const closed = await startSmtpInbox();
    await closed.close();
    const mailer = smtpMailer(closed.url, FROM);
    mailers.push(mailer);
    await expect(
      mailer.send(await renderMail(verifyEmailMessage({ to: 'x@example.com', firstName: 'X', link: LINK }))),
    ).rejects.toThrow();
  });
});

describe('outbox mailer (no SMTP_URL)', () => {
  it('writes each message as an .eml file and logs its links', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
    try {
      const logged: Array<{ obj: object; msg: string }> = [];
      const mailer = createMailer(
        { smtpUrl: undefined, mailFrom: FROM, dataDir },
        { info: (obj, msg) => logged.push({ obj, msg }) },
      );
      await mailer.send(
        await renderMail(verifyEmailMessage({ to: 'new@example.com', firstName: 'Nia', link: LINK })),
      );

      const files = await readdir(path.join(dataDir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const parsed = await simpleParser(await readFile(path.join(dataDir, 'outbox', files[0] ?? '')));
      expect(parsed.subject).toBe('Verify your email for Brokerage Portal');
      expect(parsed.text).toContain(LINK);
      expect(parsed.html).toContain(`href="${LINK}"`);
      expect(logged).toEqual([expect.objectContaining({ obj: expect.objectContaining({ links: [LINK] }) })]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('writes the notification headers and the Message-ID into the .eml too', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
    try {
      const logged: object[] = [];
      await outboxMailer(dir, FROM, { info: (obj) => logged.push(obj) }, { appUrl: APP_URL }).send(
        await renderMail(reminder('o@example.com')),
        { messageId: 'job-9' },
      );
      const [file] = await readdir(dir);
      const parsed = await simpleParser(await readFile(path.join(dir, file ?? '')));
      expect(parsed.messageId).toBe('<job-9@portal.example.com>');
      expect(headerLine(parsed, 'list-unsubscribe')).toBe(
        `List-Unsubscribe: <${APP_URL}/api/notifications/unsubscribe/tok123>`,
      );
      expect(headerLine(parsed, 'list-unsubscribe-post')).toBe(
        'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
      );
      expect(logged).toEqual([
        expect.objectContaining({ to: 'o@example.com', links: [`${APP_URL}/home/transactions/t1`] }),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps the outbox file private to the server account', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
    try {
      await outboxMailer(dir, FROM, { info() {} }).send(
        await renderMail(verifyEmailMessage({ to: 'p@example.com', firstName: 'P', link: LINK })),
      );
      const [file] = await readdir(dir);
      expect((await stat(path.join(dir, file ?? ''))).mode & 0o077).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('message templates', () => {
  it('say what they said before, as content for the layout, with the link as the action', () => {
    expect(verifyEmailMessage({ to: 'v@example.com', firstName: 'Vi', link: LINK })).toEqual({
      to: 'v@example.com',
      subject: 'Verify your email for Brokerage Portal',
      greeting: 'Hello Vi,',
      paragraphs: [
        'Thank you for registering with Brokerage Portal. Please confirm that this is your email address.',
        'The link is valid for 48 hours. After you verify, an administrator will review your account.',
      ],
      action: { label: 'Verify email', url: LINK },
    });
  });

  it('escape what a user typed before it enters the HTML', async () => {
    const message = await renderMail(
      verifyEmailMessage({ to: 'x@example.com', firstName: '<img src=x onerror=alert(1)>', link: LINK }),
    );
    expect(message.html).not.toContain('<img');
    expect(message.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(message.text).toContain('Hello <img src=x onerror=alert(1)>,');
    expect(message.links).toEqual([LINK]);
    expect(message.headers).toEqual({});
  });
});
