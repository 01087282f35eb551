import fc from 'fast-check';
import { TINY_PDF } from './api-calls';

/**
 * fast-check arbitraries of hostile request parts, for fuzzing the HTTP surface: values of the
 * wrong type, huge and exotic strings, prototype-pollution keys, deep JSON, odd path segments,
 * query strings and multipart bodies. Inputs start from a VALID value and are mutated a little,
 * so most cases get past authentication and reach validation and the services.
 *
 * Dynamic keys are always set with Object.defineProperty: `obj[key] = v` with key `__proto__`
 * would change the object's prototype instead of sending the key, and could pollute the test.
 */

/** Keys a polluted prototype would answer; the prototype guard probes every one of them. */
export const POLLUTION_PROBES = ['polluted', 'isAdmin', 'isOwner', 'fuzzRole'] as const;

/** Text spliced verbatim into the JSON: numbers JSON.stringify cannot write, nesting too deep to build. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Sets an own, enumerable property, whatever its name (`__proto__` included). */
export function setOwn(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** JSON text of a value that may hold RawJson parts and own `__proto__` keys. */
export function toJsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value).map(
      (key) => `${JSON.stringify(key)}:${toJsonText((value as Record<string, unknown>)[key])}`,
    );
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

function objectWith(entries: Array<[string, unknown]>): Record<string, unknown> {
  const target: Record<string, unknown> = {};
  for (const [key, value] of entries) setOwn(target, key, value);
  return target;
}

/** `depth` levels of arrays or objects, as text (building them as values would overflow the stack). */
export function deepJson(depth: number, shape: 'array' | 'object' | 'proto'): RawJson {
  if (shape === 'array') return new RawJson(`${'['.repeat(depth)}${']'.repeat(depth)}`);
  const key = shape === 'proto' ? '__proto__' : 'a';
  return new RawJson(`${`{"${key}":`.repeat(depth)}{"polluted":true}${'}'.repeat(depth)}`);
}

const UUID = '5f0c1a52-8d3e-4c8b-9a53-3c9b1f2e4d10';

/** Strings chosen for what they do to parsers, validators and PostgreSQL. */
const SPECIAL_STRINGS = [
  '',
  ' ',
  '\t\n\r',
  '\u0000',
  'a\u0000b',
  'agent\u0000@example.com',
  '\uD800',
  '\uDFFF',
  'x\uD83D',
  '\u202Eevil.pdf',
  'e\u0301\u0301\u0301\u0301',
  '🏠💥👩‍👩‍👧‍👦',
  '\uFEFFbom',
  '\u200B',
  '\u00A0',
  'NaN',
  'Infinity',
  '-1',
  '0',
  '1e308',
  '-0',
  '0x10',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  "'; DROP TABLE users; --",
  '%',
  '%00',
  '_',
  '\\',
  '"',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as typed
  '${7*7}',
  UUID.toUpperCase(),
  ` ${UUID} `,
  `${UUID}\u0000`,
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  'https://example.com/\u0000',
  'javascript:alert(1)',
  'data:image/png;base64,AAAA',
  'forms/../../secret.pdf',
  // Time zones Node's ICU accepts that PostgreSQL may not (US/Pacific-New: dropped from tzdata),
  // or knows under another spelling: every "today" of reminders, lists and digests is SQL's.
  'US/Pacific-New',
  'SystemV/AST4',
  'america/new_york',
  'Etc/GMT+5',
];

/** Lengths around the schemas' limits (100, 200, 254, 256, 2000, 5000) and far beyond. */
const LENGTHS = [
  99, 100, 101, 199, 200, 201, 254, 255, 256, 257, 1999, 2000, 2001, 4999, 5000, 5001, 100_000,
];

export const hugeString: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('a', 'é', '🏠', '\u0000', ' ', '%'),
    fc.oneof(fc.constantFrom(...LENGTHS), fc.integer({ min: 0, max: 300_000 })),
  )
  .map(([unit, length]) => unit.repeat(length));

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
);

export const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(-1, 0, 1, 1.5, -0, 1e308, -1e308, 2 ** 31, 2 ** 53, 2 ** 53 + 2, 1e-308),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  // Valid JSON that JSON.parse turns into Infinity, 0 or a rounded integer.
  fc.constantFrom('1e999', '-1e999', '1e-999', '123456789012345678901234567890').map((n) => new RawJson(n)),
);

/** `{"__proto__": {...}}`, `{"constructor": {"prototype": {...}}}` and the like, as values. */
export const pollutionPayload: fc.Arbitrary<unknown> = fc
  .constantFrom(...POLLUTION_PROBES)
  .chain((probe) =>
    fc.constantFrom(
      objectWith([['__proto__', objectWith([[probe, true]])]]),
      objectWith([['constructor', objectWith([['prototype', objectWith([[probe, true]])]])]]),
      objectWith([['prototype', objectWith([[probe, true]])]]),
      [objectWith([['__proto__', objectWith([[probe, 'admin']])]])],
    ),
  );

