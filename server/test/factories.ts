import type { Db } from '../db/client';
import type { Prisma } from '../db/generated/client';
import { signAccessToken } from '../security/access-tokens';
import { hashPassword } from '../security/passwords';
import { transactionFileKey } from '../storage/keys';
import { TEST_JWT_SECRET } from './harness';

/**
 * Rows for tests, with sensible defaults and a unique email each. Every factory takes overrides
 * for exactly the fields a test cares about.
 */

export const DEFAULT_PASSWORD = 'correct-horse-battery';
let sequence = 0;
const next = () => ++sequence;

let defaultHash: Promise<string> | undefined;
function passwordHashFor(password: string | undefined): Promise<string> {
  if (password === undefined || password === DEFAULT_PASSWORD) {
    defaultHash ??= hashPassword(DEFAULT_PASSWORD, 'test');
    return defaultHash;
  }
  return hashPassword(password, 'test');
}

type UserOverrides = Partial<Omit<Prisma.UserCreateInput, 'passwordHash'>> & { password?: string };

export async function createUser(db: Db, overrides: UserOverrides = {}) {
  const { password, ...fields } = overrides;
  const n = next();
  return db.user.create({
    data: {
      email: `agent${n}@example.com`,
      firstName: `Agent${n}`,
      lastName: 'Tester',
      company: 'Acme Realty',
      phoneNumber: '+1 555 010 0000',
      role: 'user',
      isAdminApproved: true,
      emailVerifiedAt: new Date('2026-01-01T00:00:00Z'),
      ...fields,
      passwordHash: await passwordHashFor(password),
    },
  });
}

export function createAdmin(db: Db, overrides: UserOverrides = {}) {
  return createUser(db, { role: 'admin', firstName: `Admin${next()}`, ...overrides });
}

export function createOwner(db: Db, overrides: UserOverrides = {}) {
  return createUser(db, { role: 'admin', isOwner: true, firstName: 'Owner', ...overrides });
}

/** A valid access token for the user, as sign-in would issue it. */
/** A token as sign-in would issue it now: naming the user's office when it has one. */
export function accessTokenFor(
  user: { id: string; role: 'user' | 'admin'; tokenVersion: number; officeId?: string | null },
  options: { secret?: string; now?: Date } = {},
) {
  return signAccessToken(
    {
      sub: user.id,
      role: user.role,
      ver: user.tokenVersion,
      ...(user.officeId ? { off: user.officeId } : {}),
    },
    options.secret ?? TEST_JWT_SECRET,
    options.now ?? new Date('2026-11-21T12:00:00.000Z'),
  );
}

export function createTemplate(db: Db, overrides: Partial<Prisma.TransactionTemplateCreateInput> = {}) {
  const n = next();
  return db.transactionTemplate.create({
    data: {
      type: `Type${n}`,
      role: 'Seller',
      documents: ['Listing Agreement', 'Disclosure', 'Inspection'],
      ...overrides,
    },
  });
}

type TransactionOverrides = Partial<Omit<Prisma.TransactionUncheckedCreateInput, 'userId'>> & {
  userId: string;
  /** Labels of the checklist, in order; default three documents. */
  documents?: string[];
};

export function createTransaction(db: Db, { documents, ...overrides }: TransactionOverrides) {
  const n = next();
  const labels = documents ?? ['Purchase Agreement', 'Agency Disclosure', 'Inspection Report'];
  return db.transaction.create({
    data: {
      streetAddress: `${100 + n} Main Street`,
      city: 'Springfield',
      state: 'CA',
      zip: '90210',
      type: 'Purchase',
      role: 'Buyer',
      ...overrides,
      forms: { create: labels.map((label, position) => ({ label, position })) },
    },
    include: { forms: { orderBy: { position: 'asc' } } },
  });
}

export function createComment(db: Db, data: Prisma.CommentUncheckedCreateInput) {
  return db.comment.create({ data });
}

export function createLibraryItem(db: Db, overrides: Partial<Prisma.LibraryItemCreateInput> = {}) {
  const n = next();
  return db.libraryItem.create({
    data: { kind: 'form', name: `Form ${n}`, link: `forms/${n}-form.pdf`, ...overrides },
  });
}

export function createNotification(
  db: Db,
  data: Omit<Prisma.NotificationUncheckedCreateInput, 'message' | 'link'> &
    Partial<Pick<Prisma.NotificationUncheckedCreateInput, 'message' | 'link'>>,
) {
  return db.notification.create({ data: { message: `Notification ${next()}`, link: '/home', ...data } });
}

export function createBanner(
  db: Db,
  data: Omit<Prisma.BannerUncheckedCreateInput, 'name' | 'elements'> &
    Partial<Pick<Prisma.BannerUncheckedCreateInput, 'name' | 'elements'>>,
) {
  return db.banner.create({ data: { name: `Banner ${next()}`, elements: [], ...data } });
}

export function createAuditEvent(
  db: Db,
  data: Omit<Prisma.AuditEventUncheckedCreateInput, 'action' | 'entity'> &
    Partial<Pick<Prisma.AuditEventUncheckedCreateInput, 'action' | 'entity'>>,
) {
  return db.auditEvent.create({ data: { action: 'transaction.update', entity: 'Transaction', ...data } });
}

/**
 * Gives a checklist item a current file, as attaching one would (a new version, back to pending,
 * submitted now), without storing bytes: for tests about reviews, the queue and the counters.
 */
export async function attachTestFile(
  db: Db,
  form: { id: string; transactionId: string },
  options: { at?: Date; uploadedById?: string } = {},
) {
  const at = options.at ?? new Date();
  const current = await db.transactionForm.findUniqueOrThrow({
    where: { id: form.id },
    select: { version: true },
  });
  const version = current.version + 1;
  const fileKey = transactionFileKey(form.transactionId, `test-${version}.pdf`, 'pdf');
  await db.formVersion.create({
    data: {
      formId: form.id,
      number: version,
      fileKey,
      size: 100,
      contentType: 'application/pdf',
      uploadedAt: at,
      uploadedById: options.uploadedById ?? null,
    },
  });
  return db.transactionForm.update({
    where: { id: form.id },
    data: { fileKey, status: 'pending', submittedAt: at, version },
  });
}
