import { initTRPC, TRPCError } from '@trpc/server';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { anonymousContext } from '../test/harness';
import { adminProcedure, createCallerFactory, publicProcedure, router } from './init';
import {
  type CallResult,
  callProcedure,
  deserializeInput,
  errorShapeOf,
  httpStatusOf,
  inputSchemaOf,
  outputSchemaOf,
  procedureMetaOf,
  proceduresOf,
  procedureTypeOf,
  serializeResponse,
  toTRPCError,
} from './internals';

/**
 * Pins every behaviour of tRPC that server/trpc/internals.ts relies on. A tRPC upgrade that moves
 * or changes one of them fails here, by name, before the REST adapter, the query hook, the
 * WebSocket server or /metrics misbehave. No database: the procedures below never use it.
 */

const greetingInput = z.object({ name: z.string().min(2) });
const greetingOutput = z.object({ greeting: z.string() });

const testRouter = router({
  greet: publicProcedure
    .input(greetingInput)
    .output(greetingOutput)
    .query(({ input, ctx }) => ({ greeting: `Hello ${input.name} from ${ctx.requestId}` })),
  nested: router({
    save: adminProcedure.input(z.object({ id: z.string() })).mutation(() => 'saved'),
    bare: publicProcedure.query(() => 'no schemas'),
  }),
  stream: publicProcedure.subscription(async function* () {
    yield 1;
  }),
  fails: publicProcedure.query(() => {
    throw new Error('boom');
  }),
});

/** A context as tRPC's adapters pass it; the database is never reached by these procedures. */
const context = () => anonymousContext('req-1');