const deepValue: fc.Arbitrary<RawJson> = fc
  .tuple(
    fc.oneof(fc.constantFrom(64, 1000, 5000, 20_000), fc.integer({ min: 1, max: 20_000 })),
    fc.constantFrom('array' as const, 'object' as const, 'proto' as const),
  )
  .map(([depth, shape]) => deepJson(depth, shape));

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 2, arbitrary: fc.constantFrom(null, true, false, [], {}, [null], [[[]]], { a: {} }, ['a', 1]) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: pollutionPayload },
  { weight: 1, arbitrary: deepValue },
  { weight: 1, arbitrary: fc.array(hostileString, { maxLength: 5 }) },
);

const hostileKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'userId', 'role', 'isOwner', 'isAdmin', ''),
  fc.string({ maxLength: 20 }),
);

type Path = Array<string | number>;

/** Every place in a value where a field could be replaced or dropped (objects and arrays). */
function pathsOf(value: unknown, prefix: Path = [], out: Path[] = []): Path[] {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return out;
  const keys = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  for (const key of keys) {
    const path = [...prefix, key];
    out.push(path);
    pathsOf((value as Record<string | number, unknown>)[key], path, out);
  }
  return out;
}

function containersOf(value: unknown): Path[] {
  const paths = [[], ...pathsOf(value)] as Path[];
  return paths.filter((path) => {
    const target = at(value, path);
    return target !== null && typeof target === 'object' && !(target instanceof RawJson);
  });
}

function at(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** A structural copy that keeps own `__proto__` keys and RawJson parts. */
function copy(value: unknown): unknown {
  if (value instanceof RawJson || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(copy);
  return objectWith(Object.keys(value).map((key) => [key, copy((value as Record<string, unknown>)[key])]));
}

type Mutation =
  | { kind: 'replace'; pick: number; value: unknown }
  | { kind: 'drop'; pick: number }
  | { kind: 'add'; pick: number; key: string; value: unknown }
  | { kind: 'whole'; value: unknown };

function apply(input: unknown, mutation: Mutation): unknown {
  if (mutation.kind === 'whole') return mutation.value;
  const root = copy(input);
  if (mutation.kind === 'add') {
    const containers = containersOf(root);
    const target = containers[mutation.pick % Math.max(containers.length, 1)];
    if (!target) return objectWith([[mutation.key, mutation.value]]);
    const container = at(root, target) as object;
    if (Array.isArray(container)) container.push(mutation.value);
    else setOwn(container, mutation.key, mutation.value);
    return root;
  }
  const paths = pathsOf(root);
  const path = paths[mutation.pick % Math.max(paths.length, 1)];
  if (!path) return root;
  const parent = at(root, path.slice(0, -1)) as Record<string | number, unknown>;
  const key = path.at(-1) as string | number;
  if (mutation.kind === 'replace') setOwn(parent, String(key), mutation.value);
  else if (Array.isArray(parent)) parent.splice(key as number, 1);
  else delete parent[key];
  return root;
}

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({ kind: fc.constant('replace' as const), pick: fc.nat(), value: hostileValue }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('drop' as const), pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('add' as const),
      pick: fc.nat(),
      key: hostileKey,
      value: fc.oneof(hostileValue, pollutionPayload),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('whole' as const), value: hostileValue }) },
);

/** The valid input itself (one case in six), or it with one to three mutations applied. */
export function mutatedInput(valid: unknown): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(valid) },
    {
      weight: 5,
      arbitrary: fc
        .array(mutation, { minLength: 1, maxLength: 3 })
        .map((mutations) => mutations.reduce(apply, valid)),
    },
  );
}

/** A JSON body: usually the (mutated) input, sometimes text no JSON parser should accept. */
export function jsonBodyText(valid: unknown): fc.Arbitrary<string | Buffer> {
  const text = mutatedInput(valid).map(toJsonText);
  return fc.oneof(
    { weight: 12, arbitrary: text },
    // Cut anywhere: unterminated strings, objects and escapes.
    {
      weight: 2,
      arbitrary: fc.tuple(text, fc.nat()).map(([t, cut]) => t.slice(0, cut % Math.max(t.length, 1))),
    },
    // A key given twice: JSON.parse keeps the last one.
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constant(toJsonText(valid)), hostileKey, hostileValue)
        .map(([t, key, value]) =>
          t.startsWith('{') && t !== '{}'
            ? `${t.slice(0, -1)},${JSON.stringify(key)}:${toJsonText(value)}}`
            : t,
        ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        ' ',
        'null',
        '""',
        '0',
        '[]',
        '\uFEFF{}',
        '{"a":1,}',
        "{'a':1}",
        '{"a":"\u0000"}',
        '{"a":"\\u0000"}',
        '{"__proto__":{"polluted":true}}',
        '{"constructor":{"prototype":{"polluted":true}}}',
        'undefined',
        'NaN',
      ),
    },
    // Bytes that are not UTF-8.
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('array' as const, 'object' as const, 'proto' as const)
        .map((shape) => deepJson(5000, shape).text),
    },
  );
}

