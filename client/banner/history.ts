import type { BannerElement } from '../../shared/schemas/banners';

/**
 * The banner editor's state as a PURE reducer: the elements, the selection, and the
 * undo/redo stacks. Every change to the elements is one history step; selecting is not.
 */

export type ElementType = BannerElement['type'];
export type TextElement = Extract<BannerElement, { type: 'text' }>;
export type RectElement = Extract<BannerElement, { type: 'rect' }>;
export type CircleElement = Extract<BannerElement, { type: 'circle' }>;
export type ImageElement = Extract<BannerElement, { type: 'image' }>;

/** The smallest box an element may have, in stage pixels. */
export const MIN_SIZE = 20;

/** The product's defaults for each new element, exactly. */
export const DEFAULT_TEXT = {
  type: 'text',
  text: 'Hello Banner!',
  fontSize: 20,
  fontStyle: 'bold italic',
  underline: true,
  fill: 'black',
  x: 50,
  y: 50,
} as const;
export const DEFAULT_RECT = { type: 'rect', width: 100, height: 100, fill: 'blue', x: 100, y: 100 } as const;
export const DEFAULT_CIRCLE = { type: 'circle', radius: 50, fill: 'green', x: 200, y: 200 } as const;
export const DEFAULT_IMAGE = { type: 'image', width: 200, height: 200, x: 150, y: 150 } as const;

const BASE = { draggable: true, scaleX: 1, scaleY: 1, rotation: 0 } as const;

export function newElementId(type: ElementType): string {
  return `${type}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

export function createText(id: string): TextElement {
  return { id, ...BASE, ...DEFAULT_TEXT };
}
export function createRect(id: string): RectElement {
  return { id, ...BASE, ...DEFAULT_RECT };
}
export function createCircle(id: string): CircleElement {
  return { id, ...BASE, ...DEFAULT_CIRCLE };
}
export function createImage(id: string, src: string): ImageElement {
  return { id, ...BASE, ...DEFAULT_IMAGE, src };
}

export type BannerState = {
  elements: BannerElement[];
  selectedId: string | null;
  past: BannerElement[][];
  future: BannerElement[][];
};

export const initialBannerState: BannerState = { elements: [], selectedId: null, past: [], future: [] };

export type Transform = {
  x: number;
  y: number;
  rotation: number;
  scaleX: number;
  scaleY: number;
};

export type TextFormat = Partial<Pick<TextElement, 'fontSize' | 'fontStyle' | 'underline' | 'fill'>>;

export type BannerAction =
  | { type: 'add'; element: BannerElement }
  | { type: 'select'; id: string | null }
  | { type: 'move'; id: string; x: number; y: number }
  | { type: 'transform'; id: string; transform: Transform }
  | { type: 'editText'; id: string; text: string }
  | { type: 'format'; id: string; format: TextFormat }
  | { type: 'fill'; id: string; fill: string }
  | { type: 'delete'; id?: string }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'load'; elements: BannerElement[] };

const finiteOr = (n: number, fallback: number) => (Number.isFinite(n) ? n : fallback);

/**
 * Keeps every element at least MIN_SIZE x MIN_SIZE. Shapes carry their size in width/height
 * (radius), so a transform's scale is folded into them; a text keeps its scale, which may not
 * shrink it below MIN_SIZE high (its line is about fontSize high).
 */
export function clampElement(el: BannerElement): BannerElement {
  const sx = Math.abs(finiteOr(el.scaleX, 1)) || 1;
  const sy = Math.abs(finiteOr(el.scaleY, 1)) || 1;
  switch (el.type) {
    case 'rect':
    case 'image':
      return {
        ...el,
        width: Math.max(MIN_SIZE, el.width * sx),
        height: Math.max(MIN_SIZE, el.height * sy),
        scaleX: 1,
        scaleY: 1,
      };
    case 'circle':
      return { ...el, radius: Math.max(MIN_SIZE / 2, el.radius * Math.max(sx, sy)), scaleX: 1, scaleY: 1 };
    case 'text': {
      const fontSize = Math.max(1, el.fontSize);
      const min = MIN_SIZE / fontSize;
      return { ...el, fontSize, scaleX: Math.max(min, sx), scaleY: Math.max(min, sy) };
    }
  }
}

function commit(state: BannerState, elements: BannerElement[], selectedId = state.selectedId): BannerState {
  return { elements, selectedId, past: [...state.past, state.elements], future: [] };
}

function update(state: BannerState, id: string, change: (el: BannerElement) => BannerElement): BannerState {
  const index = state.elements.findIndex((el) => el.id === id);
  if (index < 0) return state;
  const before = state.elements[index] as BannerElement;
  const after = clampElement(change(before));
  const elements = state.elements.slice();
  elements[index] = after;
  return commit(state, elements);
}

const keepSelection = (elements: BannerElement[], id: string | null) =>
  id && elements.some((el) => el.id === id) ? id : null;

export function bannerReducer(state: BannerState, action: BannerAction): BannerState {
  switch (action.type) {
    case 'add':
      return commit(state, [...state.elements, clampElement(action.element)], action.element.id);
    case 'select': {
      const selectedId = keepSelection(state.elements, action.id);
      // Pressing what is already selected (the first half of a double-click on it) changes nothing:
      // the same state lets React skip the render, which on a busy machine could outlast Konva's
      // 400 ms double-click window and lose the double-click.
      return selectedId === state.selectedId ? state : { ...state, selectedId };
    }
    case 'move':
      return update(state, action.id, (el) => ({ ...el, x: action.x, y: action.y }));
    case 'transform':
      return update(state, action.id, (el) => ({ ...el, ...action.transform }));
    case 'editText':
      return update(state, action.id, (el) => (el.type === 'text' ? { ...el, text: action.text } : el));
    case 'format':
      return update(state, action.id, (el) => (el.type === 'text' ? { ...el, ...action.format } : el));
    case 'fill':
      return update(state, action.id, (el) => ({ ...el, fill: action.fill }));
    case 'delete': {
      const id = action.id ?? state.selectedId;
      if (!id || !state.elements.some((el) => el.id === id)) return state;
      return commit(
        state,
        state.elements.filter((el) => el.id !== id),
        null,
      );
    }
    case 'undo': {
      const previous = state.past.at(-1);
      if (!previous) return state;
      return {
        elements: previous,
        selectedId: keepSelection(previous, state.selectedId),
        past: state.past.slice(0, -1),
        future: [state.elements, ...state.future],
      };
    }
    case 'redo': {
      const [next, ...rest] = state.future;
      if (!next) return state;
      return {
        elements: next,
        selectedId: keepSelection(next, state.selectedId),
        past: [...state.past, state.elements],
        future: rest,
      };
    }
    case 'load':
      return { elements: action.elements.map(clampElement), selectedId: null, past: [], future: [] };
  }
}

/** 'bold italic' and friends from two switches, as Konva's fontStyle expects. */
export function composeFontStyle(bold: boolean, italic: boolean): string {
  if (bold && italic) return 'bold italic';
  if (bold) return 'bold';
  if (italic) return 'italic';
  return 'normal';
}