describe('tRPC internals the project relies on', () => {
  test('proceduresOf: every procedure by its dotted path, the very procedure objects', () => {
    const procedures = proceduresOf(testRouter);
    expect([...procedures.keys()].sort()).toEqual(['fails', 'greet', 'nested.bare', 'nested.save', 'stream']);
    expect(procedures.get('greet')).toBe(testRouter.greet);
    expect(procedures.get('nested.save')).toBe(testRouter.nested.save);
  });

  test('procedureTypeOf and procedureMetaOf read the type and the base procedure’s meta', () => {
    expect(procedureTypeOf(testRouter.greet)).toBe('query');
    expect(procedureTypeOf(testRouter.nested.save)).toBe('mutation');
    expect(procedureTypeOf(testRouter.stream)).toBe('subscription');
    expect(procedureMetaOf(testRouter.greet)).toEqual({ access: 'public' });
    expect(procedureMetaOf(testRouter.nested.save)).toEqual({ access: 'admin' });
  });

  test('inputSchemaOf and outputSchemaOf give back the schemas given to .input() and .output()', () => {
    expect(inputSchemaOf(testRouter.greet)).toBe(greetingInput);
    expect(outputSchemaOf(testRouter.greet)).toBe(greetingOutput);
    expect(inputSchemaOf(testRouter.nested.bare)).toBeUndefined();
    expect(outputSchemaOf(testRouter.nested.bare)).toBeUndefined();
  });

  test('callProcedure runs the middlewares, validates input and output, and passes the context', async () => {
    const ctx = context();
    const greet = { router: testRouter, path: 'greet', type: 'query' as const, ctx };
    await expect(callProcedure({ ...greet, input: { name: 'Ann' } })).resolves.toEqual({
      greeting: 'Hello Ann from req-1',
    });
    const invalid = callProcedure({ ...greet, input: { name: 'A' } });
    await expect(invalid).rejects.toBeInstanceOf(TRPCError);
    await expect(invalid).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // The admin middleware ran: an anonymous context is refused before the resolver.
    await expect(
      callProcedure({ router: testRouter, path: 'nested.save', type: 'mutation', ctx, input: { id: 'x' } }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test('callProcedure finds nothing where no procedure of that type is (NOT_FOUND)', async () => {
    const ctx = context();
    for (const [path, type] of [
      ['greet', 'mutation'],
      ['nested', 'query'],
      ['nope', 'query'],
    ] as const) {
      await expect(
        callProcedure({ router: testRouter, path, type, ctx, input: undefined }),
        path,
      ).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    }
  });

  test("callProcedure answers exactly as tRPC's own server-side caller", async () => {
    const ctx = context();
    const caller = createCallerFactory(testRouter)(ctx);
    const greet = { router: testRouter, path: 'greet', type: 'query' as const, ctx };
    expect(await callProcedure({ ...greet, input: { name: 'Bo' } })).toEqual(
      await caller.greet({ name: 'Bo' }),
    );
    const viaCaller = await caller.greet({ name: '' }).catch((error: unknown) => error);
    const viaCall = await callProcedure({ ...greet, input: { name: '' } }).catch((error: unknown) => error);
    expect(viaCall).toBeInstanceOf(TRPCError);
    expect(viaCall).toMatchObject({
      code: (viaCaller as TRPCError).code,
      message: (viaCaller as TRPCError).message,
    });
  });

  test('errorShapeOf applies our errorFormatter, as the adapters do', async () => {
    const ctx = context();
    const error = toTRPCError(
      await callProcedure({ router: testRouter, path: 'greet', type: 'query', ctx, input: {} }).catch(
        (cause: unknown) => cause,
      ),
    );
    const shape = errorShapeOf(testRouter, { error, type: 'query', path: 'greet', input: {}, ctx });
    expect(shape).toEqual({
      code: -32600,
      message: 'name is required',
      data: {
        code: 'BAD_REQUEST',
        httpStatus: 400,
        appCode: 'BAD_REQUEST',
        path: 'greet',
        issues: [{ path: 'name', message: 'name is required' }],
        error: 'validation',
      },
    });
    // Anything else thrown becomes an INTERNAL_SERVER_ERROR TRPCError whose shape says nothing.
    const crash = toTRPCError(new Error('secret details'));
    expect(crash).toBeInstanceOf(TRPCError);
    expect(crash.code).toBe('INTERNAL_SERVER_ERROR');
    expect(
      JSON.stringify(
        errorShapeOf(testRouter, { error: crash, type: 'query', path: 'fails', input: undefined, ctx }),
      ),
    ).not.toContain('secret');
  });

  test('httpStatusOf, serializeResponse and deserializeInput: statuses and JSON as the HTTP adapter writes them', () => {
    const ok: CallResult = { result: { data: { greeting: 'hi' } } };
    const failed: CallResult = {
      error: { code: -32004, message: 'Not found', data: { code: 'NOT_FOUND', httpStatus: 404 } },
    };
    expect(httpStatusOf(ok)).toBe(200);
    expect(httpStatusOf([ok, ok])).toBe(200);
    expect(httpStatusOf(failed)).toBe(404);
    expect(httpStatusOf([failed, failed])).toBe(404);
    expect(httpStatusOf([ok, failed])).toBe(207);
    // No transformer: answers and inputs travel as plain JSON, the same as REST.
    expect(serializeResponse(testRouter, [ok, failed])).toEqual([ok, failed]);
    // ...without a copy: tRPC's default transformer is what a router without one has.
    expect(serializeResponse(testRouter, ok)).toBe(ok);
    const superjsonLike = {
      serialize: (value: unknown) => ({ json: value }),
      deserialize: (value: unknown) => (value as { json: unknown }).json,
    };
    const transforming = initTRPC.create({ transformer: superjsonLike }).router({});
    expect(serializeResponse(transforming, ok)).toEqual({ result: { data: { json: { greeting: 'hi' } } } });
    const input = { when: '2026-11-21T12:00:00.000Z', n: 1 };
    expect(deserializeInput(testRouter, input)).toBe(input);
  });
});

describe("callProcedure runs a procedure's middlewares as tRPC's own runner does", () => {
  type Seen = Record<string, unknown>;
  const t = initTRPC.context<{ requestId: string; user?: string }>().meta<{ access: string }>().create();
  /** The same procedures, built anew for each runner, recording what every level saw. */
  function build(seen: Seen[]) {
    const record = t.middleware(async (opts) => {
      const { next, ...rest } = opts;
      seen.push({ ...rest, getRawInput: await rest.getRawInput(), keys: Object.keys(opts).sort() });
      return next();
    });
    const signIn = t.middleware(({ next }) => next({ ctx: { user: 'ann' } }));
    const base = t.procedure.meta({ access: 'user' }).use(record).use(signIn).use(record);
    const page = z.object({ page: z.number() });
    return t.router({
      list: base
        .input(page)
        .output(z.object({ page: z.number(), user: z.string() }))
        .query(({ input, ctx }) => ({ page: input.page, user: ctx.user ?? '', extra: 'stripped' })),
      rawInputSwapped: base
        .use(({ next }) => next({ getRawInput: async () => ({ page: 7 }) }))
        .input(page)
        .query(({ input }) => input.page),
      inputSwapped: base
        .use(({ next }) => next({ input: { set: 'by a middleware' } }))
        .query(({ input }) => input),
      throws: base
        .use(() => {
          throw new Error('middleware failed');
        })
        .query(() => 'never'),
      failsAndIsSeen: base
        .use(async ({ next }) => {
          const result = await next();
          seen.push({ ok: result.ok, code: result.ok ? undefined : result.error.code });
          return result;
        })
        .query(() => {
          throw new TRPCError({ code: 'CONFLICT', message: 'taken' });
        }),
      forgetsNext: base.use((async () => undefined) as never).query(() => 'never'),
      badInput: base.input(page).query(({ input }) => input.page),
      badOutput: base
        .output(z.object({ n: z.number() }))
        .query(() => ({ n: 'one' }) as unknown as { n: number }),
    });
  }
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (data) => ({ data }),
      (error: TRPCError) => ({ error: { name: error.name, code: error.code, message: error.message } }),
    );
  const inputs = {
    list: { page: 2 },
    rawInputSwapped: { page: 1 },
    inputSwapped: undefined,
    throws: undefined,
    failsAndIsSeen: undefined,
    forgetsNext: undefined,
    badInput: { page: 'two' },
    badOutput: undefined,
  } as const;

  test('the same answers, errors, options, contexts and inputs at every level', async () => {
    const tRPCSeen: Seen[] = [];
    const ourSeen: Seen[] = [];
    const viaTRPC = t.createCallerFactory(build(tRPCSeen))({ requestId: 'req-1' });
    const ours = build(ourSeen);
    for (const [path, input] of Object.entries(inputs)) {
      const expected = await outcome(viaTRPC[path as keyof typeof inputs](input as never));
      const ctx = { requestId: 'req-1' };
      expect(await outcome(callProcedure({ router: ours, path, type: 'query', ctx, input })), path).toEqual(
        expected,
      );
    }
    expect(tRPCSeen.length).toBeGreaterThan(Object.keys(inputs).length * 2);
    expect(ourSeen).toEqual(tRPCSeen);
  });

  test('what the levels saw: meta, the context one middleware added, the batch index, every option', async () => {
    const seen: Seen[] = [];
    await callProcedure({
      router: build(seen),
      path: 'list',
      type: 'query',
      ctx: { requestId: 'r' },
      input: { page: 3 },
      batchIndex: 2,
    });
    expect(seen).toEqual([
      expect.objectContaining({
        ctx: { requestId: 'r' },
        meta: { access: 'user' },
        path: 'list',
        batchIndex: 2,
      }),
      expect.objectContaining({
        ctx: { requestId: 'r', user: 'ann' },
        getRawInput: { page: 3 },
        input: undefined,
      }),
    ]);
    expect(seen[0]?.keys).toEqual([
      'batchIndex',
      'ctx',
      'getRawInput',
      'input',
      'meta',
      'next',
      'path',
      'signal',
      'type',
    ]);
  });
});
