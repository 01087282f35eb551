import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { E2E_OUTBOX } from '../../playwright.config';

/**
 * The server under test sends its mail over SMTP to e2e/support/smtp-sink.ts, which writes each
 * message to E2E_OUTBOX as an .eml file: the browser tests read the e-mail a user would have
 * received there.
 */

async function messagesTo(to: string): Promise<Array<{ subject: string; text: string; file: string }>> {
  const files = await readdir(E2E_OUTBOX).catch(() => [] as string[]);
  const found: Array<{ subject: string; text: string; file: string }> = [];
  for (const file of files.filter((name) => name.endsWith('.eml')).sort()) {
    const parsed = await simpleParser(await readFile(path.join(E2E_OUTBOX, file)));
    const recipients = [parsed.to]
      .flat()
      .flatMap((address) => address?.value ?? [])
      .map((a) => a.address?.toLowerCase());
    if (recipients.includes(to.toLowerCase()))
      found.push({ subject: parsed.subject ?? '', text: parsed.text ?? '', file });
  }
  return found;
}

/** The link (starting with `pathPrefix`, e.g. /auth/verify-email/) of the latest mail to `to`. */
export async function linkFromMail(to: string, pathPrefix: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        const latest = (await messagesTo(to)).at(-1);
        link = latest?.text.match(new RegExp(`https?://\\S+${pathPrefix.replace(/\//g, '\\/')}[^\\s]+`))?.[0];
        return link;
      },
      { message: `an e-mail to ${to} with a ${pathPrefix} link`, timeout: 10_000 },
    )
    .toBeTruthy();
  return link as string;
}

/** The raw source of the latest mail to `to` whose subject matches, once it has arrived. */
export async function rawMailTo(to: string, subject: RegExp): Promise<string> {
  let raw: string | undefined;
  await expect
    .poll(
      async () => {
        const latest = (await messagesTo(to)).filter((mail) => subject.test(mail.subject)).at(-1);
        raw = latest ? await readFile(path.join(E2E_OUTBOX, latest.file), 'utf8') : undefined;
        return raw;
      },
      { message: `an e-mail to ${to} about ${subject}`, timeout: 20_000 },
    )
    .toBeTruthy();
  return raw as string;
}
