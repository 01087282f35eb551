import { describe, expect, it } from 'vitest';
import { bannerElement } from '../../shared/schemas/banners';
import {
  type BannerAction,
  type BannerState,
  bannerReducer,
  clampElement,
  composeFontStyle,
  createCircle,
  createImage,
  createRect,
  createText,
  DEFAULT_CIRCLE,
  DEFAULT_IMAGE,
  DEFAULT_RECT,
  DEFAULT_TEXT,
  initialBannerState,
  MIN_SIZE,
} from './history';

const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function run(...actions: BannerAction[]): BannerState {
  return actions.reduce(bannerReducer, initialBannerState);
}

const byId = (state: BannerState, id: string) => state.elements.find((el) => el.id === id);

describe('defaults', () => {
  it('are exactly the product values', () => {
    expect(DEFAULT_TEXT).toEqual({
      type: 'text',
      text: 'Hello Banner!',
      fontSize: 20,
      fontStyle: 'bold italic',
      underline: true,
      fill: 'black',
      x: 50,
      y: 50,
    });
    expect(DEFAULT_RECT).toEqual({ type: 'rect', width: 100, height: 100, fill: 'blue', x: 100, y: 100 });
    expect(DEFAULT_CIRCLE).toEqual({ type: 'circle', radius: 50, fill: 'green', x: 200, y: 200 });
    expect(DEFAULT_IMAGE).toEqual({ type: 'image', width: 200, height: 200, x: 150, y: 150 });
  });

  it('make elements the shared schema accepts, draggable, unscaled and unrotated', () => {
    for (const el of [createText('t'), createRect('r'), createCircle('c'), createImage('i', PNG)]) {
      expect(bannerElement.parse(el)).toEqual(el);
      expect(el).toMatchObject({ draggable: true, scaleX: 1, scaleY: 1, rotation: 0 });
    }
    expect(createImage('i', PNG).src).toBe(PNG);
  });
});