let oversized: string | undefined;
/** A body just over the 1 MiB limit: it must be refused with 413 before anything reads it. */
export function oversizedJson(): string {
  oversized ??= JSON.stringify({ padding: 'x'.repeat(1024 * 1024 + 16) });
  return oversized;
}

export const JSON_CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
] as const;

export const ODD_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'application/octet-stream',
  '',
] as const;

/**
 * encodeURIComponent for any string: it throws on a lone surrogate, which hostile strings hold on
 * purpose; such a character is sent as U+FFFD, as a browser would.
 */
export function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(/\p{Surrogate}/gu, '\uFFFD'));
}

/** A path segment, already as it would appear in a URL. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '..',
      '.',
      '%2e%2e',
      '%2e%2e%2f',
      '..%2f..%2f',
      '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
      '%00',
      '%',
      '%zz',
      '%C0%AE',
      '%ED%A0%80',
      '%F0%9F%8F%A0',
      '__proto__',
      'constructor',
      'a'.repeat(6000),
      UUID.toUpperCase(),
      `${UUID}%20`,
      `${UUID}%00`,
      `${UUID};x=1`,
      '00000000-0000-0000-0000-000000000000',
      '-1',
      '1e9',
      'null',
    ),
  },
  { weight: 3, arbitrary: hostileString.map(percentEncode) },
  { weight: 1, arbitrary: fc.uuid() },
);

const queryKey = fc.oneof(
  fc.constantFrom(
    'page',
    'limit',
    'query',
    'page[]',
    'page[0]',
    'limit[a]',
    '__proto__',
    '__proto__[polluted]',
    'constructor[prototype][polluted]',
    'constructor',
    '',
  ),
  fc.string({ maxLength: 12 }).map(percentEncode),
);

const queryValue = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '-1',
      '0',
      '1',
      '1.5',
      '1e9',
      '1e308',
      '9007199254740993',
      '9'.repeat(400),
      'NaN',
      'Infinity',
      '',
      '%20',
      '0x10',
      '%00',
      '%',
      '%zz',
      'true',
      '[]',
    ),
  },
  { weight: 2, arbitrary: hostileString.map(percentEncode) },
);

/** A query string (without `?`) made from the valid fields, then bent: repeated, odd and missing keys. */
export function hostileQuery(valid: Record<string, string>): fc.Arbitrary<string> {
  const base = Object.entries(valid).map(([key, value]) => `${percentEncode(key)}=${percentEncode(value)}`);
  const pair = fc.tuple(queryKey, queryValue).map(([key, value]) => `${key}=${value}`);
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant(base.join('&')) },
    {
      weight: 6,
      arbitrary: fc
        .tuple(fc.subarray(base), fc.array(pair, { minLength: 1, maxLength: 4 }), fc.boolean())
        .map(([kept, extra, repeat]) => [...kept, ...extra, ...(repeat ? kept : [])].join('&')),
    },
    { weight: 1, arbitrary: fc.constantFrom('&&&', '=', '==x', 'page', 'page=1&page=2', '%', '?', '#x') },
  );
}

/** One part of a multipart body. A null name or filename leaves it out of Content-Disposition. */
export type MultipartPart = {
  name: string | null;
  filename: string | null;
  contentType: string | null;
  content: Buffer;
};

export type MultipartBody = {
  parts: MultipartPart[];
  /** The boundary the body uses; the header may announce another, or none. */
  boundary: string;
  header: 'ok' | 'no-boundary' | 'other-boundary' | 'json' | 'text' | 'mixed' | 'none';
  /** Keep only this many bytes (a client that stopped half-way), or the whole body. */
  truncateAt: number | null;
  closing: boolean;
  newline: '\r\n' | '\n';
};

