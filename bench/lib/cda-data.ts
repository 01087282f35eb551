import pg from 'pg';

/**
 * CDAs on the 1M dataset, for the payouts export and the dashboard's money: about 100,000 paid
 * CDAs on closed transactions (paid 0 to 9 days after the close, never after now), about 6,700
 * issued and not paid yet on closed ones and 3,000 on open ones (which the money does not count
 * yet), and 1 in 10 of the paid ones with a superseded version 1 before it. Lines as the split
 * makes them: a referral of 25% on 1 CDA in 5, the brokerage 30% of the rest, a 395.00 fee on 1
 * in 2, the agent the remainder (the database checks the sum). Added once, by set-based SQL;
 * a dataset that has them already is left as it is.
 */

export const PAID_CDAS = 100_000;
const CLOSED_PICKED = 107_000;
const OPEN_PICKED = 3_000;

/** The money columns of CDA number `i` (a SQL expression), gross first. */
const MONEY = `
  gross AS (SELECT p.*, 300000 + (p.i % 997) * 1013 AS gross_cents FROM picked p),
  lines AS (
    SELECT g.*, CASE WHEN g.i % 5 = 0 THEN g.gross_cents / 4 END AS referral_cents,
           CASE WHEN g.i % 2 = 0 THEN 39500 END AS fee_cents
      FROM gross g),
  split AS (
    SELECT l.*, (l.gross_cents - coalesce(l.referral_cents, 0)) * 3 / 10 AS brokerage_cents FROM lines l)`;

const COLUMNS = `transaction_id, version, status, agent_id, agent_name, brokerage_name, gross_cents,
  referral_name, referral_thousandths, referral_cents, brokerage_cents, agent_cents, fee_cents, plan_name,
  agent_split, cap_cents, transaction_fee_cents, brokerage_year_to_date_cents, pdf_key, sha256, issued_by,
  issued_at, paid_at, paid_by, superseded_at`;

function valuesOf(version: string, status: string, paidAt: string, supersededAt: string): string {
  return `s.id, ${version}, ${status}, s.user_id, u.first_name || ' ' || u.last_name, 'Acme Realty', s.gross_cents,
    CASE WHEN s.referral_cents IS NOT NULL THEN 'Harbor Referrals LLC' END,
    CASE WHEN s.referral_cents IS NOT NULL THEN 25000 END, s.referral_cents, s.brokerage_cents,
    s.gross_cents - coalesce(s.referral_cents, 0) - s.brokerage_cents - coalesce(s.fee_cents, 0), s.fee_cents,
    'Standard 70/30', 70, NULL, coalesce(s.fee_cents, 0), 0, 'cdas/' || s.id || '/' || ${version} || '.pdf',
    repeat('0', 64), $1::uuid, coalesce(s.closed_at, now() - interval '1 day'), ${paidAt}, ${paidAt === 'NULL' ? 'NULL' : '$1::uuid'}, ${supersededAt}`;
}

export async function ensureCdas(
  url: string,
  ownerEmail: string,
  log: (line: string) => void,
): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-cdas' });
  await client.connect();
  try {
    const { rows } = await client.query<{ paid: number }>(
      `SELECT count(*) FILTER (WHERE status = 'paid')::int AS paid FROM cdas`,
    );
    if ((rows[0]?.paid ?? 0) >= PAID_CDAS * 0.95) {
      log(`reusing the dataset's ${rows[0]?.paid} paid CDAs`);
      return;
    }
    const began = Date.now();
    log('adding about 117,000 CDAs (100,000 paid)...');
    const owner = await client.query<{ id: string }>('SELECT id FROM users WHERE email = $1', [ownerEmail]);
    const ownerId = owner.rows[0]?.id;
    if (!ownerId) throw new Error('no owner in the dataset');
    const { rows: counted } = await client.query<{ closed: number }>(
      'SELECT count(*)::int AS closed FROM transactions WHERE closed_at IS NOT NULL AND deleted_at IS NULL',
    );
    const every = Math.max(1, Math.floor((counted[0]?.closed ?? 0) / CLOSED_PICKED));
    await client.query('BEGIN');
    await client.query(`CREATE TEMP TABLE picked ON COMMIT DROP AS
      SELECT id, user_id, closed_at, n / ${every} AS i FROM (
        SELECT t.id, t.user_id, t.closed_at, row_number() OVER (ORDER BY t.closed_at, t.id) AS n
          FROM transactions t WHERE t.closed_at IS NOT NULL AND t.deleted_at IS NULL) AS c
       WHERE n % ${every} = 0 AND n / ${every} <= ${CLOSED_PICKED}
      UNION ALL
      SELECT id, user_id, NULL, -1 FROM (
        SELECT t.id, t.user_id FROM transactions t WHERE t.closed_at IS NULL AND t.deleted_at IS NULL
         ORDER BY t.id LIMIT ${OPEN_PICKED}) AS o`);
    const paidAt = `least(s.closed_at + (s.i % 10) * interval '1 day' + (s.i % 17) * interval '1 hour',
      now() - interval '1 minute')`;
    const insert = (where: string, values: string) =>
      client.query(
        `WITH ${MONEY} INSERT INTO cdas (${COLUMNS})
         SELECT ${values} FROM split s JOIN users u ON u.id = s.user_id WHERE ${where}`,
        [ownerId],
      );
    // A superseded first version for 1 paid CDA in 10; then the current versions.
    await insert(
      's.i >= 0 AND s.i % 16 <> 0 AND s.i % 10 = 1',
      valuesOf('1', "'superseded'", 'NULL', "s.closed_at + interval '1 hour'"),
    );
    await insert(
      's.i >= 0 AND s.i % 16 <> 0',
      valuesOf('CASE WHEN s.i % 10 = 1 THEN 2 ELSE 1 END', "'paid'", paidAt, 'NULL'),
    );
    await insert('s.i < 0 OR s.i % 16 = 0', valuesOf('1', "'issued'", 'NULL', 'NULL'));
    await client.query('COMMIT');
    await client.query('VACUUM ANALYZE cdas');
    const { rows: made } = await client.query<{ status: string; count: number }>(
      'SELECT status, count(*)::int AS count FROM cdas GROUP BY 1 ORDER BY 1',
    );
    log(
      `added CDAs in ${Math.round((Date.now() - began) / 1000)} s: ${made.map((r) => `${r.count} ${r.status}`).join(', ')}`,
    );
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}
