import { initTRPC, TRPCError } from '@trpc/server';
import { pino } from 'pino';
import { describe, expect, test, vi } from 'vitest';
import { z } from 'zod';
import { testDeps } from '../test/harness';
import type { Context } from './context';
import { adminProcedure, createCallerFactory, publicProcedure, router } from './init';
import {
  type CallResult,
  callProcedure,
  deserializeInput,
  errorShapeOf,
  httpStatusOf,
  inputSchemaOf,
  outputSchemaOf,
  prepareProcedures,
  procedureMetaOf,
  proceduresOf,
  procedureTypeOf,
  runsInOneChain,
  serializeResponse,
  toTRPCError,
  validatesSynchronously,
} from './internals';
import { appRouter } from './router';

/**
 * Pins every behaviour of tRPC's internals that server/trpc/internals.ts relies on (issue 16). A
 * tRPC upgrade that moves or changes one of them fails here, by name, before the REST adapter,
 * the query fast path or /metrics misbehave. No database: the procedures below never use it.
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
function context(): Context {
  const deps = testDeps(undefined as unknown as Context['db']);
  return {
    deps,
    db: deps.db,
    ip: '127.0.0.1',
    requestId: 'req-1',
    log: pino({ level: 'silent' }),
    auth: null,
    tokenRejected: false,
    apiKey: null,
  };
}

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
    const greet = { procedure: testRouter.greet, path: 'greet', ctx };
    await expect(callProcedure({ ...greet, input: { name: 'Ann' } })).resolves.toEqual({
      greeting: 'Hello Ann from req-1',
    });
    const invalid = callProcedure({ ...greet, input: { name: 'A' } });
    await expect(invalid).rejects.toBeInstanceOf(TRPCError);
    await expect(invalid).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // The admin middleware ran: an anonymous context is refused before the resolver.
    await expect(
      callProcedure({ procedure: testRouter.nested.save, path: 'nested.save', ctx, input: { id: 'x' } }),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  test("callProcedure answers exactly as tRPC's own server-side caller", async () => {
    const ctx = context();
    const caller = createCallerFactory(testRouter)(ctx);
    expect(
      await callProcedure({ procedure: testRouter.greet, path: 'greet', ctx, input: { name: 'Bo' } }),
    ).toEqual(await caller.greet({ name: 'Bo' }));
    const viaCaller = await caller.greet({ name: '' }).catch((error: unknown) => error);
    const viaCall = await callProcedure({
      procedure: testRouter.greet,
      path: 'greet',
      ctx,
      input: { name: '' },
    }).catch((error: unknown) => error);
    expect(viaCall).toBeInstanceOf(TRPCError);
    expect(viaCall).toMatchObject({
      code: (viaCaller as TRPCError).code,
      message: (viaCaller as TRPCError).message,
    });
  });

  test('errorShapeOf applies our errorFormatter, as the adapters do', async () => {
    const ctx = context();
    const error = toTRPCError(
      await callProcedure({ procedure: testRouter.greet, path: 'greet', ctx, input: {} }).catch(
        (cause: unknown) => cause,
      ),
    );
    const shape = errorShapeOf(testRouter, { error, type: 'query', path: 'greet', input: {}, ctx });
    expect(shape).toEqual({
      code: -32600,
      message: 'Invalid input: expected string, received undefined',
      data: {
        code: 'BAD_REQUEST',
        httpStatus: 400,
        appCode: 'BAD_REQUEST',
        path: 'greet',
        issues: [{ path: 'name', message: expect.any(String) }],
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
    // No transformer: answers and inputs travel as plain JSON (DESIGN.md section 5).
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

describe('prepareProcedures: every router of init.ts checks zod inputs and outputs with a synchronous parse first', () => {
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
  const call = (path: 'plain' | 'refined' | 'wrong', input?: unknown) =>
    callProcedure({ procedure: validated[path], path, ctx: context(), input });

  test('the procedures of every router built with init.ts, the application’s included, are switched over', () => {
    expect(validatesSynchronously(validated.plain)).toBe(true);
    expect(validatesSynchronously(testRouter.greet)).toBe(true);
    // tRPC marks its validators with _type: without them nothing would be found to switch.
    expect(validatesSynchronously(testRouter.nested.bare)).toBe(false);
    const withSchemas = [...proceduresOf(appRouter)].filter(
      ([, procedure]) => inputSchemaOf(procedure) !== undefined || outputSchemaOf(procedure) !== undefined,
    );
    expect(withSchemas.length).toBeGreaterThan(50);
    expect(
      withSchemas.filter(([, procedure]) => !validatesSynchronously(procedure)).map(([path]) => path),
    ).toEqual([]);
  });

  test('zod’s synchronous parse does the checking, with the outcomes of tRPC’s own validators', async () => {
    const parse = vi.spyOn(counted, 'parse');
    const parseAsync = vi.spyOn(counted, 'parseAsync');
    try {
      // The output is stripped to the contract.
      await expect(call('plain', { n: 1 })).resolves.toEqual({ n: 1 });
      expect(parse).toHaveBeenCalledTimes(2); // the input, then the output
      expect(parseAsync).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
      parseAsync.mockRestore();
    }
    const invalid = await call('plain', { n: 'one' }).catch((error: unknown) => error);
    expect(invalid).toBeInstanceOf(TRPCError);
    expect(invalid).toMatchObject({ code: 'BAD_REQUEST', cause: { issues: [{ path: ['n'] }] } });
    // An answer outside its contract fails too (mapErrors then reports the zod issues as any
    // validation failure: that is its rule, not this one's).
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
});

describe("prepareProcedures: one chain runs a procedure's middlewares as tRPC's own runner does", () => {
  type Seen = Record<string, unknown>;
  /** The same procedures, built anew each time: one set is prepared, the other left as tRPC built it. */
  const t = initTRPC.context<{ requestId: string; user?: string }>().meta<{ access: string }>().create();
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
      badOutput: base
        .output(z.object({ n: z.number() }))
        .query(() => ({ n: 'one' }) as unknown as { n: number }),
    });
  }
  const callerOf = (built: ReturnType<typeof build>) => t.createCallerFactory(built);
  const outcome = (promise: Promise<unknown>) =>
    promise.then(
      (data) => ({ data }),
      (error: TRPCError) => ({ error: { name: error.name, code: error.code, message: error.message } }),
    );
  const paths = [
    'list',
    'rawInputSwapped',
    'inputSwapped',
    'throws',
    'failsAndIsSeen',
    'forgetsNext',
    'badOutput',
  ] as const;
  const inputs: Record<(typeof paths)[number], unknown> = {
    list: { page: 2 },
    rawInputSwapped: { page: 1 },
    inputSwapped: undefined,
    throws: undefined,
    failsAndIsSeen: undefined,
    forgetsNext: undefined,
    badOutput: undefined,
  };

  test('the same answers, errors, options, contexts and inputs at every level, by every way of calling', async () => {
    const tRPCSeen: Seen[] = [];
    const preparedSeen: Seen[] = [];
    const directSeen: Seen[] = [];
    const tRPCs = build(tRPCSeen);
    const prepared = prepareProcedures(build(preparedSeen));
    const direct = prepareProcedures(build(directSeen));
    expect(runsInOneChain(prepared.list)).toBe(true);
    expect(runsInOneChain(tRPCs.list)).toBe(false);
    const ctx = { requestId: 'req-1' };
    for (const path of paths) {
      const input = inputs[path];
      const expected = await outcome(callerOf(tRPCs)(ctx)[path](input as never));
      // tRPC's caller over the prepared chain, and callProcedure starting the chain itself.
      expect(await outcome(callerOf(prepared)(ctx)[path](input as never)), path).toEqual(expected);
      expect(await outcome(callProcedure({ procedure: direct[path], path, ctx, input })), path).toEqual(
        expected,
      );
    }
    expect(tRPCSeen.length).toBeGreaterThan(paths.length * 2);
    expect(preparedSeen).toEqual(tRPCSeen);
    // callProcedure gives no signal, as the caller gives none here either.
    expect(directSeen).toEqual(tRPCSeen);
  });

  test('what the levels saw: meta, the context added by one middleware, the validated input', async () => {
    const seen: Seen[] = [];
    const prepared = prepareProcedures(build(seen));
    await callProcedure({
      procedure: prepared.list,
      path: 'list',
      ctx: { requestId: 'r' },
      input: { page: 3 },
      batchIndex: 2,
    });
    expect(seen).toEqual([
      expect.objectContaining({
        ctx: { requestId: 'r' },
        meta: { access: 'user' },
        path: 'list',
        type: 'query',
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

  test("every procedure of the application's router runs in one chain", () => {
    const outside = [...proceduresOf(appRouter)].filter(([, procedure]) => !runsInOneChain(procedure));
    expect(outside.map(([path]) => path)).toEqual([]);
  });
});
