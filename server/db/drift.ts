import { createRequire } from 'node:module';
import pg from 'pg';

/**
 * Compares schema.prisma with a live database: tables, columns (type, nullability, default),
 * enums and their values, indexes and foreign keys. Prisma's own `migrate diff` cannot run here
 * (it needs a schema engine binary that cannot be downloaded; it prints nothing and exits 0),
 * so this is what proves the hand-written migrations and the schema describe the same database.
 *
 * The schema side comes from Prisma's DMMF (get_dmmf of @prisma/prisma-schema-wasm, the same
 * parser the CLI uses); the database side from information_schema, pg_enum and pg_index.
 */

/**
 * Indexes that schema.prisma cannot express, with their exact definition. Anything else in the
 * database that the schema does not declare is drift.
 */
export const RAW_ONLY_INDEXES: Record<string, string> = {
  users_single_owner_idx: 'UNIQUE btree(is_owner) WHERE is_owner',
  // The separator is U+001F, as pg_get_indexdef prints it (migration 20261121180000).
  // The review queue's partial indexes (migration 20261126120000_compliance_workflow).
  transaction_forms_review_queue_idx:
    "btree(submitted_at, id) WHERE ((file_key IS NOT NULL) AND (status = 'pending'::form_status))",
  transaction_forms_waiver_queue_idx:
    "btree(waiver_requested_at, id) WHERE (waiver_status = 'requested'::waiver_status)",
  transactions_review_queue_idx:
    'btree(user_id, type, queue_count) WHERE ((queue_count > 0) AND (closed_at IS NULL) AND (deleted_at IS NULL))',
  // Counts the admin list by state (migration 20261126190000_transactions_state_count_idx).
  transactions_state_count_idx: 'btree(compliance_state) WHERE (deleted_at IS NULL)',
  // A template's open transactions, for the job that copies its rules to them.
  transactions_open_template_idx:
    'btree(template_id, id) WHERE ((closed_at IS NULL) AND (deleted_at IS NULL))',
  // A transaction's current CDA, an agent's year for its cap, paid CDAs by payment (migration
  // 20261206090000_cdas).
  cdas_current_key: "UNIQUE btree(transaction_id) WHERE (status <> 'superseded'::text)",
  cdas_agent_year_idx: "btree(agent_id, issued_at) WHERE (status <> 'superseded'::text)",
  cdas_paid_at_idx: "btree(paid_at) WHERE (status = 'paid'::text)",
  // Closed files the daily purge may still reach (migration 20261209100000_retention_legal_hold).
  transactions_purge_candidates_idx:
    'btree(closed_at) WHERE ((purged_at IS NULL) AND (closed_at IS NOT NULL) AND (NOT legal_hold))',
  // The issued CDAs by their transaction's closing (migration 20261206100000_cdas_closed_at).
  cdas_issued_closed_at_idx: "btree(closed_at) WHERE ((status = 'issued'::text) AND (closed_at IS NOT NULL))",
  // Reminders still to send (migration 20261127090000_jobs_mail_key_dates).
  reminders_due_idx: 'btree(due_at) WHERE (sent_at IS NULL)',
  // The broker dashboard's covering indexes (migration 20261129090000_broker_dashboard); like
  // every definition here, the key columns and the predicate (INCLUDE columns are not compared).
  form_versions_rejections_idx:
    "btree(decided_at) WHERE ((decision_status = 'rejected'::form_status) AND (decided_at IS NOT NULL))",
  // The decisions by turnaround bucket (migration 20261130090000_review_figures).
  form_versions_turnaround_idx:
    'btree(review_turnaround_bucket(review_turnaround_seconds(uploaded_at, decided_at)), decided_by, decided_at) WHERE (decided_at IS NOT NULL)',
  transactions_queued_idx:
    'btree(id) WHERE ((queue_count > 0) AND (closed_at IS NULL) AND (deleted_at IS NULL))',
  transactions_at_risk_idx:
    "btree(closing_date, id) WHERE ((closing_date IS NOT NULL) AND (closed_at IS NULL) AND (deleted_at IS NULL) AND (compliance_state <> ALL (ARRAY['compliant'::compliance_state, 'closed'::compliance_state])))",
  transactions_closing_date_idx:
    'btree(closing_date) WHERE ((closing_date IS NOT NULL) AND (deleted_at IS NULL))',
  // The desk by office (migration 20261203100000_office_desk).
  transactions_office_queue_idx:
    'btree(office_id, type, queue_count) WHERE ((queue_count > 0) AND (closed_at IS NULL) AND (deleted_at IS NULL))',
  form_versions_agent_turnaround_idx:
    'btree(review_turnaround_bucket(review_turnaround_seconds(uploaded_at, decided_at)), agent_id, decided_at) WHERE (decided_at IS NOT NULL)',
  form_versions_agent_decisions_idx: 'btree(agent_id, decided_at) WHERE (decided_at IS NOT NULL)',
  form_versions_agent_rejections_idx:
    "btree(agent_id, decided_at) WHERE ((decision_status = 'rejected'::form_status) AND (decided_at IS NOT NULL))",
  // The dashboard's turnaround counts by office, from the index alone (migration
  // 20261203130000_dashboard_office_indexes).
  review_agent_turnarounds_agent_day_idx: 'btree(agent_id, day)',
  review_agent_turnarounds_day_idx: 'btree(day)',
  // Every office's monthly turnaround counts, and every agent's daily counts, from the indexes
  // alone (migration 20261207090000_review_figures_by_month).
  review_agent_turnaround_months_month_idx: 'btree(month)',
  review_agent_days_day_idx: 'btree(day)',
  transactions_search_idx:
    "gin(user_id, ((((((street_address || '\u001f'::text) || city) || '\u001f'::text) || state) || '\u001f'::text) || zip) gin_trgm_ops)",
};

