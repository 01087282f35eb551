import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SIZES,
  fieldAt,
  keptOnPage,
  movedBy,
  type PlacedField,
  requestFields,
  withoutSigner,
} from './placement';

const LETTER = { width: 612, height: 792 };
const field = (over: Partial<PlacedField>): PlacedField => ({
  key: 1,
  signer: 0,
  page: 1,
  kind: 'signature',
  x: 100,
  y: 100,
  width: 180,
  height: 40,
  ...over,
});

describe('placing fields for signers', () => {
  it('centres a new field of the chosen kind on the point clicked', () => {
    const placed = fieldAt({ x: 300, y: 400 }, { key: 7, signer: 1, page: 2, kind: 'initials' }, LETTER);
    expect(placed).toEqual({
      key: 7,
      signer: 1,
      page: 2,
      kind: 'initials',
      x: 270,
      y: 385,
      width: 60,
      height: 30,
    });
  });

  it('keeps a field clicked near an edge whole on its page', () => {
    const corner = fieldAt({ x: 610, y: 790 }, { key: 1, signer: 0, page: 1, kind: 'signature' }, LETTER);
    expect(corner.x + corner.width).toBe(LETTER.width);
    expect(corner.y + corner.height).toBe(LETTER.height);
    const origin = fieldAt({ x: 0, y: 0 }, { key: 1, signer: 0, page: 1, kind: 'date' }, LETTER);
    expect([origin.x, origin.y]).toEqual([0, 0]);
    expect(origin.width).toBe(DEFAULT_SIZES.date.width);
  });

  it('moves a dragged field and stops it at the edges, in tenths of a point', () => {
    expect(movedBy(field({}), { dx: 12.345, dy: -20.06 }, LETTER)).toMatchObject({ x: 112.3, y: 79.9 });
    expect(movedBy(field({}), { dx: 10_000, dy: -10_000 }, LETTER)).toMatchObject({ x: 432, y: 0 });
  });

  it('shrinks a field larger than its page to the page', () => {
    expect(keptOnPage({ x: 5, y: 5, width: 900, height: 20 }, LETTER)).toEqual({
      x: 0,
      y: 5,
      width: 612,
      height: 20,
    });
  });

  it("drops a removed signer's fields and moves the later signers' fields down one place", () => {
    const fields = [field({ key: 1, signer: 0 }), field({ key: 2, signer: 1 }), field({ key: 3, signer: 2 })];
    expect(withoutSigner(fields, 1).map((each) => [each.key, each.signer])).toEqual([
      [1, 0],
      [3, 1],
    ]);
  });

  it('sends the fields in page order, top to bottom, without their keys', () => {
    const fields = [
      field({ key: 1, page: 2, y: 50 }),
      field({ key: 2, page: 1, y: 300 }),
      field({ key: 3, page: 1, y: 100, kind: 'text' }),
    ];
    expect(requestFields(fields)).toEqual([
      { signer: 0, page: 1, kind: 'text', x: 100, y: 100, width: 180, height: 40 },
      { signer: 0, page: 1, kind: 'signature', x: 100, y: 300, width: 180, height: 40 },
      { signer: 0, page: 2, kind: 'signature', x: 100, y: 50, width: 180, height: 40 },
    ]);
  });
});
