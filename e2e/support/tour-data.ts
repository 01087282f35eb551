import { type APIRequestContext, expect } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { E2E_OWNER } from '../../playwright.config';
import { apiSignIn, approvedAgent } from './accounts';
import { linkFromMail } from './outbox';

/**
 * What the page tour (e2e/pages.spec.ts) shows, built through the public API as people would:
 * an approved agent with a few transactions (the owner has one too), one of them with documents uploaded, commented on
 * and reviewed, so a badge of every status, comments with decisions and notifications show; a
 * form and a tutorial in the libraries; the pending document sent for signature, its signer's
 * mailed link the signing page's address.
 */

export type TourData = {
  agent: { email: string; password: string; id: string; firstName: string };
  /** The transaction with the reviewed documents. */
  transactionId: string;
  address: string;
  /** The street of the owner's own transaction. */
  ownerAddress: string;
  /** The signing page of the request's signer, /sign/<token>, and the request's subject. */
  signing: { path: string; subject: string };
};

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A small but real PDF. */
function pdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
}

/** A one-page PDF with a line of text: what a signature request needs (a page to sign on). */
async function signablePdf(label: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText(label, { x: 72, y: 720, size: 18, font });
  return Buffer.from(await doc.save());
}

async function created<T>(response: Promise<import('@playwright/test').APIResponse>): Promise<T> {
  const res = await response;
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as T;
}

const ADDRESSES = [
  { streetAddress: '12 Harbor View Lane', city: 'Portland', state: 'ME', zip: '04101' },
  { streetAddress: '301 Orchard Street', city: 'Burlington', state: 'VT', zip: '05401' },
  { streetAddress: '77 Elm Court', city: 'Concord', state: 'NH', zip: '03301' },
];

export async function buildTourData(request: APIRequestContext): Promise<TourData> {
  const firstName = 'Tessa';
  const agent = await approvedAgent(request, firstName);
  const owner = await apiSignIn(request, E2E_OWNER.email, E2E_OWNER.password);
  const asAgent = { headers: bearer(agent.token) };
  const asOwner = { headers: bearer(owner.token) };

  // Three deals, the first made last so it heads the newest-first lists.
  const kinds = [
    { type: 'Lease', role: 'Tenant' },
    { type: 'Purchase', role: 'Buyer' },
    { type: 'Listing', role: 'Seller' },
  ];
  let deal = { _id: '', forms: [] as Array<{ _id: string; label: string }> };
  for (const [index, kind] of kinds.entries()) {
    deal = await created(
      request.post('/api/transactions', { ...asAgent, data: { ...kind, ...ADDRESSES[2 - index] } }),
    );
  }
  const [accepted, rejected, uploaded] = deal.forms;
  if (!accepted || !rejected || !uploaded)
    throw new Error('the Listing/Seller template has too few documents');

  // Three documents uploaded and commented on; one accepted, one rejected, one waits (pending).
  // The one that waits is a PDF with a page: it goes out for signature below.
  for (const form of [accepted, rejected, uploaded]) {
    const buffer = form === uploaded ? await signablePdf(form.label) : pdf();
    const file = await created<{ key: string }>(
      request.post(`/api/uploads/transactions/${deal._id}`, {
        ...asAgent,
        multipart: { file: { name: `${form.label}.pdf`, mimeType: 'application/pdf', buffer } },
      }),
    );
    const stored = await request.put(`/api/transactions/${deal._id}/forms/${form._id}`, {
      ...asAgent,
      data: { url: file.key },
    });
    expect(stored.status(), await stored.text()).toBe(200);
    await created(
      request.post(`/api/transactions/${deal._id}/forms/${form._id}/comments`, {
        ...asAgent,
        data: { text: `${form.label}: signed by both parties, please review.` },
      }),
    );
  }
  await created(
    request.post(`/api/admin/transactions/${deal._id}/forms/${accepted._id}/comments`, {
      ...asOwner,
      data: { status: 'accepted', text: 'All pages initialled. Thank you.' },
    }),
  );
  await created(
    request.post(`/api/admin/transactions/${deal._id}/forms/${rejected._id}/comments`, {
      ...asOwner,
      data: { status: 'rejected', text: 'Missing the signature on page 2.' },
    }),
  );
  await created(
    request.post(`/api/admin/transactions/${deal._id}/forms/${uploaded._id}/comments`, {
      ...asOwner,
      data: { text: 'Looking at it this afternoon.' },
    }),
  );

  // The owner's own list has a deal too: an empty one is a different page.
  await created(
    request.post('/api/transactions', {
      ...asOwner,
      data: { type: 'Purchase', role: 'Buyer', ...ADDRESSES[1] },
    }),
  );

  // One item in each library, so their tables have a row.
  const form = await created<{ key: string }>(
    request.post('/api/uploads/forms', {
      ...asOwner,
      multipart: { file: { name: 'escrow-instructions.pdf', mimeType: 'application/pdf', buffer: pdf() } },
    }),
  );
  await created(
    request.post('/api/forms', { ...asOwner, data: { name: 'Escrow Instructions', link: form.key } }),
  );
  await created(
    request.post('/api/tutorials', {
      ...asOwner,
      data: { name: 'Closing day checklist', link: 'https://videos.example.com/closing-day' },
    }),
  );

  const first = ADDRESSES[0] as (typeof ADDRESSES)[number];
  const subject = `${uploaded.label} for ${first.streetAddress}`;
  const signer = { name: 'Sam Signer', email: `sam-signer-${Date.now()}@example.com` };
  await created(
    request.post(`/api/transactions/${deal._id}/signature-requests`, {
      ...asAgent,
      data: {
        formId: uploaded._id,
        subject,
        message: 'Please sign where marked.',
        signers: [signer],
        fields: [
          { signer: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 200, height: 40 },
          { signer: 0, page: 1, kind: 'date', x: 320, y: 600, width: 140, height: 24 },
        ],
      },
    }),
  );
  const signingLink = await linkFromMail(signer.email, '/sign/');

  return {
    agent: { email: agent.email, password: agent.password, id: agent.id, firstName },
    transactionId: deal._id,
    address: first.streetAddress,
    ownerAddress: (ADDRESSES[1] as (typeof ADDRESSES)[number]).streetAddress,
    signing: { path: new URL(signingLink).pathname, subject },
  };
}

/** A newly registered person's e-mailed verification link (a fresh one: each is single-use). */
export async function freshVerificationLink(request: APIRequestContext, firstName: string) {
  const email = `${firstName.toLowerCase()}-${Date.now()}@example.com`;
  const password = `${firstName} password 1`;
  const registered = await request.post('/api/auth/register', {
    data: {
      firstName,
      lastName: 'Visitor',
      company: 'Coastal Homes',
      email,
      phoneNumber: '+1 555 010 9090',
      password,
      confirmPassword: password,
    },
  });
  expect(registered.status()).toBe(201);
  return { email, link: await linkFromMail(email, '/auth/verify-email/') };
}

/** The password-reset link e-mailed to `email`. */
export async function resetLink(request: APIRequestContext, email: string): Promise<string> {
  const asked = await request.post('/api/auth/reset', { data: { email } });
  expect(asked.status(), await asked.text()).toBe(200);
  return linkFromMail(email, '/auth/new-password/');
}
