import { Prisma } from '../db/generated/client';

/**
 * The statements of the CSV exports (services/exports.ts, services/payouts-export.ts): each
 * column's SQL value as the API writes it, text anyone typed defused against CSV injection.
 */

/**
 * The CSV-injection prefix in SQL, for the rows: PostgreSQL's COPY writes them (quoting as RFC
 * 4180 does: a cell with a comma, a quote or a line break is quoted, quotes doubled), so the
 * server forwards bytes and never builds a string per cell. strpos rather than a regular
 * expression: cheaper per cell. The tests compare the result with csvCell.
 */
export function defusedSql(value: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(CASE WHEN ${value} <> '' AND strpos(E'=+-@\\t\\r', left(${value}, 1)) > 0
      THEN '''' || ${value} ELSE ${value} END)`;
}

/** A column: its header, its SQL value, and whether it may hold text someone typed (`text`). */
export type Column = readonly [name: string, value: string, kind: 'text' | 'safe'];

/**
 * The statement of an export: safe columns (ids, numbers, booleans, ISO dates, enums) as text,
 * as the API writes them (`true`, not COPY's `t`); text columns defused.
 */
export function linesSql(columns: readonly Column[], rest: Prisma.Sql): Prisma.Sql {
  const cells = columns.map(([, value, kind]) =>
    kind === 'text' ? defusedSql(Prisma.raw(value)) : Prisma.raw(`(${value})::text`),
  );
  return Prisma.sql`SELECT ${Prisma.join(cells, ', ')} ${rest}`;
}

export const headerOf = (columns: readonly Column[]) => columns.map(([name]) => name);

/** Timestamps as the API spells them (ISO 8601, UTC, milliseconds). */
export const iso = (column: string) =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
