import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { PortalStack } from '../../server/test/built-server';
import { expectStatus, openTransaction, timedCall } from '../../server/test/rest-client';

/**
 * A signer's link, as the signer gets it: an agent sends an item's PDF for signature through the
 * REST API of the built server, whose mail job writes the invitation to DATA_DIR/outbox (no
 * SMTP_URL), and the link is read from that message. The page it opens is then a real one: the
 * request, the signer's fields and the PDF behind them.
 */

/** A two-page letter-size agreement with a line of text on each page, as an agent would upload. */
async function agreementPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const n of [1, 2]) {
    const page = doc.addPage([612, 792]);
    page.drawText(`Residential listing agreement, page ${n} of 2`, { x: 72, y: 720, size: 16, font });
  }
  return doc.save();
}

/** The /sign/ link of the newest message to `email` in `outbox`, once one is there. */
async function linkMailedTo(outbox: string, email: string, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = (await readdir(outbox).catch(() => [] as string[]))
      .filter((f) => f.endsWith('.eml'))
      .sort();
    for (const file of files.reverse()) {
      const mail = await simpleParser(await readFile(path.join(outbox, file)));
      const to = [mail.to].flat().flatMap((address) => address?.value ?? []);
      if (!to.some((address) => address.address?.toLowerCase() === email)) continue;
      const link = mail.text?.match(/https?:\/\/\S+\/sign\/\S+/)?.[0];
      if (link) return link;
    }
    if (Date.now() > deadline)
      throw new Error(`no signing link was mailed to ${email} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Sends the first item of a new transaction of the agent (token) for signature by one signer,
 * with a signature and a date field on page 1, and returns the path of the link mailed to them.
 */
export async function mailedSigningPath(stack: PortalStack, agentToken: string): Promise<string> {
  const baseUrl = stack.server.baseUrl;
  const deal = await openTransaction(baseUrl, agentToken, {
    streetAddress: '1200 Harbor Lane',
    type: 'Listing',
    role: 'Seller',
  });
  const formId = deal.forms[0]?._id;
  if (!formId) throw new Error('the Listing/Seller template has no item');
  const form = new FormData();
  form.append(
    'file',
    new Blob([Buffer.from(await agreementPdf())], { type: 'application/pdf' }),
    'listing.pdf',
  );
  const stored = (await expectStatus(
    timedCall(baseUrl, 'POST', `/api/uploads/transactions/${deal._id}`, { token: agentToken, form }),
    201,
  )) as { key: string };
  await expectStatus(
    timedCall(baseUrl, 'PUT', `/api/transactions/${deal._id}/forms/${formId}`, {
      token: agentToken,
      json: { url: stored.key },
    }),
    200,
  );
  const email = `dana.buyer.${Date.now()}@example.com`;
  await expectStatus(
    timedCall(baseUrl, 'POST', `/api/transactions/${deal._id}/signature-requests`, {
      token: agentToken,
      json: {
        formId,
        subject: 'Listing agreement for 1200 Harbor Lane',
        message: 'Please sign where marked.',
        signers: [{ name: 'Dana Buyer', email }],
        fields: [
          { signer: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 200, height: 40 },
          { signer: 0, page: 1, kind: 'date', x: 320, y: 600, width: 140, height: 24 },
        ],
      },
    }),
    201,
  );
  return new URL(await linkMailedTo(path.join(stack.dataDir, 'outbox'), email)).pathname;
}
