import pg from 'pg';

/**
 * Signature requests on the 1M dataset, for the list of a transaction's requests
 * (bench/signature-requests.bench.ts). Two kinds, both by set-based SQL:
 * - the brokerage's e-signatures so far: one request on 1 transaction in 16 (its first item with a
 *   file, the version it holds), 2 signers and 3 fields each, most completed, some still out, a
 *   few voided or declined. They make the tables the size a year of use would, so the planner
 *   chooses between an index and a scan as it would in production (on a handful of rows it reads
 *   the whole table, which says nothing about a large one);
 * - the transactions measured: MEASURED open transactions of the busiest agent (agent0) with a
 *   handful of requests each, in every status, of 2 to 4 signers.
 * Added for the run and removed after it (cascading to the signers and fields), so the other
 * benchmarks see the dataset as generated.
 */

export const MEASURED = 5;
export const REQUESTS_PER_MEASURED = 6;
/** One transaction in this many has a request: its id's last hex digit is 0. */
const BACKGROUND_ONE_IN = 16;
export const BACKGROUND_SHARE = `1 transaction in ${BACKGROUND_ONE_IN}`;
/** What marks the rows this module added (a request's message). */
const MARKER = 'Added by the signature-requests benchmark.';

export type EsignRows = {
  agentEmail: string;
  /** The measured transactions, newest first. */
  transactionIds: string[];
  requests: number;
  signers: number;
  fields: number;
};

/** Signers per measured request, cycling: 2, 3, 4, 2... */
const signersOf = (n: string) => `2 + (${n} % 3)`;

