import { z } from 'zod';
import { inputErrorMap } from '../../shared/schemas/input-messages';

/**
 * zod schemas checked with their synchronous parse, through tRPC's public parser contract: a
 * parser object with a `parse` (tRPC calls it, and takes its value or its throw) and zod's own
 * `~standard` (tRPC reads the input and output types from it). Given a zod schema itself, tRPC
 * calls `parseAsync`, and zod runs its compiled code for objects only in a synchronous parse:
 * checking a page of ten transactions costs about 70 µs of CPU through parseAsync against 11
 * through parse, on every list answer. What it buys (`npm run bench -- api-list`, 2026-12-02):
 * the tRPC list at 1.26x raw Fastify + pg's CPU per answer with it, 1.68x without (goal 1.5x).
 * The result, the errors and the stripping of unknown keys are the same. A schema with an async
 * refinement cannot be parsed synchronously (zod says so with $ZodAsyncError before it answers
 * anything): it is parsed asynchronously, as tRPC would. Either way zod's default words for a
 * check without a message of its own become the portal's (inputErrorMap).
 */

const PARSE_OPTIONS = { error: inputErrorMap };

const zodSchemaOfParser = new WeakMap<object, z.ZodType>();

function syncParser(schema: z.ZodType): object {
  const parser = {
    '~standard': schema['~standard'],
    parse(value: unknown): unknown {
      try {
        return schema.parse(value, PARSE_OPTIONS);
      } catch (error) {
        if (error instanceof z.core.$ZodAsyncError) return schema.parseAsync(value, PARSE_OPTIONS);
        throw error;
      }
    },
  };
  zodSchemaOfParser.set(parser, schema);
  return parser;
}

/** The zod schema behind what a procedure was given as `.input()` or `.output()`. */
export function zodSchemaOf(parser: unknown): unknown {
  return (typeof parser === 'object' && parser !== null && zodSchemaOfParser.get(parser)) || parser;
}

/** The builder methods that return another builder, which parses the same way. */
const CHAINED = new Set<PropertyKey>(['use', 'meta', 'concat', 'unstable_concat']);

/**
 * A procedure builder whose `.input()` and `.output()` take zod schemas as synchronous parsers,
 * and whose every builder built from it does the same. Only tRPC's public builder methods are
 * called; the types are the schema's, as tRPC infers them from `~standard`.
 */
export function parsingSynchronously<TBuilder extends object>(builder: TBuilder): TBuilder {
  return new Proxy(builder, {
    get(target, key) {
      const value = Reflect.get(target, key) as unknown;
      if (typeof value !== 'function') return value;
      if (key === 'input' || key === 'output') {
        return (parser: unknown) =>
          parsingSynchronously(value.call(target, parser instanceof z.ZodType ? syncParser(parser) : parser));
      }
      if (CHAINED.has(key)) return (...args: unknown[]) => parsingSynchronously(value.apply(target, args));
      return value.bind(target);
    },
  });
}
