import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { inputErrorMap } from './input-messages';

/** The messages a parse with the portal's words gives, by path. */
function messagesOf(schema: z.ZodType, input: unknown): Record<string, string> {
  const result = schema.safeParse(input, { error: inputErrorMap });
  if (result.success) throw new Error('expected the input to be refused');
  return Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe("zod's default words become the portal's, naming the field", () => {
  test('numbers, as a query string gives them', () => {
    const paging = z.object({
      page: z.coerce.number().int().min(1),
      limit: z.coerce.number().int().min(1).max(100),
      ratio: z.number().gt(0).lt(1),
    });
    expect(messagesOf(paging, { page: 'abc', limit: '1.5', ratio: 'x' })).toEqual({
      page: 'page must be a number',
      limit: 'limit must be a whole number',
      ratio: 'ratio must be a number',
    });
    expect(messagesOf(paging, { page: '0', limit: '101', ratio: 1 })).toEqual({
      page: 'page must be at least 1',
      limit: 'limit must be at most 100',
      ratio: 'ratio must be less than 1',
    });
  });

  test('text, lists, choices and formats', () => {
    const schema = z.object({
      name: z.string().min(1).max(5),
      code: z.string().length(3),
      tags: z.array(z.string()).max(1),
      status: z.enum(['open', 'closed']),
      kind: z.literal('deal'),
      id: z.uuid(),
      nested: z.object({ label: z.string() }),
    });
    expect(
      messagesOf(schema, {
        name: 'far too long',
        code: 'ab',
        tags: ['a', 'b'],
        status: 'gone',
        kind: 'other',
        id: 'nope',
        nested: {},
      }),
    ).toEqual({
      name: 'name cannot exceed 5 characters',
      code: 'code must be exactly 3 characters',
      tags: 'tags cannot exceed 1 item',
      status: 'status must be one of open, closed',
      kind: 'kind must be deal',
      id: 'id must be a valid id',
      'nested.label': 'label is required',
    });
    expect(messagesOf(schema.pick({ name: true }), { name: '' })).toEqual({ name: 'name is required' });
    // A query parameter given twice.
    expect(messagesOf(schema.pick({ name: true }), { name: ['a', 'b'] })).toEqual({
      name: 'name must be given once',
    });
    expect(messagesOf(z.strictObject({}), { extra: 1 })).toEqual({ '': 'Unknown field: extra' });
    expect(messagesOf(schema, 'text')).toEqual({ '': 'The input must be an object' });
  });

  test("a schema's own message comes first", () => {
    const schema = z.object({
      limit: z.coerce.number({ error: 'Give a page size' }).min(1, { error: 'Too few' }),
    });
    expect(messagesOf(schema, { limit: 'x' })).toEqual({ limit: 'Give a page size' });
    expect(messagesOf(schema, { limit: '0' })).toEqual({ limit: 'Too few' });
  });
});

test('allowed values of every kind are listed as they print', () => {
  const schema = z.object({
    size: z.union([z.literal(1n), z.literal(null), z.literal(false)]),
    n: z.literal(10n),
  });
  expect(messagesOf(schema, { size: 'x', n: 3n })).toEqual({ size: 'size is not valid', n: 'n must be 10' });
});
