import type { OfficesAnswer } from '../../shared/schemas/offices';
import { TEST_USER_ID, testProfile } from './users';

export const NORTH_ID = 'c0000000-0000-4000-8000-000000000001';
export const SOUTH_ID = 'c0000000-0000-4000-8000-000000000002';

/** offices.list's answer: two offices, by name. */
export function testOffices(): OfficesAnswer {
  return [
    {
      _id: NORTH_ID,
      name: 'North',
      reviewTargetHours: 24,
      retentionYears: 7,
      createdAt: '2026-11-01T00:00:00.000Z',
      agentCount: 3,
    },
    {
      _id: SOUTH_ID,
      name: 'South',
      reviewTargetHours: 8,
      retentionYears: 10,
      createdAt: '2026-11-02T00:00:00.000Z',
      agentCount: 1,
    },
  ];
}

/** settings.getUser's answer for a brokerage-wide admin (no office). */
export const wideAdminProfile = () =>
  testProfile({ _id: TEST_USER_ID, firstName: 'Wendy', lastName: 'Wide', role: 'admin' });

/** settings.getUser's answer for an admin of North. */
export const northAdminProfile = () =>
  testProfile({ _id: TEST_USER_ID, firstName: 'Nina', lastName: 'North', role: 'admin', officeId: NORTH_ID });
