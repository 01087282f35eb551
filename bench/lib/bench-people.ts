import { signAccessToken } from '../../server/security/access-tokens';
import { hashPassword } from '../../server/security/passwords';
import { withAdminClient } from '../../server/test/databases';

export type Person = { id: string; role: 'user' | 'admin'; token: string };

/**
 * Agents or admins written straight into the users table in one statement (the WebSocket
 * benchmarks need thousands): signing them up through the API would spend minutes in argon2 and
 * measure nothing of interest. Their access tokens are signed with the server's own secret,
 * exactly as a sign-in would sign them. Emails are `<tag>-<role>-<n>@bench.test`; `phoneBlock`
 * keeps each benchmark's phone numbers apart.
 */
export async function insertPeople(options: {
  databaseUrl: string;
  role: 'user' | 'admin';
  count: number;
  secret: string;
  tag: string;
  firstName: string;
  phoneBlock: string;
}): Promise<Person[]> {
  const { role, secret } = options;
  const passwordHash = await hashPassword('never-used-to-sign-in', 'test');
  const rows = await withAdminClient(options.databaseUrl, async (client) => {
    const result = await client.query<{ id: string; token_version: number }>(
      `INSERT INTO users (email, first_name, last_name, company, phone_number, password_hash, role,
         is_admin_approved, email_verified_at)
       SELECT $4 || '-' || $1 || '-' || n || '@bench.test', $5, initcap($1) || n, 'Socket Realty',
         '555-' || $6 || '-' || lpad(n::text, 4, '0'), $2, $1::role, true, now()
       FROM generate_series(1, $3::int) AS n
       RETURNING id, token_version`,
      [role, passwordHash, options.count, options.tag, options.firstName, options.phoneBlock],
    );
    return result.rows;
  });
  const now = new Date();
  return Promise.all(
    rows.map(async (row) => ({
      id: row.id,
      role,
      token: await signAccessToken({ sub: row.id, role, ver: row.token_version }, secret, now),
    })),
  );
}

/** One benchmark's people: its secret signs their tokens, its tag and phone block keep them apart. */
export type PeopleBatch = { secret: string; tag: string; firstName: string; phoneBlock: string };

/** insertPeople with one benchmark's batch settings filled in. */
export function peopleInserter(batch: PeopleBatch) {
  return (databaseUrl: string, role: 'user' | 'admin', count: number): Promise<Person[]> =>
    insertPeople({ databaseUrl, role, count, ...batch });
}