type DmmfField = {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'object' | 'enum' | 'unsupported';
  isList: boolean;
  isRequired: boolean;
  type: string;
  nativeType?: [string, string[]] | null;
  default?: unknown;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
};
type DmmfModel = { name: string; dbName: string | null; fields: DmmfField[] };
type DmmfEnum = {
  name: string;
  dbName?: string | null;
  values: Array<{ name: string; dbName: string | null }>;
};
type DmmfIndex = {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  algorithm?: string;
  fields: Array<{ name: string; sortOrder?: 'asc' | 'desc'; operatorClass?: string }>;
};
type Datamodel = { models: DmmfModel[]; enums: DmmfEnum[]; indexes: DmmfIndex[] };

export function parseSchema(schemaText: string): Datamodel {
  const require = createRequire(import.meta.url);
  const wasm = require('@prisma/prisma-schema-wasm') as { get_dmmf(params: string): string };
  const dmmf = JSON.parse(wasm.get_dmmf(JSON.stringify({ prismaSchema: schemaText }))) as {
    datamodel: Datamodel;
  };
  return dmmf.datamodel;
}

type Column = { type: string; nullable: boolean; default: string | null };
type Index = { definition: string };
type ForeignKey = { definition: string };
type Shape = {
  tables: Map<string, Map<string, Column>>;
  enums: Map<string, string[]>;
  indexes: Map<string, Index>;
  foreignKeys: Map<string, ForeignKey>;
};

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  DateTime: 'timestamp(3) without time zone',
  Json: 'jsonb',
  Bytes: 'bytea',
};

function nativeTypeName([name, args]: [string, string[]]): string {
  const n = args[0];
  switch (name) {
    case 'Uuid':
      return 'uuid';
    case 'Citext':
      return 'citext';
    case 'Text':
      return 'text';
    case 'Timestamptz':
      return `timestamp(${n ?? 6}) with time zone`;
    case 'Timestamp':
      return `timestamp(${n ?? 6}) without time zone`;
    case 'VarChar':
      return n ? `character varying(${n})` : 'character varying';
    case 'Integer':
      return 'integer';
    case 'SmallInt':
      return 'smallint';
    case 'JsonB':
      return 'jsonb';
    case 'Json':
      return 'json';
    case 'Date':
      return 'date';
    default:
      return name.toLowerCase();
  }
}

