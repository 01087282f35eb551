import { describe, expect, test } from 'vitest';
import { verifyPassword } from '../security/passwords';
import { setupTestDatabase } from '../test/harness';
import { DEFAULT_TEMPLATES, seed } from './seed';

const database = setupTestDatabase();
const quiet = { info: () => {}, warn: () => {} };
const config = { adminEmail: 'owner@example.com', adminPassword: 'owner-password-1', env: 'test' as const };

describe('seed', () => {
  test('the first start creates the owner admin and the checklist templates', async () => {
    const result = await seed(database.db, config, quiet);
    expect(result).toEqual({ ownerCreated: true });

    const owner = await database.db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    expect(owner).toMatchObject({ role: 'admin', isOwner: true, isAdminApproved: true });
    expect(owner.emailVerifiedAt).not.toBeNull();
    expect(await verifyPassword(owner.passwordHash, 'owner-password-1')).toBe(true);

    const templates = await database.db.transactionTemplate.findMany({
      orderBy: [{ type: 'asc' }, { role: 'asc' }],
    });
    expect(templates.map((t) => `${t.type}/${t.role}`)).toEqual([
      'Lease/Landlord',
      'Lease/Tenant',
      'Listing/Seller',
      'Purchase/Buyer',
      'Referral/-',
    ]);
    for (const template of templates) expect(template.documents.length).toBeGreaterThanOrEqual(3);
    // Documents the law asks for only with some properties and deals follow the facts.
    const rulesOf = (type: string) => {
      const rules = templates.find((t) => t.type === type)?.conditionalDocuments ?? [];
      return (rules as Array<{ label: string; when: unknown }>).map((rule) => [rule.label, rule.when]);
    };
    const lead = ['Lead-Based Paint Disclosure', [{ fact: 'yearBuilt', op: 'lt', value: 1978 }]];
    const hoa = ['HOA Documents', [{ fact: 'hoa', op: 'eq', value: true }]];
    const fha = ['FHA Amendatory Clause', [{ fact: 'financing', op: 'eq', value: 'fha' }]];
    expect(rulesOf('Purchase')).toEqual([lead, hoa, fha]);
    expect(rulesOf('Listing')).toEqual([lead, hoa, fha]);
    expect(templates.find((t) => t.role === 'Landlord')?.conditionalDocuments).toEqual([
      { label: lead[0], when: lead[1] },
    ]);
    for (const template of templates)
      expect(template.documents, 'a conditional item is on no plain list').not.toContain(lead[0]);
  });

  test('later starts change nothing, and never bring back a template an admin deleted', async () => {
    await database.db.transactionTemplate.deleteMany({ where: { type: 'Referral' } });
    const result = await seed(database.db, { ...config, adminPassword: 'another-password' }, quiet);
    expect(result).toEqual({ ownerCreated: false });
    expect(await database.db.transactionTemplate.count()).toBe(DEFAULT_TEMPLATES.length - 1);
    const owner = await database.db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    expect(await verifyPassword(owner.passwordHash, 'owner-password-1')).toBe(true);
  });

  test('concurrent first starts create exactly one owner', async () => {
    await database.db.user.deleteMany();
    await database.db.transactionTemplate.deleteMany();
    const results = await Promise.all([1, 2, 3].map(() => seed(database.db, config, quiet)));
    expect(results.filter((r) => r.ownerCreated)).toHaveLength(1);
    expect(await database.db.user.count({ where: { isOwner: true } })).toBe(1);
    expect(await database.db.transactionTemplate.count()).toBe(DEFAULT_TEMPLATES.length);
  });

  test('without ADMIN_PASSWORD a password is generated, returned once, and works', async () => {
    await database.db.user.deleteMany();
    const result = await seed(database.db, { ...config, adminPassword: undefined }, quiet);
    expect(result.generatedPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    const owner = await database.db.user.findUniqueOrThrow({ where: { email: 'owner@example.com' } });
    expect(await verifyPassword(owner.passwordHash, result.generatedPassword ?? '')).toBe(true);
  });
});
