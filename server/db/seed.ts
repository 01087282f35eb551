import { randomBytes } from 'node:crypto';
import { NO_ROLE } from '../../shared/constants';
import type { ConditionalForm } from '../../shared/schemas/facts';
import type { AppConfig } from '../config';
import { hashPassword, passwordCostFor } from '../security/passwords';
import type { Db } from './client';

/**
 * First-start data: the owner admin and the checklist templates, so a
 * fresh portal can be signed into and the Create Transaction dialog works at once.
 *
 * "First start" is the start that creates the owner: later starts never re-add templates an
 * admin deleted on purpose. Several instances starting together serialise on an advisory lock.
 */

/** Documents the law asks for only with some properties and deals. */
const LEAD_PAINT = {
  label: 'Lead-Based Paint Disclosure',
  when: [{ fact: 'yearBuilt', op: 'lt', value: 1978 }],
} as const satisfies ConditionalForm;
const HOA_DOCUMENTS = {
  label: 'HOA Documents',
  when: [{ fact: 'hoa', op: 'eq', value: true }],
} as const satisfies ConditionalForm;
const FHA_CLAUSE = {
  label: 'FHA Amendatory Clause',
  when: [{ fact: 'financing', op: 'eq', value: 'fha' }],
} as const satisfies ConditionalForm;

export const DEFAULT_TEMPLATES: ReadonlyArray<{
  type: string;
  role: string;
  documents: string[];
  /** Worth collecting, never holding a file back. */
  optionalDocuments: string[];
  /** Required only while the transaction's facts meet their conditions. */
  conditionalDocuments: ConditionalForm[];
}> = [
  {
    type: 'Listing',
    role: 'Seller',
    documents: [
      'Residential Listing Agreement',
      'Agency Disclosure',
      'Seller Property Disclosure Statement',
      'Natural Hazard Disclosure',
      'Preliminary Title Report',
      'MLS Input Sheet',
      'Wire Fraud Advisory',
    ],
    optionalDocuments: ['Home Warranty Application', 'Staging Agreement', 'Open House Sign-In Sheets'],
    conditionalDocuments: [LEAD_PAINT, HOA_DOCUMENTS, FHA_CLAUSE],
  },
  {
    type: 'Purchase',
    role: 'Buyer',
    documents: [
      'Buyer Representation Agreement',
      'Agency Disclosure',
      'Residential Purchase Agreement',
      'Earnest Money Deposit Receipt',
      'Home Inspection Report',
      'Appraisal Report',
      'Loan Commitment Letter',
      'Closing Disclosure',
      'Wire Fraud Advisory',
    ],
    optionalDocuments: [
      'Pre-Approval Letter',
      'Home Warranty Application',
      'Final Walk-Through Verification',
    ],
    conditionalDocuments: [LEAD_PAINT, HOA_DOCUMENTS, FHA_CLAUSE],
  },
  {
    type: 'Lease',
    role: 'Landlord',
    documents: [
      'Exclusive Leasing Agreement',
      'Residential Lease Agreement',
      'Move-In Inspection Checklist',
      'Security Deposit Receipt',
    ],
    optionalDocuments: ['Pet Addendum', 'Rental Property Photos'],
    conditionalDocuments: [LEAD_PAINT],
  },
  {
    type: 'Lease',
    role: 'Tenant',
    documents: [
      'Tenant Representation Agreement',
      'Rental Application',
      'Credit Report Authorization',
      'Residential Lease Agreement',
      "Renter's Insurance Certificate",
    ],
    optionalDocuments: ['Co-Signer Agreement', 'Move-In Inspection Checklist'],
    conditionalDocuments: [],
  },
  {
    type: 'Referral',
    role: NO_ROLE,
    documents: ['Referral Agreement', 'W-9 Form', 'Referral Fee Invoice'],
    optionalDocuments: ['Client Introduction Letter'],
    conditionalDocuments: [],
  },
];

/** Any 64-bit key unique to this purpose; shared by every instance. */
const SEED_LOCK_KEY = 4_206_911_001;

type Logger = { info(msg: string): void; warn(msg: string): void };

export type SeedResult = { ownerCreated: boolean; generatedPassword?: string };

export async function seed(
  db: Db,
  config: Pick<AppConfig, 'adminEmail' | 'adminPassword' | 'env'>,
  log: Logger,
): Promise<SeedResult> {
  // Every start but the first finds the owner: no argon2 then, which costs start-up time and
  // 19 MiB of memory the C allocator may keep (bench/cold-start.bench.ts). The check
  // under the lock below still decides when several instances start together.
  if (await db.user.findFirst({ where: { isOwner: true }, select: { id: true } }))
    return { ownerCreated: false };

  const generatedPassword = config.adminPassword ? undefined : randomBytes(12).toString('base64url');
  // Hash before taking the lock: argon2 is deliberately slow.
  const passwordHash = await hashPassword(
    config.adminPassword ?? generatedPassword ?? '',
    passwordCostFor(config.env),
  );

  return db.$transaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(${SEED_LOCK_KEY})`;
    if (await tx.user.findFirst({ where: { isOwner: true }, select: { id: true } }))
      return { ownerCreated: false };

    const owner = {
      role: 'admin' as const,
      isOwner: true,
      isAdminApproved: true,
      emailVerifiedAt: new Date(),
      passwordHash,
    };
    const existing = await tx.user.findUnique({ where: { email: config.adminEmail }, select: { id: true } });
    if (existing) {
      // The address is already registered (say, the owner was removed by hand): make it the owner.
      await tx.user.update({ where: { id: existing.id }, data: owner });
      log.warn(`Made the existing account ${config.adminEmail} the owner admin`);
    } else {
      await tx.user.create({
        data: {
          ...owner,
          email: config.adminEmail,
          firstName: 'Admin',
          lastName: 'Owner',
          company: 'Brokerage',
          phoneNumber: '+1 555 0100',
        },
      });
    }
    if ((await tx.transactionTemplate.count()) === 0) {
      await tx.transactionTemplate.createMany({
        data: DEFAULT_TEMPLATES.map((t) => ({ ...t, conditionalDocuments: t.conditionalDocuments })),
      });
    }
    log.info(
      `Created the owner admin ${config.adminEmail} and ${DEFAULT_TEMPLATES.length} checklist templates`,
    );
    return generatedPassword ? { ownerCreated: true, generatedPassword } : { ownerCreated: true };
  });
}
