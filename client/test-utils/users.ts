import type { PublicUser } from '../../shared/schemas/users';

/** The signed-in user most client tests act as. */
export const TEST_USER_ID = 'f3a1c2d4-0000-4000-8000-000000000001';

/** settings.getUser's answer for that user; override what a test is about. */
export function testProfile(overrides: Partial<PublicUser> = {}): PublicUser {
  return {
    _id: TEST_USER_ID,
    firstName: 'Dana',
    lastName: 'Agent',
    company: 'Acme Realty',
    email: 'dana@example.com',
    phoneNumber: '+1 555 0100',
    role: 'user',
    isAdminApproved: true,
    isEmailVerified: true,
    isOwner: false,
    status: 'active',
    deactivatedAt: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    officeId: null,
    coordinatesFor: [],
    isCoordinator: false,
    commissionPlanId: null,
    ...overrides,
  };
}
