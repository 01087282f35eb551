import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkIn, type SmtpInbox, startSmtpInbox } from '../test/smtp-inbox';
import { createMailer, outboxMailer, smtpMailer } from './mailer';
import { resetPasswordMessage, verifyEmailMessage } from './templates';

const FROM = 'Portal <no-reply@example.com>';
const LINK = 'http://localhost:3000/auth/verify-email/abcDEF123_-xyz';

let inbox: SmtpInbox;
beforeAll(async () => {
  inbox = await startSmtpInbox();
});
afterAll(() => inbox.close());

describe('SMTP mailer', () => {
  it('delivers a plain-text and an HTML body carrying the link to a real SMTP server', async () => {
    await smtpMailer(inbox.url, FROM).send(
      verifyEmailMessage({ to: 'Jane@Example.com', firstName: 'Jane', link: LINK }),
    );
    const mail = await inbox.waitFor('jane@example.com');
    expect(mail.subject).toBe('Verify your email for Brokerage Portal');
    expect(linkIn(mail.text, 'http://localhost:3000/auth/verify-email/')).toBe(LINK);
    expect(mail.html).toContain(`href="${LINK}"`);
    expect(mail.text).toContain('Hello Jane,');
  });

  it('createMailer picks SMTP when SMTP_URL is set', async () => {
    const mailer = createMailer(
      { smtpUrl: inbox.url, mailFrom: FROM, dataDir: '/nonexistent' },
      { info() {} },
    );
    const link = 'http://localhost:3000/auth/new-password/token123';
    await mailer.send(resetPasswordMessage({ to: 'reset@example.com', firstName: 'Ray', link }));
    const mail = await inbox.waitFor('reset@example.com');
    expect(mail.subject).toBe('Reset your Brokerage Portal password');
    expect(linkIn(mail.text, 'http://localhost:3000/auth/new-password/')).toBe(link);
  });

  it('rejects when the SMTP server cannot be reached, so the caller can report it', async () => {
    const closed = await startSmtpInbox();
    await closed.close();
    await expect(
      smtpMailer(closed.url, FROM).send(
        verifyEmailMessage({ to: 'x@example.com', firstName: 'X', link: LINK }),
      ),
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
      await mailer.send(verifyEmailMessage({ to: 'new@example.com', firstName: 'Nia', link: LINK }));

      const files = await readdir(path.join(dataDir, 'outbox'));
      expect(files).toHaveLength(1);
      expect(files[0]).toMatch(/\.eml$/);
      const parsed = await simpleParser(await readFile(path.join(dataDir, 'outbox', files[0] ?? '')));
      expect(parsed.subject).toBe('Verify your email for Brokerage Portal');
      expect(parsed.text).toContain(LINK);
      expect(logged).toEqual([expect.objectContaining({ obj: expect.objectContaining({ links: [LINK] }) })]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('keeps the outbox file private to the server account', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'outbox-'));
    try {
      await outboxMailer(dir, FROM, { info() {} }).send(
        verifyEmailMessage({ to: 'p@example.com', firstName: 'P', link: LINK }),
      );
      const [file] = await readdir(dir);
      expect((await stat(path.join(dir, file ?? ''))).mode & 0o077).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('message templates', () => {
  it('escape what a user typed before it enters the HTML', () => {
    const message = verifyEmailMessage({
      to: 'x@example.com',
      firstName: '<img src=x onerror=alert(1)>',
      link: LINK,
    });
    expect(message.html).not.toContain('<img');
    expect(message.html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(message.text).toContain('Hello <img src=x onerror=alert(1)>,');
    expect(message.links).toEqual([LINK]);
  });
});