export function multipartPayload(body: MultipartBody): { payload: Buffer; contentType: string | undefined } {
  const { newline: nl, boundary } = body;
  const chunks: Buffer[] = [];
  for (const part of body.parts) {
    const disposition = [
      'Content-Disposition: form-data',
      ...(part.name === null ? [] : [`name="${part.name}"`]),
      ...(part.filename === null ? [] : [`filename="${part.filename}"`]),
    ].join('; ');
    const type = part.contentType === null ? '' : `Content-Type: ${part.contentType}${nl}`;
    chunks.push(
      Buffer.from(`--${boundary}${nl}${disposition}${nl}${type}${nl}`),
      part.content,
      Buffer.from(nl),
    );
  }
  if (body.closing) chunks.push(Buffer.from(`--${boundary}--${nl}`));
  const whole = Buffer.concat(chunks);
  const payload = body.truncateAt === null ? whole : whole.subarray(0, body.truncateAt % (whole.length + 1));
  const contentType = {
    ok: `multipart/form-data; boundary=${boundary}`,
    'no-boundary': 'multipart/form-data',
    'other-boundary': 'multipart/form-data; boundary=somethingelse',
    json: 'application/json',
    text: 'text/plain',
    mixed: `multipart/mixed; boundary=${boundary}`,
    none: undefined,
  }[body.header];
  return { payload, contentType };
}

export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f20000000049454e44ae426082',
  'hex',
);

const hostileFilename = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'contract.pdf',
      '../../../etc/passwd',
      '..\\..\\windows\\win.ini',
      'a\u0000b.pdf',
      '%2e%2e%2fx.pdf',
      `${'x'.repeat(10_000)}.pdf`,
      '',
      '.pdf',
      '.',
      '..',
      '🏠.pdf',
      'e\u0301.pdf',
      '\u202Efdp.exe',
      'CON',
      'a"b.pdf',
      'a\r\nX-Injected: 1.pdf',
      '/etc/passwd',
      'C:\\x.pdf',
      '__proto__',
    ),
  },
  { weight: 1, arbitrary: hostileString.map((name) => name.slice(0, 20_000)) },
);

/**
 * Upload bodies: mostly one well-formed part named `file`, with every field of it bent in turn;
 * `hostileFiles` join the contents (built asynchronously by the caller).
 */
export function multipartBody(
  maxUploadBytes: number,
  hostileFiles: Buffer[] = [],
): fc.Arbitrary<MultipartBody> {
  const content = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(TINY_PDF, PNG_BYTES, ...hostileFiles) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        Buffer.alloc(0),
        Buffer.from('hello, plain text'),
        Buffer.from('PK\u0003\u0004 not really a zip'),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        Buffer.concat([TINY_PDF, Buffer.alloc(maxUploadBytes + 1 - TINY_PDF.length)]),
        Buffer.concat([TINY_PDF, Buffer.alloc(maxUploadBytes - TINY_PDF.length)]),
        Buffer.from(`--boundary-inside\r\n${TINY_PDF.toString()}`),
      ),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((bytes) => Buffer.from(bytes)) },
  );
  const part: fc.Arbitrary<MultipartPart> = fc.record({
    name: fc.oneof(
      { weight: 6, arbitrary: fc.constant('file') },
      {
        weight: 2,
        arbitrary: fc.constantFrom('files', 'File', 'file[]', '', '__proto__', 'constructor', null),
      },
      { weight: 1, arbitrary: hostileString.map((name) => name.slice(0, 2000)) },
    ),
    filename: fc.oneof(
      { weight: 2, arbitrary: hostileFilename },
      { weight: 1, arbitrary: fc.constant(null) },
    ),
    contentType: fc.constantFrom(
      'application/pdf',
      'image/png',
      'text/html',
      'application/x-msdownload',
      '',
      null,
    ),
    content,
  });
  return fc.record({
    parts: fc.oneof(
      { weight: 6, arbitrary: fc.array(part, { minLength: 1, maxLength: 1 }) },
      { weight: 2, arbitrary: fc.array(part, { minLength: 2, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constant<MultipartPart[]>([]) },
    ),
    boundary: fc.oneof(
      { weight: 6, arbitrary: fc.constant('----fuzz-boundary') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('x', 'a'.repeat(200), 'b'.repeat(300), '"quoted"', 'a b', '--'),
      },
    ),
    header: fc.oneof(
      { weight: 8, arbitrary: fc.constant('ok' as const) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          'no-boundary' as const,
          'other-boundary' as const,
          'json' as const,
          'text' as const,
          'mixed' as const,
          'none' as const,
        ),
      },
    ),
    truncateAt: fc.oneof({ weight: 8, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.nat() }),
    closing: fc.oneof(
      { weight: 8, arbitrary: fc.constant(true) },
      { weight: 1, arbitrary: fc.constant(false) },
    ),
    newline: fc.oneof(
      { weight: 8, arbitrary: fc.constant('\r\n' as const) },
      { weight: 1, arbitrary: fc.constant('\n' as const) },
    ),
  });
}
