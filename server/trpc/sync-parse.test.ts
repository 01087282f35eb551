import { TRPCError } from '@trpc/server';
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { anonymousContext } from '../test/harness';
import { publicProcedure, router } from './init';
import { callProcedure, inputSchemaOf, outputSchemaOf, proceduresOf } from './internals';
import { appRouter } from './router';

/**
 * The base procedures give tRPC their zod schemas as synchronous parsers: the same outcomes as
 * tRPC's own validation (errors, stripping), from zod's synchronous parse. No database.
 */

const counted = z.object({ n: z.number() });
// An async refinement, which only zod's parseAsync can run.
const positive = z.object({ n: z.number() }).refine(async ({ n }) => n > 0, 'must be positive');
const validated = router({
  plain: publicProcedure
    .input(counted)
    .output(counted)
    .query(({ input }) => ({ ...input, extra: 'not in the contract' })),
  refined: publicProcedure.input(positive).query(({ input }) => input.n),
  wrong: publicProcedure.output(counted).query(() => ({ n: 'one' }) as unknown as { n: number }),
});

/** A context as tRPC's adapters pass it; the database is never reached by these procedures. */
const context = () => anonymousContext('req-1');

const call = (path: 'plain' | 'refined' | 'wrong', input?: unknown) =>
  callProcedure({ router: validated, path, type: 'query', ctx: context(), input });

describe('zod schemas parsed synchronously through tRPC', () => {
  test('zod’s synchronous parse does the checking: valid input, an answer stripped to its contract', async () => {
    const parse = vi.spyOn(counted, 'parse');
    const parseAsync = vi.spyOn(counted, 'parseAsync');
    try {
      await expect(call('plain', { n: 1 })).resolves.toEqual({ n: 1 });
      expect(parse).toHaveBeenCalledTimes(2); // the input, then the output
      expect(parseAsync).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      parseAsync.mockRestore();
    }
  });

  test('refusals are those of tRPC’s own validation: BAD_REQUEST with zod’s issues, or an output outside its contract', async () => {
    const invalid = await call('plain', { n: 'one' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(TRPCError);
    expect(invalid).toMatchObject({ code: 'BAD_REQUEST', cause: { issues: [{ path: ['n'] }] } });
    const wrongOutput = await call('wrong').catch((error: unknown) => error);
    expect(wrongOutput).toBeInstanceOf(TRPCError);
    expect(wrongOutput).toMatchObject({ cause: { issues: [{ path: ['n'], expected: 'number' }] } });
  });

  test('a schema with an async refinement is still checked, asynchronously', async () => {
    await expect(call('refined', { n: 2 })).resolves.toBe(2);
    await expect(call('refined', { n: -2 })).rejects.toMatchObject({
      code: 'BAD_REQUEST',
      cause: { issues: [{ message: 'must be positive' }] },
    });
  });

  test('the REST adapter and the OpenAPI document still read the zod schemas given', () => {
    expect(inputSchemaOf(validated.plain)).toBe(counted);
    expect(outputSchemaOf(validated.plain)).toBe(counted);
    expect(inputSchemaOf(validated.refined)).toBe(positive);
    const withSchemas = [...proceduresOf(appRouter)]
      .map(([path, procedure]) => [path, inputSchemaOf(procedure) ?? outputSchemaOf(procedure)] as const)
      .filter(([, schema]) => schema !== undefined);
    expect(withSchemas.length).toBeGreaterThan(50);
    expect(withSchemas.filter(([, schema]) => !(schema instanceof z.ZodType)).map(([path]) => path)).toEqual(
      [],
    );
  });
});