function expectedDefault(field: DmmfField, enums: Map<string, string>): string | null {
  const value = field.default;
  if (value === undefined || value === null) return null;
  if (typeof value === 'object' && !Array.isArray(value)) {
    const fn = value as { name: string; args: unknown[] };
    if (fn.name === 'now') return 'CURRENT_TIMESTAMP';
    if (fn.name === 'dbgenerated') return String(fn.args[0]);
    if (fn.name === 'autoincrement') return 'nextval';
    return null; // uuid(), cuid(): generated by the client, no database default
  }
  if (field.kind === 'enum') return `'${String(value)}'::${enums.get(field.type) ?? field.type}`;
  // @default([]) on a String[] (Prisma writes ARRAY[]::TEXT[]); no other list default is used.
  if (field.isList && Array.isArray(value) && value.length === 0 && field.type === 'String')
    return 'ARRAY[]::text[]';
  // @default([3, 1]) on an Int[] (users.reminder_days): PostgreSQL prints ARRAY[3, 1].
  if (field.isList && Array.isArray(value) && field.type === 'Int') return `ARRAY[${value.join(', ')}]`;
  if (field.type === 'Json' && typeof value === 'string') return `'${value}'::jsonb`;
  if (typeof value === 'string') return `'${value}'::text`;
  return String(value);
}

function normaliseDefault(value: string | null): string | null {
  if (value === null) return null;
  if (value.startsWith('nextval(')) return 'nextval';
  return value.replace(/"/g, '');
}

function schemaShape(model: Datamodel): Shape {
  const enumDbNames = new Map(model.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const tableOf = new Map(model.models.map((m) => [m.name, m.dbName ?? m.name]));
  const columnOf = (modelName: string, fieldName: string) => {
    const field = model.models.find((m) => m.name === modelName)?.fields.find((f) => f.name === fieldName);
    return field?.dbName ?? fieldName;
  };

  const tables = new Map<string, Map<string, Column>>();
  for (const m of model.models) {
    const columns = new Map<string, Column>();
    for (const field of m.fields) {
      if (field.kind !== 'scalar' && field.kind !== 'enum') continue;
      const base =
        field.kind === 'enum'
          ? (enumDbNames.get(field.type) ?? field.type)
          : field.nativeType
            ? nativeTypeName(field.nativeType)
            : (SCALAR_TYPES[field.type] ?? field.type);
      columns.set(field.dbName ?? field.name, {
        type: field.isList ? `${base}[]` : base,
        // Prisma creates list columns nullable even when the field is required.
        nullable: field.isList || !field.isRequired,
        default: normaliseDefault(expectedDefault(field, enumDbNames)),
      });
    }
    tables.set(m.dbName ?? m.name, columns);
  }

  const enums = new Map(
    model.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]),
  );

  const indexes = new Map<string, Index>();
  for (const index of model.indexes) {
    const table = tableOf.get(index.model) ?? index.model;
    const columns = index.fields.map((f) => columnOf(index.model, f.name));
    const suffix = index.type === 'id' ? 'pkey' : index.type === 'unique' ? 'key' : 'idx';
    const name =
      index.dbName ?? (index.type === 'id' ? `${table}_pkey` : `${table}_${columns.join('_')}_${suffix}`);
    const parts = index.fields.map((f, i) =>
      [columns[i], f.sortOrder === 'desc' ? 'DESC' : '', f.operatorClass ?? ''].filter(Boolean).join(' '),
    );
    const unique = index.type === 'id' || index.type === 'unique' ? 'UNIQUE ' : '';
    indexes.set(name, {
      definition: `${unique}${(index.algorithm ?? 'btree').toLowerCase()}(${parts.join(', ')})`,
    });
  }

  const foreignKeys = new Map<string, ForeignKey>();
  for (const m of model.models) {
    const table = m.dbName ?? m.name;
    for (const field of m.fields) {
      if (field.kind !== 'object' || !field.relationFromFields?.length) continue;
      const from = field.relationFromFields.map((f) => columnOf(m.name, f));
      const to = (field.relationToFields ?? []).map((f) => columnOf(field.type, f));
      const requiredFk = field.relationFromFields.every(
        (f) => m.fields.find((candidate) => candidate.name === f)?.isRequired,
      );
      const onDelete = field.relationOnDelete ?? (requiredFk ? 'Restrict' : 'SetNull');
      const onUpdate = field.relationOnUpdate ?? 'Cascade';
      foreignKeys.set(`${table}_${from.join('_')}_fkey`, {
        definition: `${table}(${from.join(', ')}) -> ${tableOf.get(field.type)}(${to.join(', ')}) ON DELETE ${onDelete} ON UPDATE ${onUpdate}`,
      });
    }
  }
  return { tables, enums, indexes, foreignKeys };
}

