import fc from 'fast-check';
import { HUGE, hostileStrings, plainText, SHAPES, wrongNumber } from './hostile-facts';

/**
 * fast-check arbitraries of signature-request bodies that are wrong by construction: the signers,
 * the fields (their kind, page and geometry, a page past the document's two, a signer without a
 * signature field) and the signing page's consent and values. Each is one part of an otherwise
 * valid body, with the names the 400 must carry (when its value can be read back).
 */

export type BadPart = { part: Record<string, unknown>; names: string[] };

const named = (name: string, value: unknown): BadPart => ({
  part: { [name]: value },
  names: plainText(value) ? [name] : [],
});

const validField = { signer: 0, page: 1, kind: 'signature', x: 72, y: 600, width: 180, height: 36 };
const validSigner = { name: 'Jordan Buyer', email: 'jordan.buyer@example.com' };

const wrongKind = fc.oneof(
  hostileStrings.filter((text) => !['signature', 'initials', 'date', 'text'].includes(text)),
  fc.constantFrom<unknown>('SIGNATURE', 'stamp', ['signature'], 0, true, null, ...HUGE, ...SHAPES),
);

/** One field of the list made wrong: its kind, page, signer or geometry, or the field itself. */
const wrongField: fc.Arbitrary<unknown> = fc.oneof(
  wrongKind.map((kind) => ({ ...validField, kind })),
  wrongNumber(1, 10_000, false).map((page) => ({ ...validField, page })),
  wrongNumber(0, 9, false).map((signer) => ({ ...validField, signer })),
  fc
    .constantFrom('x', 'y', 'width', 'height')
    .chain((key) =>
      fc
        .oneof(
          fc.double({ min: -1e9, max: -0.001, noNaN: true }),
          fc.double({ min: 14_400.001, max: 1e12, noNaN: true }),
          fc.constantFrom<unknown>(...HUGE, 1e308, 'NaN', '72', null, true, ...SHAPES),
        )
        .map((value) => ({ ...validField, [key]: value })),
    ),
  fc.constantFrom<unknown>('field', 42, null, [], { ...validField, color: 'red' }, { page: 1 }),
);

/** Bad parts of POST /api/transactions/{id}/signature-requests (the document has two or three pages). */
export const badSignatureRequest: fc.Arbitrary<BadPart> = fc.oneof(
  // Signers: none, not a list, a signer without a name or with no address.
  fc
    .constantFrom<unknown>([], null, 'Jordan', 42, {}, [null], [{}], [{ name: 'Jordan' }], ...SHAPES)
    .map((signers) => named('signers', signers)),
  fc
    .oneof(
      hostileStrings.filter((text) => !/^\S+@\S+\.\S+$/.test(text.trim())),
      fc.constantFrom<unknown>(null, 42, ['a@b.co'], `${'a'.repeat(250)}@example.com`),
    )
    .map((email) => named('signers', [{ ...validSigner, email }])),
  fc
    .constantFrom<unknown>('', '   ', 'x'.repeat(101), 7, null, ['Jordan'])
    .map((name) => named('signers', [{ ...validSigner, name }])),
  // Fields: wrong ones, one past the document's pages, a signer with no signature field. The
  // packet has two pages until a case signs the world's request: the signed version adds its
  // certificate page, so a page past the document is 4 or more.
  wrongField.map((field) => named('fields', [field])),
  fc.integer({ min: 4, max: 10_000 }).map((page) => named('fields', [{ ...validField, page }])),
  fc
    .constantFrom('initials', 'date', 'text')
    .map((kind) => ({ part: { fields: [{ ...validField, kind }] }, names: ['signers'] })),
  fc.integer({ min: 1, max: 9 }).map((signer) => named('fields', [validField, { ...validField, signer }])),
  fc.constantFrom<unknown>(null, 'all', 42, {}).map((fields) => named('fields', fields)),
  // The rest: a subject that is none, an ordered flag that is no boolean.
  fc.constantFrom<unknown>('', '  ', 'x'.repeat(201), 42, null, ['Sign']).map((v) => named('subject', v)),
  fc.constantFrom<unknown>('yes', 1, 0, null, [], {}).map((v) => named('ordered', v)),
);

/**
 * Bad parts of POST /api/sign/{token}, refused by the input's shape alone (whatever the request's
 * state): consent that is no boolean, values that are no list of {fieldId, value}.
 */
export const badSignature: fc.Arbitrary<BadPart> = fc.oneof(
  fc.constantFrom<unknown>('yes', 'true', 1, 0, null, [], {}, ...HUGE).map((v) => named('consent', v)),
  fc
    .oneof(
      fc.constantFrom<unknown>(null, 'all', 42, {}, [null], ['value'], [{ fieldId: 'x', value: 'A' }]),
      fc
        .constantFrom<unknown>(42, null, true, [], {})
        .map((value) => [{ fieldId: '00000000-0000-4000-8000-000000000000', value }]),
      fc.constant([
        {
          fieldId: '00000000-0000-4000-8000-000000000000',
          value: `data:image/png;base64,${'A'.repeat(210_000)}`,
        },
      ]),
    )
    .map((values) => named('values', values)),
);
