import pg from 'pg';

/**
 * Query plans for the performance document: the statement the product sends, run under
 * EXPLAIN (ANALYZE, BUFFERS) with its real parameters, on a connection of its own.
 */

export type Statement = { text: string; values: readonly unknown[] };

/** The plan as PostgreSQL prints it, costs left out (the actual rows and times say more). */
export async function explainAnalyze(url: string, statement: Statement, maxLines = 60): Promise<string> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-explain' });
  await client.connect();
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${statement.text}`,
      [...statement.values],
    );
    const lines = rows.map((row) => row['QUERY PLAN']);
    return lines.length > maxLines
      ? [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more lines)`].join('\n')
      : lines.join('\n');
  } finally {
    await client.end();
  }
}

/** SQL written inside template literals, dedented and without blank lines, for printing. */
export function normaliseSql(text: string): string {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const content = lines.filter((line) => line.trim().length > 0);
  const indent = Math.min(...content.map((line) => line.length - line.trimStart().length));
  return content.map((line) => line.slice(indent)).join('\n');
}

/** Whether a plan reads the table through one of its indexes (never a sequential scan of it). */
export function usesIndexOn(plan: string, table: string): boolean {
  return (
    new RegExp(`Index (Only )?Scan.* on ${table}\\b|Bitmap Heap Scan on ${table}\\b`).test(plan) &&
    !new RegExp(`Seq Scan on ${table}\\b`).test(plan)
  );
}

/**
 * The plan of a statement the product prepares (server/db/sql.ts, `prepared: true`), as it runs
 * once prepared: executed under its prepared name a few times first (PostgreSQL picks a custom
 * or a generic plan after five), then `EXPLAIN ... EXECUTE name(values)`.
 */
export async function explainPrepared(
  url: string,
  name: string,
  statement: Statement,
  maxLines = 60,
): Promise<string> {
  const client = new pg.Client({ connectionString: url, application_name: 'bench-explain' });
  await client.connect();
  try {
    for (let i = 0; i < 6; i++)
      await client.query({ name, text: statement.text, values: [...statement.values] });
    // A Date as pg sends it (ISO 8601): String() would give a text PostgreSQL cannot read.
    const literals = statement.values.map((value) =>
      typeof value === 'number'
        ? String(value)
        : client.escapeLiteral(value instanceof Date ? value.toISOString() : String(value)),
    );
    const { rows } = await client.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) EXECUTE ${client.escapeIdentifier(name)}(${literals.join(', ')})`,
    );
    const lines = rows.map((row) => row['QUERY PLAN']);
    return lines.length > maxLines
      ? [...lines.slice(0, maxLines), `... (${lines.length - maxLines} more lines)`].join('\n')
      : lines.join('\n');
  } finally {
    await client.end();
  }
}