export async function addSignatureRequests(url: string, agentEmail: string): Promise<EsignRows> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-esign' });
  await client.connect();
  try {
    await removeWith(client);
    await client.query('BEGIN');
    // Each chosen transaction's first item holding a file, and that file's current version.
    await client.query(`CREATE TEMP TABLE esign_picked ON COMMIT DROP AS
      SELECT DISTINCT ON (t.id) t.id AS transaction_id, t.user_id, t.created_at, t.street_address,
             f.id AS form_id, f.label, v.id AS version_id, false AS measured
        FROM transactions t
        JOIN transaction_forms f ON f.transaction_id = t.id AND f.file_key IS NOT NULL
        JOIN form_versions v ON v.form_id = f.id AND v.number = f.version
       WHERE right(t.id::text, 1) = '0' AND t.deleted_at IS NULL
       ORDER BY t.id, f.position`);
    await client.query(
      `INSERT INTO esign_picked
       SELECT DISTINCT ON (t.created_at, t.id) t.id, t.user_id, t.created_at, t.street_address,
              f.id, f.label, v.id, true
         FROM transactions t
         JOIN users u ON u.id = t.user_id AND u.email = $1
         JOIN transaction_forms f ON f.transaction_id = t.id AND f.file_key IS NOT NULL
         JOIN form_versions v ON v.form_id = f.id AND v.number = f.version
        WHERE t.closed_at IS NULL AND t.deleted_at IS NULL AND right(t.id::text, 1) <> '0'
        ORDER BY t.created_at DESC, t.id, f.position
        LIMIT $2`,
      [agentEmail, MEASURED],
    );
    // The requests: one per background transaction, REQUESTS_PER_MEASURED per measured one, a
    // day apart. Status by n: completed, sent, voided, declined in proportions 70/15/10/5 for the
    // background; every status among the measured.
    await client.query(
      `CREATE TEMP TABLE esign_requests ON COMMIT DROP AS
       WITH made AS (
         SELECT p.*, k, row_number() OVER (ORDER BY p.transaction_id, k) AS n,
                p.created_at + (3 + k) * interval '1 day' AS sent_at
           FROM esign_picked p
           CROSS JOIN LATERAL generate_series(0, CASE WHEN p.measured THEN $1::int - 1 ELSE 0 END) AS k),
       statused AS (
         SELECT m.*, CASE WHEN m.measured THEN (ARRAY['completed', 'sent', 'voided', 'sent', 'declined', 'completed'])[1 + m.k % 6]
                          WHEN m.n % 20 < 14 THEN 'completed' WHEN m.n % 20 < 17 THEN 'sent'
                          WHEN m.n % 20 < 19 THEN 'voided' ELSE 'declined' END AS status
           FROM made m)
       SELECT s.*, gen_random_uuid() AS id,
              CASE WHEN s.measured THEN ${signersOf('s.k')} ELSE 2 END AS signer_count
         FROM statused s`,
      [REQUESTS_PER_MEASURED],
    );
    await client.query(
      `INSERT INTO signature_requests (id, transaction_id, form_id, version_id, subject, message, ordered,
                                       status, document_sha256, created_by, created_at, completed_at,
                                       voided_at, void_reason, declined_at, decline_reason)
       SELECT r.id, r.transaction_id, r.form_id, r.version_id, r.label || ' for ' || r.street_address, $1,
              r.n % 3 = 0, r.status, encode(sha256(r.version_id::text::bytea), 'hex'), r.user_id, r.sent_at,
              CASE WHEN r.status = 'completed' THEN r.sent_at + interval '26 hours' END,
              CASE WHEN r.status = 'voided' THEN r.sent_at + interval '3 hours' END,
              CASE WHEN r.status = 'voided' THEN 'Sent with the wrong price' END,
              CASE WHEN r.status = 'declined' THEN r.sent_at + interval '5 hours' END,
              CASE WHEN r.status = 'declined' THEN 'The dates are not the ones we agreed' END
         FROM esign_requests r`,
      [MARKER],
    );
    // Signers: all signed on a completed request, the first on a declined one declined, some
    // viewed on an open one. Those still out were mailed just now, so no reminder is due.
    await client.query(
      `INSERT INTO signature_signers (request_id, position, name, email, token_hash, status, mailed_at,
                                      viewed_at, signed_at, declined_at, ip, user_agent)
       SELECT r.id, p, name, lower(replace(name, ' ', '.')) || '@example.com',
              encode(sha256((r.id::text || ':' || p)::bytea), 'hex'), st,
              CASE WHEN r.status = 'sent' THEN now() ELSE r.sent_at END,
              CASE WHEN st IN ('viewed', 'signed', 'declined') THEN r.sent_at + interval '2 hours' END,
              CASE WHEN st = 'signed' THEN r.sent_at + interval '25 hours' END,
              CASE WHEN st = 'declined' THEN r.sent_at + interval '5 hours' END,
              CASE WHEN st <> 'pending' THEN '203.0.113.' || (10 + p) END,
              CASE WHEN st <> 'pending' THEN 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X)' END
         FROM esign_requests r
        CROSS JOIN LATERAL generate_series(0, r.signer_count - 1) AS p
        CROSS JOIN LATERAL (SELECT (ARRAY['Dana Buyer', 'Sam Buyer', 'Lee Seller', 'Kim Seller'])[1 + p] AS name,
          CASE r.status WHEN 'completed' THEN 'signed'
                        WHEN 'declined' THEN CASE WHEN p = 0 THEN 'declined' ELSE 'viewed' END
                        ELSE CASE WHEN p = 0 THEN 'viewed' ELSE 'pending' END END AS st) AS s`,
    );
    await client.query(
      `INSERT INTO signature_fields (request_id, signer_position, page, kind, x, y, width, height, value)
       SELECT r.id, p, 1 + p, kind, 72, 600 - 40 * p, CASE WHEN kind = 'date' THEN 120 ELSE 200 END, 32,
              CASE WHEN r.status = 'completed' AND kind = 'date' THEN to_char(r.sent_at, 'FMMonth DD, YYYY') END
         FROM esign_requests r
        CROSS JOIN LATERAL generate_series(0, r.signer_count - 1) AS p
        CROSS JOIN LATERAL unnest(CASE WHEN p = 0 THEN ARRAY['signature', 'date'] ELSE ARRAY['signature'] END) AS kind`,
    );
    const { rows: measured } = await client.query<{ transaction_id: string }>(
      'SELECT transaction_id FROM esign_picked WHERE measured ORDER BY created_at DESC',
    );
    await client.query('COMMIT');
    await client.query('ANALYZE signature_requests, signature_signers, signature_fields');
    const { rows: counts } = await client.query<{ requests: number; signers: number; fields: number }>(
      `SELECT (SELECT count(*) FROM signature_requests)::int AS requests,
              (SELECT count(*) FROM signature_signers)::int AS signers,
              (SELECT count(*) FROM signature_fields)::int AS fields`,
    );
    const transactionIds = measured.map((row) => row.transaction_id);
    if (transactionIds.length < MEASURED)
      throw new Error(`only ${transactionIds.length} open transactions of ${agentEmail} have a file`);
    return {
      agentEmail,
      transactionIds,
      requests: counts[0]?.requests ?? 0,
      signers: counts[0]?.signers ?? 0,
      fields: counts[0]?.fields ?? 0,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

async function removeWith(client: pg.Client): Promise<void> {
  await client.query('DELETE FROM signature_requests WHERE message = $1', [MARKER]);
}

/** Removes every request this module added, with their signers and fields. */
export async function removeSignatureRequests(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-esign' });
  await client.connect();
  try {
    await removeWith(client);
    await client.query('VACUUM ANALYZE signature_requests, signature_signers, signature_fields');
  } finally {
    await client.end();
  }
}
