import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, test } from 'vitest';
import { SCHEMA_FILE } from '../paths';
import { runSql } from '../test/databases';
import { setupTestDatabase } from '../test/harness';
import { findSchemaDrift } from './drift';

// A database built by the real migrations (the template every test database is cloned from).
const migrated = setupTestDatabase();
let schema: string;

beforeAll(async () => {
  schema = await readFile(SCHEMA_FILE, 'utf8');
});

function addToModel(text: string, model: string, line: string): string {
  const changed = text.replace(new RegExp(`(model ${model} \\{\\n)`), `$1  ${line}\n`);
  expect(changed).not.toBe(text);
  return changed;
}

describe('schema drift between schema.prisma and the migrations', () => {
  test('the migrations build exactly the database schema.prisma describes', async () => {
    expect(await findSchemaDrift(schema, migrated.url)).toEqual([]);
  });

  test('a column declared in schema.prisma without a migration is reported', async () => {
    const withExtraColumn = addToModel(schema, 'User', 'nickname String? @map("nickname")');
    expect(await findSchemaDrift(withExtraColumn, migrated.url)).toEqual([
      'column users.nickname: in schema.prisma but not in the database',
    ]);
  });

  test('a changed type, nullability or default is reported', async () => {
    const changed = schema.replace(
      '  city                      String\n',
      '  city                      String?\n',
    );
    expect(changed).not.toBe(schema);
    expect(await findSchemaDrift(changed, migrated.url)).toEqual([
      'column transactions.city: schema.prisma has text NULL DEFAULT none, the database has text NOT NULL DEFAULT none',
    ]);
  });

  test('an enum value, an index or a model missing from the migrations is reported', async () => {
    let changed = schema.replace('  rejected\n', '  rejected\n  withdrawn\n');
    changed = changed.replace(
      '@@index([userId], map: "comments_user_id_idx")',
      '@@index([userId], map: "comments_user_id_idx")\n  @@index([createdAt], map: "comments_created_at_idx")',
    );
    changed += '\nmodel Region {\n  id String @id @db.Uuid\n  @@map("regions")\n}\n';
    expect((await findSchemaDrift(changed, migrated.url)).sort()).toEqual(
      [
        'enum form_status: schema.prisma has (pending, accepted, rejected, withdrawn), the database has (pending, accepted, rejected)',
        'index comments_created_at_idx: in schema.prisma but not in the database',
        'index regions_pkey: in schema.prisma but not in the database',
        'table regions: in schema.prisma but not in the database',
      ].sort(),
    );
  });
});

describe('schema drift in the database itself', () => {
  const altered = setupTestDatabase();

  test('columns, indexes and foreign keys added or changed by hand are reported', async () => {
    await runSql(altered.url, 'ALTER TABLE banners ADD COLUMN thumbnail TEXT');
    await runSql(altered.url, 'CREATE INDEX banners_name_idx ON banners (name)');
    await runSql(altered.url, 'ALTER TABLE comments DROP CONSTRAINT comments_user_id_fkey');
    await runSql(
      altered.url,
      'ALTER TABLE comments ADD CONSTRAINT comments_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE ON UPDATE CASCADE',
    );
    expect((await findSchemaDrift(schema, altered.url)).sort()).toEqual(
      [
        'column banners.thumbnail: in the database but not in schema.prisma',
        'foreign key comments_user_id_fkey: schema.prisma has comments(user_id) -> users(id) ON DELETE Restrict ON UPDATE Cascade, the database has comments(user_id) -> users(id) ON DELETE Cascade ON UPDATE Cascade',
        'index banners_name_idx: in the database but not in schema.prisma',
      ].sort(),
    );
  });
});