const REFERENTIAL_ACTIONS: Record<string, string> = {
  a: 'NoAction',
  r: 'Restrict',
  c: 'Cascade',
  n: 'SetNull',
  d: 'SetDefault',
};

async function databaseShape(client: pg.Client): Promise<Shape> {
  const columns = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: 'YES' | 'NO';
    column_default: string | null;
    datetime_precision: number | null;
    character_maximum_length: number | null;
  }>(`
    SELECT c.table_name, c.column_name, c.data_type, c.udt_name, c.is_nullable, c.column_default,
           c.datetime_precision, c.character_maximum_length
      FROM information_schema.columns c
      JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
     WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
       AND c.table_name <> '_prisma_migrations'
     ORDER BY c.table_name, c.ordinal_position`);
  const tables = new Map<string, Map<string, Column>>();
  for (const row of columns.rows) {
    let type: string;
    if (row.data_type === 'USER-DEFINED') type = row.udt_name;
    else if (row.data_type === 'ARRAY') type = `${row.udt_name.replace(/^_/, '')}[]`;
    else if (row.data_type.startsWith('timestamp'))
      type = row.data_type.replace('timestamp', `timestamp(${row.datetime_precision})`);
    else if (row.data_type === 'character varying' && row.character_maximum_length)
      type = `character varying(${row.character_maximum_length})`;
    else type = row.data_type;
    if (type === 'text[]' || type === 'int4[]') type = type.replace('int4', 'integer');
    const table = tables.get(row.table_name) ?? new Map<string, Column>();
    table.set(row.column_name, {
      type,
      nullable: row.is_nullable === 'YES',
      default: normaliseDefault(row.column_default),
    });
    tables.set(row.table_name, table);
  }

  const enumRows = await client.query<{ name: string; label: string }>(`
    SELECT t.typname::text AS name, e.enumlabel::text AS label
      FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid JOIN pg_namespace n ON n.oid = t.typnamespace
     WHERE n.nspname = current_schema()
     ORDER BY t.typname, e.enumsortorder`);
  const enums = new Map<string, string[]>();
  for (const row of enumRows.rows) enums.set(row.name, [...(enums.get(row.name) ?? []), row.label]);

  const indexRows = await client.query<{
    name: string;
    unique: boolean;
    method: string;
    columns: string[];
    predicate: string | null;
  }>(`
    SELECT i.relname::text AS name, ix.indisunique AS unique, am.amname::text AS method,
           pg_get_expr(ix.indpred, ix.indrelid) AS predicate,
           ARRAY(
             SELECT concat_ws(' ',
                      pg_get_indexdef(ix.indexrelid, k.n, true),
                      CASE WHEN (ix.indoption[k.n - 1] & 1) = 1 THEN 'DESC' END,
                      CASE WHEN NOT oc.opcdefault THEN oc.opcname::text END)
               FROM generate_series(1, ix.indnkeyatts) AS k(n)
               JOIN pg_opclass oc ON oc.oid = ix.indclass[k.n - 1]
              ORDER BY k.n
           ) AS columns
      FROM pg_index ix
      JOIN pg_class i ON i.oid = ix.indexrelid
      JOIN pg_class t ON t.oid = ix.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      JOIN pg_am am ON am.oid = i.relam
     WHERE n.nspname = current_schema() AND t.relname <> '_prisma_migrations'`);
  const indexes = new Map<string, Index>();
  for (const row of indexRows.rows) {
    const predicate = row.predicate ? ` WHERE ${row.predicate}` : '';
    // pg_get_indexdef quotes keywords ("position"); the schema side never quotes.
    const columns = row.columns.map((column) => column.replace(/"/g, ''));
    indexes.set(row.name, {
      definition: `${row.unique ? 'UNIQUE ' : ''}${row.method}(${columns.join(', ')})${predicate}`,
    });
  }

  const fkRows = await client.query<{
    name: string;
    table: string;
    ref_table: string;
    columns: string[];
    ref_columns: string[];
    on_delete: string;
    on_update: string;
  }>(`
    SELECT con.conname::text AS name, c.relname::text AS table, rc.relname::text AS ref_table,
           con.confdeltype::text AS on_delete, con.confupdtype::text AS on_update,
           ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
           ARRAY(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY k(attnum, ord)
                   JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS ref_columns
      FROM pg_constraint con
      JOIN pg_class c ON c.oid = con.conrelid
      JOIN pg_class rc ON rc.oid = con.confrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE con.contype = 'f' AND n.nspname = current_schema()`);
  const foreignKeys = new Map<string, ForeignKey>();
  for (const row of fkRows.rows) {
    foreignKeys.set(row.name, {
      definition:
        `${row.table}(${row.columns.join(', ')}) -> ${row.ref_table}(${row.ref_columns.join(', ')}) ` +
        `ON DELETE ${REFERENTIAL_ACTIONS[row.on_delete]} ON UPDATE ${REFERENTIAL_ACTIONS[row.on_update]}`,
    });
  }
  return { tables, enums, indexes, foreignKeys };
}

function compareMaps<T>(
  what: string,
  schema: Map<string, T>,
  database: Map<string, T>,
  render: (value: T) => string,
  differences: string[],
) {
  for (const [name, expected] of schema) {
    const actual = database.get(name);
    if (actual === undefined) differences.push(`${what} ${name}: in schema.prisma but not in the database`);
    else if (render(actual) !== render(expected))
      differences.push(
        `${what} ${name}: schema.prisma has ${render(expected)}, the database has ${render(actual)}`,
      );
  }
  for (const name of database.keys()) {
    if (!schema.has(name)) differences.push(`${what} ${name}: in the database but not in schema.prisma`);
  }
}

/** Every difference between the schema text and the database at `databaseUrl`; [] when none. */
export async function findSchemaDrift(schemaText: string, databaseUrl: string): Promise<string[]> {
  const expected = schemaShape(parseSchema(schemaText));
  for (const [name, definition] of Object.entries(RAW_ONLY_INDEXES)) {
    expected.indexes.set(name, { definition });
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let actual: Shape;
  try {
    actual = await databaseShape(client);
  } finally {
    await client.end();
  }

  const differences: string[] = [];
  compareMaps('table', expected.tables, actual.tables, () => 'a table', differences);
  for (const [table, columns] of expected.tables) {
    const actualColumns = actual.tables.get(table);
    if (!actualColumns) continue;
    const renderColumn = (c: Column) =>
      `${c.type} ${c.nullable ? 'NULL' : 'NOT NULL'} DEFAULT ${c.default ?? 'none'}`;
    const prefixed = (map: Map<string, Column>) => new Map([...map].map(([k, v]) => [`${table}.${k}`, v]));
    compareMaps('column', prefixed(columns), prefixed(actualColumns), renderColumn, differences);
  }
  compareMaps('enum', expected.enums, actual.enums, (values) => `(${values.join(', ')})`, differences);
  compareMaps('index', expected.indexes, actual.indexes, (i) => i.definition, differences);
  compareMaps('foreign key', expected.foreignKeys, actual.foreignKeys, (f) => f.definition, differences);
  return differences;
}
