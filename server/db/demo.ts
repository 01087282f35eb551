import { Readable } from 'node:stream';
import { hashPassword, type PasswordCost } from '../security/passwords';
import { libraryFileKey, transactionFileKey } from '../storage/keys';
import type { Storage } from '../storage/storage';
import type { Db } from './client';

/**
 * Demo data (SEED_DEMO, on by default for the embedded database): a few agents and a few dozen
 * transactions in every state, with real small PDFs, so a newcomer's `npm start` shows a living
 * product. Added once: a later start finds the first demo agent and does nothing.
 */

export const DEMO_PASSWORD = 'demo-agent-password';
export const DEMO_AGENTS = [
  {
    firstName: 'Maya',
    lastName: 'Lindqvist',
    company: 'Northshore Realty',
    phoneNumber: '+1 (207) 555-0141',
  },
  {
    firstName: 'Jamal',
    lastName: 'Okafor',
    company: 'Harbor & Main Homes',
    phoneNumber: '+1 (207) 555-0172',
  },
  { firstName: 'Sofia', lastName: 'Marquez', company: 'Northshore Realty', phoneNumber: '+1 (603) 555-0118' },
  {
    firstName: 'Ethan',
    lastName: 'Brooks',
    company: 'Pinecrest Properties',
    phoneNumber: '+1 (802) 555-0190',
  },
].map((agent, i) => ({ ...agent, email: `agent${i + 1}@demo.example.com` }));

const STREETS = [
  'Harbor Lane',
  'Maple Avenue',
  'Quarry Road',
  'Ocean View Drive',
  'Birch Way',
  'Elm Street',
  'Mill Street',
  'Lighthouse Point',
  'Cedar Court',
  'Summit Ridge',
];
const CITIES: Array<[string, string, string]> = [
  ['Portland', 'ME', '04101'],
  ['Bangor', 'ME', '04401'],
  ['Portsmouth', 'NH', '03801'],
  ['Burlington', 'VT', '05401'],
  ['Salem', 'MA', '01970'],
  ['Newport', 'RI', '02840'],
];
const REVIEW_NOTES = [
  'Missing initials on page 3.',
  'Please upload the fully signed copy.',
  'Date of signature is missing.',
  'Looks good, thank you.',
];

const LIBRARY_FORMS = [
  'Buyer Representation Agreement (blank)',
  'Seller Property Disclosure Statement (blank)',
  'Wire Fraud Advisory',
  'Commission Disbursement Authorization',
];
const TUTORIALS = [
  {
    name: 'Opening a transaction and its checklist',
    link: 'https://www.youtube.com/results?search_query=real+estate+transaction+checklist',
  },
  { name: 'What compliance reviews in a listing file', link: 'https://www.nar.realtor/' },
  {
    name: 'Recognising wire fraud',
    link: 'https://www.fbi.gov/how-we-can-help-you/scams-and-safety/common-scams-and-crimes/business-email-compromise',
  },
];

/** A tiny valid PDF naming its document, so "View" opens something real. */
function demoPdf(title: string): Buffer {
  const text = title.replace(/[()\\]/g, '');
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A demo PDF in storage, with its stored_files row like any upload (no uploader: the system). */
async function storeDemoPdf(
  db: Db,
  storage: Storage,
  key: string,
  title: string,
  transactionId: string | null,
): Promise<void> {
  const { size } = await storage.put(key, Readable.from([demoPdf(title)]), { contentType: PDF_TYPE });
  await db.storedFile.create({ data: { key, size, contentType: PDF_TYPE, transactionId } });
}
const PDF_TYPE = 'application/pdf';

/** Deterministic, so every newcomer sees the same portal. */
function generator(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

export async function seedDemo(
  db: Db,
  storage: Storage,
  options: { cost: PasswordCost; now: Date; transactions?: number },
  log: { info(msg: string): void },
): Promise<boolean> {
  const first = DEMO_AGENTS[0];
  if (!first || (await db.user.findUnique({ where: { email: first.email }, select: { id: true } })))
    return false;
  const random = generator(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  const passwordHash = await hashPassword(DEMO_PASSWORD, options.cost);
  const admin = await db.user.findFirst({ where: { isOwner: true }, select: { id: true } });
  const templates = await db.transactionTemplate.findMany({
    select: { type: true, role: true, documents: true },
  });
  if (templates.length === 0) return false;

  const agents = [];
  for (const agent of DEMO_AGENTS) {
    agents.push(
      await db.user.create({
        data: { ...agent, passwordHash, role: 'user', isAdminApproved: true, emailVerifiedAt: options.now },
        select: { id: true },
      }),
    );
  }
  // One registration waiting for approval, so the Users page has something to do.
  await db.user.create({
    data: {
      email: 'new.agent@demo.example.com',
      firstName: 'Priya',
      lastName: 'Shah',
      company: 'Pinecrest Properties',
      phoneNumber: '+1 (802) 555-0133',
      passwordHash,
      emailVerifiedAt: options.now,
    },
  });

  const count = options.transactions ?? 36;
  for (let i = 0; i < count; i++) {
    const agent = pick(agents);
    const template = pick(templates);
    const [city, state, zip] = pick(CITIES);
    const createdAt = new Date(options.now.getTime() - Math.floor(random() * 90 * 24 * 3600 * 1000));
    const transaction = await db.transaction.create({
      data: {
        userId: agent.id,
        streetAddress: `${10 + Math.floor(random() * 890)} ${pick(STREETS)}`,
        city,
        state,
        zip,
        type: template.type,
        role: template.role,
        isTitleReport: random() < 0.4,
        createdAt,
      },
      select: { id: true },
    });
    for (const [position, label] of template.documents.entries()) {
      const roll = random();
      const uploaded = roll < 0.7;
      const status = !uploaded ? 'pending' : roll < 0.35 ? 'accepted' : roll < 0.45 ? 'rejected' : 'pending';
      let fileKey: string | null = null;
      if (uploaded) {
        fileKey = transactionFileKey(transaction.id, `${label}.pdf`, 'pdf');
        await storeDemoPdf(db, storage, fileKey, label, transaction.id);
      }
      const form = await db.transactionForm.create({
        data: { transactionId: transaction.id, label, position, status, fileKey, createdAt },
        select: { id: true },
      });
      if (admin && status !== 'pending') {
        await db.comment.create({
          data: {
            formId: form.id,
            userId: admin.id,
            role: 'admin',
            status,
            text: status === 'rejected' ? pick(REVIEW_NOTES.slice(0, 3)) : '',
            createdAt: new Date(createdAt.getTime() + 3600 * 1000),
          },
        });
      }
    }
  }
  for (const name of LIBRARY_FORMS) {
    const key = libraryFileKey(`${name}.pdf`, 'pdf');
    await storeDemoPdf(db, storage, key, name, null);
    await db.libraryItem.create({ data: { kind: 'form', name, link: key } });
  }
  await db.libraryItem.createMany({ data: TUTORIALS.map((t) => ({ kind: 'tutorial' as const, ...t })) });

  log.info(
    `Demo data: ${DEMO_AGENTS.length} agents (password ${DEMO_PASSWORD}), ${count} transactions, ` +
      `${LIBRARY_FORMS.length} library forms and ${TUTORIALS.length} tutorials`,
  );
  return true;
}