describe('bannerReducer', () => {
  it('adds an element, selects it and makes one step', () => {
    const s = run({ type: 'add', element: createRect('r') });
    expect(s.elements).toEqual([createRect('r')]);
    expect(s.selectedId).toBe('r');
    expect(s.past).toEqual([[]]);
    expect(s.future).toEqual([]);
  });

  it('selects and deselects without a history step, ignoring unknown ids', () => {
    const added = run({ type: 'add', element: createRect('r') });
    const none = bannerReducer(added, { type: 'select', id: null });
    expect(none.selectedId).toBeNull();
    expect(none.past).toHaveLength(1);
    expect(bannerReducer(none, { type: 'select', id: 'r' }).selectedId).toBe('r');
    expect(bannerReducer(none, { type: 'select', id: 'nope' }).selectedId).toBeNull();
  });

  it('selecting what is already selected gives back the same state (so nothing re-renders)', () => {
    const added = run({ type: 'add', element: createRect('r') });
    expect(added.selectedId).toBe('r');
    expect(bannerReducer(added, { type: 'select', id: 'r' })).toBe(added);
    const none = bannerReducer(added, { type: 'select', id: null });
    expect(bannerReducer(none, { type: 'select', id: null })).toBe(none);
    expect(bannerReducer(none, { type: 'select', id: 'nope' })).toBe(none);
  });

  it('moves an element', () => {
    const s = run({ type: 'add', element: createCircle('c') }, { type: 'move', id: 'c', x: 300, y: 120 });
    expect(byId(s, 'c')).toMatchObject({ x: 300, y: 120, radius: 50 });
    expect(s.past).toHaveLength(2);
  });

  it('folds a transform scale into a shape size and keeps the rotation', () => {
    const s = run(
      { type: 'add', element: createRect('r') },
      { type: 'transform', id: 'r', transform: { x: 90, y: 95, rotation: 30, scaleX: 1.5, scaleY: 2 } },
    );
    expect(byId(s, 'r')).toMatchObject({
      x: 90,
      y: 95,
      rotation: 30,
      width: 150,
      height: 200,
      scaleX: 1,
      scaleY: 1,
    });
    const c = run(
      { type: 'add', element: createCircle('c') },
      { type: 'transform', id: 'c', transform: { x: 200, y: 200, rotation: 0, scaleX: 2, scaleY: 2 } },
    );
    expect(byId(c, 'c')).toMatchObject({ radius: 100, scaleX: 1, scaleY: 1 });
  });

  it('never lets a size fall below 20x20', () => {
    const tiny = { x: 0, y: 0, rotation: 0, scaleX: 0.01, scaleY: 0.05 };
    const s = run(
      { type: 'add', element: createRect('r') },
      { type: 'add', element: createCircle('c') },
      { type: 'add', element: createImage('i', PNG) },
      { type: 'add', element: createText('t') },
      { type: 'transform', id: 'r', transform: tiny },
      { type: 'transform', id: 'c', transform: tiny },
      { type: 'transform', id: 'i', transform: tiny },
      { type: 'transform', id: 't', transform: tiny },
    );
    expect(byId(s, 'r')).toMatchObject({ width: MIN_SIZE, height: MIN_SIZE });
    expect(byId(s, 'i')).toMatchObject({ width: MIN_SIZE, height: MIN_SIZE });
    expect(byId(s, 'c')).toMatchObject({ radius: MIN_SIZE / 2 });
    const text = byId(s, 't');
    expect(text?.type === 'text' && text.fontSize * text.scaleY).toBeGreaterThanOrEqual(MIN_SIZE);
    // Added elements are clamped too.
    expect(clampElement({ ...createRect('x'), width: 5, height: -3 })).toMatchObject({
      width: 20,
      height: 20,
    });
  });

  it('edits a text, and only a text', () => {
    const s = run(
      { type: 'add', element: createText('t') },
      { type: 'add', element: createRect('r') },
      { type: 'editText', id: 't', text: 'Open house Sunday' },
    );
    expect(byId(s, 't')).toMatchObject({ text: 'Open house Sunday' });
    expect(bannerReducer(s, { type: 'editText', id: 'r', text: 'x' }).elements).toEqual(s.elements);
  });

  it('formats a text: size, style, underline and colour', () => {
    const s = run(
      { type: 'add', element: createText('t') },
      { type: 'format', id: 't', format: { fontSize: 36 } },
      { type: 'format', id: 't', format: { fontStyle: composeFontStyle(false, true) } },
      { type: 'format', id: 't', format: { underline: false } },
      { type: 'format', id: 't', format: { fill: '#ff0000' } },
    );
    expect(byId(s, 't')).toMatchObject({
      fontSize: 36,
      fontStyle: 'italic',
      underline: false,
      fill: '#ff0000',
    });
    expect(s.past).toHaveLength(5);
  });

  it('sets a fill colour', () => {
    const s = run({ type: 'add', element: createRect('r') }, { type: 'fill', id: 'r', fill: '#fab005' });
    expect(byId(s, 'r')?.fill).toBe('#fab005');
  });

  it('deletes the selection (or a given id) and clears the selection', () => {
    const s = run({ type: 'add', element: createRect('r') }, { type: 'add', element: createCircle('c') });
    const deleted = bannerReducer(s, { type: 'delete' });
    expect(deleted.elements.map((el) => el.id)).toEqual(['r']);
    expect(deleted.selectedId).toBeNull();
    expect(bannerReducer(s, { type: 'delete', id: 'r' }).elements.map((el) => el.id)).toEqual(['c']);
    // Nothing selected: nothing happens, and no step is recorded.
    expect(bannerReducer(deleted, { type: 'delete' })).toBe(deleted);
  });

  it('ignores changes to unknown elements without a step', () => {
    const s = run({ type: 'add', element: createRect('r') });
    expect(bannerReducer(s, { type: 'move', id: 'nope', x: 1, y: 1 })).toBe(s);
  });

  it('undoes and redoes in order', () => {
    const s = run(
      { type: 'add', element: createRect('r') },
      { type: 'move', id: 'r', x: 10, y: 10 },
      { type: 'move', id: 'r', x: 20, y: 20 },
    );
    const u1 = bannerReducer(s, { type: 'undo' });
    expect(byId(u1, 'r')).toMatchObject({ x: 10, y: 10 });
    const u2 = bannerReducer(u1, { type: 'undo' });
    expect(byId(u2, 'r')).toMatchObject({ x: 100, y: 100 });
    const u3 = bannerReducer(u2, { type: 'undo' });
    expect(u3.elements).toEqual([]);
    expect(u3.selectedId).toBeNull();
    expect(bannerReducer(u3, { type: 'undo' })).toBe(u3);
    const r1 = bannerReducer(u3, { type: 'redo' });
    expect(byId(r1, 'r')).toMatchObject({ x: 100, y: 100 });
    const r2 = bannerReducer(bannerReducer(r1, { type: 'redo' }), { type: 'redo' });
    expect(r2.elements).toEqual(s.elements);
    expect(bannerReducer(r2, { type: 'redo' })).toBe(r2);
  });

  it('undoes a delete, bringing the element back', () => {
    const s = run({ type: 'add', element: createText('t') }, { type: 'delete' });
    expect(s.elements).toEqual([]);
    expect(bannerReducer(s, { type: 'undo' }).elements).toEqual([createText('t')]);
  });

  it('clears redo on a new change', () => {
    const s = run(
      { type: 'add', element: createRect('r') },
      { type: 'move', id: 'r', x: 10, y: 10 },
      { type: 'undo' },
    );
    expect(s.future).toHaveLength(1);
    const changed = bannerReducer(s, { type: 'fill', id: 'r', fill: 'red' });
    expect(changed.future).toEqual([]);
    expect(bannerReducer(changed, { type: 'redo' })).toBe(changed);
  });

  it('loads a saved design with a fresh history', () => {
    const s = run({ type: 'add', element: createRect('r') }, { type: 'load', elements: [createCircle('c')] });
    expect(s).toEqual({ elements: [createCircle('c')], selectedId: null, past: [], future: [] });
  });

  it('is pure: it never mutates the state it is given', () => {
    const s = run({ type: 'add', element: createRect('r') });
    const frozen = structuredClone(s);
    bannerReducer(s, { type: 'move', id: 'r', x: 5, y: 5 });
    bannerReducer(s, { type: 'undo' });
    expect(s).toEqual(frozen);
  });
});

describe('composeFontStyle', () => {
  it('builds Konva font styles', () => {
    expect(composeFontStyle(true, true)).toBe('bold italic');
    expect(composeFontStyle(true, false)).toBe('bold');
    expect(composeFontStyle(false, true)).toBe('italic');
    expect(composeFontStyle(false, false)).toBe('normal');
  });
});
