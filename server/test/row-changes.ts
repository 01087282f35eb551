import pg from 'pg';

/**
 * Tables whose writes are not counted. rate_limit_windows counts sign-in, registration, reset
 * and refresh attempts, refused ones included: writing there on a 401 or a 429 is its job, not a
 * change of data. idempotency_keys likewise records requests with an Idempotency-Key, the refused
 * ones whose answer is kept among them. The counter's own table is left out because counting its updates would never end.
 */
export const UNWATCHED_TABLES: ReadonlyArray<string> = [
  'fuzz_changes',
  'rate_limit_windows',
  'idempotency_keys',
  // A passkey challenge is spent by the first answer, right or wrong: that is what makes it single use.
  'webauthn_challenges',
];

/**
 * An exact detector of writes, for tests that must prove a call changed nothing: a row-level
 * trigger on every table of the test database's public schema counts each inserted, updated or
 * deleted row (and each TRUNCATE) in `fuzz_changes`. The count lives in a table, not a sequence,
 * so it is transactional: a write that was rolled back is not counted, a committed one always is.
 * Install it only in a test's own database.
 */
export type ChangeCounter = {
  /** The tables being watched (every table of the schema but UNWATCHED_TABLES). */
  readonly tables: ReadonlyArray<string>;
  /** Committed row changes so far. */
  read(): Promise<number>;
  close(): Promise<void>;
};

const INSTALL = `
CREATE TABLE fuzz_changes (n bigint NOT NULL);
INSERT INTO fuzz_changes VALUES (0);
CREATE FUNCTION fuzz_count_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE fuzz_changes SET n = n + 1;
  RETURN NULL;
END $$;
DO $$
DECLARE t record;
BEGIN
  FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> ALL (%UNWATCHED%) LOOP
    EXECUTE format(
      'CREATE TRIGGER fuzz_count_rows AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION fuzz_count_change()',
      t.tablename);
    EXECUTE format(
      'CREATE TRIGGER fuzz_count_truncate AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION fuzz_count_change()',
      t.tablename);
  END LOOP;
END $$;
`;

export async function installChangeCounter(databaseUrl: string): Promise<ChangeCounter> {
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => {});
  await client.connect();
  // Inlined, not a parameter: a DO block takes none. The names are this file's constants.
  const unwatched = `ARRAY[${UNWATCHED_TABLES.map((name) => `'${name}'`).join(', ')}]::name[]`;
  await client.query(INSTALL.replace('%UNWATCHED%', unwatched));
  const { rows } = await client.query<{ table: string }>(
    `SELECT DISTINCT event_object_table::text AS table FROM information_schema.triggers
     WHERE trigger_name = 'fuzz_count_rows' ORDER BY 1`,
  );
  return {
    tables: rows.map((row) => row.table),
    async read() {
      const result = await client.query<{ n: string }>('SELECT n::text AS n FROM fuzz_changes');
      return Number(result.rows[0]?.n);
    },
    close: () => client.end(),
  };
}
