import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { FINANCING } from '../../shared/schemas/facts';
import type { Db } from '../db/client';
import { hashPassword, type PasswordCost } from '../security/passwords';
import { scheduleReminders } from '../services/reminders';
import { factsData, initialItems, rulesOf } from '../services/transactions/checklist';
import { libraryFileKey, transactionFileKey } from '../storage/keys';
import { onePagePdf } from '../storage/sample-pdf';
import type { Storage } from '../storage/storage';

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

/** A demo PDF in storage, with its stored_files row like any upload (no uploader: the system). */
async function storeDemoPdf(
  db: Db,
  storage: Storage,
  key: string,
  title: string,
  transactionId: string | null,
): Promise<{ size: number; sha256: string }> {
  const bytes = onePagePdf(title);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const { size } = await storage.put(key, Readable.from([bytes]), { contentType: PDF_TYPE });
  await db.storedFile.create({ data: { key, size, contentType: PDF_TYPE, sha256, transactionId } });
  return { size, sha256 };
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
    select: {
      id: true,
      type: true,
      role: true,
      documents: true,
      optionalDocuments: true,
      conditionalDocuments: true,
    },
  });
  if (templates.length === 0) return false;

  const agents: { id: string }[] = [];
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

  const reasons = await db.rejectionReason.findMany({ select: { code: true, label: true } });
  const hour = 3600 * 1000;
  const count = options.transactions ?? 36;
  for (let i = 0; i < count; i++) {
    const agent = pick(agents);
    const template = pick(templates);
    const [city, state, zip] = pick(CITIES);
    const createdAt = new Date(options.now.getTime() - Math.floor(random() * 90 * 24 * 3600 * 1000));
    // Facts from the file's number, not the generator, so the rest of the demo stays as it was:
    // old and new houses, with and without an HOA, every kind of financing.
    const facts = {
      salePriceCents: (250_000 + ((i * 37_000) % 900_000)) * 100,
      yearBuilt: 1940 + ((i * 7) % 80),
      financing: FINANCING[i % FINANCING.length] ?? null,
      propertyType: i % 4 === 0 ? ('condo' as const) : ('single-family' as const),
      hoa: i % 4 === 0 || i % 5 === 0,
    };
    const rules = rulesOf(template.conditionalDocuments);
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
        ...factsData(facts),
        templateId: template.id,
        checklistRules: rules,
      },
      select: { id: true },
    });
    // Every sixth file is complete and closed; every sixth, three later, is complete and still
    // open (Compliant, one required item waived when there are several), for an admin to close;
    // the others are anywhere along the way, so the review queue, the badges and the waivers all
    // have something to show.
    const complete = i % 6 === 0;
    const compliant = i % 6 === 3;
    const settled = complete || compliant;
    const waivedPosition = compliant && template.documents.length > 1 ? template.documents.length - 1 : -1;
    const items = initialItems(template, rules, facts);
    for (const { position, label, required, ...byRule } of items) {
      const waived = position === waivedPosition;
      // An item the facts call for draws nothing from the generator, so the rest of the demo stays
      // as it was: still missing on an open file, accepted on a settled one.
      const roll = settled ? 0 : byRule.conditional ? 1 : random();
      const uploaded = !waived && roll < (required ? 0.7 : 0.3);
      const status = !uploaded ? 'pending' : roll < 0.35 ? 'accepted' : roll < 0.45 ? 'rejected' : 'pending';
      // What still waits for the desk arrived in the last few days, as on a real desk; what was
      // decided was uploaded soon after the deal opened.
      const waiting = status === 'pending' && !settled && !byRule.conditional;
      const uploadedAt = waiting
        ? new Date(options.now.getTime() - Math.floor(random() * 4 * 24 * hour))
        : new Date(createdAt.getTime() + (1 + position) * hour);
      const waiverAsked = waived || (required && !uploaded && !byRule.conditional && random() < 0.15);
      const form = await db.transactionForm.create({
        data: {
          transactionId: transaction.id,
          label,
          required,
          position,
          createdAt,
          ...byRule,
          ...(waiverAsked
            ? {
                waiverStatus: !waived && random() < 0.5 ? 'requested' : 'approved',
                waiverReason: `Not applicable to this ${template.type.toLowerCase()}`,
                waiverRequestedAt: uploadedAt,
              }
            : {}),
        },
        select: { id: true, waiverStatus: true },
      });
      if (form.waiverStatus === 'approved')
        await db.transactionForm.update({
          where: { id: form.id },
          data: { waiverDecidedAt: new Date(uploadedAt.getTime() + hour) },
        });
      if (!uploaded) continue;
      const fileKey = transactionFileKey(transaction.id, `${label}.pdf`, 'pdf');
      const stored = await storeDemoPdf(db, storage, fileKey, label, transaction.id);
      const decidedAt = new Date(uploadedAt.getTime() + 2 * hour);
      const given = status === 'rejected' && reasons.length ? [pick(reasons)] : [];
      const text = status === 'rejected' ? pick(REVIEW_NOTES.slice(0, 3)) : '';
      await db.formVersion.create({
        data: {
          formId: form.id,
          number: 1,
          fileKey,
          size: stored.size,
          contentType: PDF_TYPE,
          sha256: stored.sha256,
          uploadedById: agent.id,
          uploadedAt,
          ...(admin && status !== 'pending'
            ? {
                decisionStatus: status,
                decisionReasons: given,
                decisionText: text || null,
                decidedAt,
                decidedById: admin.id,
              }
            : {}),
        },
      });
      await db.transactionForm.update({
        where: { id: form.id },
        data: { fileKey, status, version: 1, submittedAt: uploadedAt },
      });
      if (admin && status !== 'pending') {
        await db.comment.create({
          data: {
            formId: form.id,
            userId: admin.id,
            role: 'admin',
            status,
            reasons: given,
            text,
            createdAt: decidedAt,
          },
        });
      }
    }
    if (complete) {
      await db.transaction.update({
        where: { id: transaction.id },
        data: { closedAt: new Date(createdAt.getTime() + 30 * hour) },
      });
    }
    // Key dates along the usual timeline of a deal: what has passed is done, except
    // now and then an inspection left overdue, so the lists and the calendar show every state.
    const day = 24 * hour;
    const timeline = [
      { kind: 'contract-acceptance', label: 'Contract acceptance', after: 1 },
      { kind: 'inspection', label: 'Inspection deadline', after: 10 },
      { kind: 'appraisal', label: 'Appraisal deadline', after: 21 },
      { kind: 'closing', label: 'Closing', after: 45 },
    ];
    const overdueInspection = !complete && random() < 0.2;
    await db.keyDate.createMany({
      data: timeline.map((step, position) => {
        const date = new Date(createdAt.getTime() + step.after * day);
        const passed = date.getTime() < options.now.getTime();
        return {
          transactionId: transaction.id,
          kind: step.kind,
          label: step.label,
          date: new Date(`${date.toISOString().slice(0, 10)}T00:00:00.000Z`),
          done: complete || (passed && !(overdueInspection && step.kind === 'inspection')),
          position,
        };
      }),
    });
  }
  await db.$transaction(async (tx) => {
    for (const agent of agents) await scheduleReminders(tx, options.now, { agentId: agent.id });
  });
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
