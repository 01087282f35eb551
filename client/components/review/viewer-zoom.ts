/**
 * What the document viewers show: how large (the page or image fitted to the frame's width, or a
 * fixed scale) and, for a PDF, which page. Pure functions, so the controls' rules are tested
 * without pdf.js (which cannot run in jsdom).
 */

/** Fitted to the frame's width, or a fixed scale (1 = 100%: a PDF's points as CSS pixels). */
export type Zoom = { kind: 'fit-width' } | { kind: 'scale'; scale: number };

export const FIT_WIDTH: Zoom = { kind: 'fit-width' };
export const ACTUAL_SIZE: Zoom = { kind: 'scale', scale: 1 };

/** The scales Zoom in and Zoom out step through, as viewers commonly offer them. */
export const ZOOM_STEPS = [0.25, 0.5, 0.75, 1, 1.25, 1.5, 2, 3, 4] as const;
export const MIN_SCALE = ZOOM_STEPS[0];
export const MAX_SCALE = ZOOM_STEPS[ZOOM_STEPS.length - 1] ?? 4;

/** A fitted scale a hair off a step (0.999) is that step: Zoom in must not stop on it again. */
const SAME_SCALE = 0.005;

/**
 * The scale on screen: a fixed one, or what fitting `contentWidth` into `frameWidth` takes (even
 * past the steps' limits: a poster-sized page still fits a phone).
 */
export function shownScale(zoom: Zoom, frameWidth: number, contentWidth: number): number {
  if (zoom.kind === 'scale') return zoom.scale;
  // Before the frame is measured (or for an empty page) there is nothing to fit: show it as is.
  if (frameWidth <= 0 || contentWidth <= 0) return 1;
  return frameWidth / contentWidth;
}

/** The next larger step than the scale shown, or the largest. */
export function zoomedIn(shown: number): Zoom {
  const next = ZOOM_STEPS.find((step) => step > shown + SAME_SCALE) ?? MAX_SCALE;
  return { kind: 'scale', scale: next };
}

/** The next smaller step than the scale shown, or the smallest. */
export function zoomedOut(shown: number): Zoom {
  const smaller = ZOOM_STEPS.filter((step) => step < shown - SAME_SCALE);
  return { kind: 'scale', scale: smaller[smaller.length - 1] ?? MIN_SCALE };
}

/** "125%" for a scale of 1.25. */
export const percentOf = (scale: number) => `${Math.round(scale * 100)}%`;

/**
 * The page a "go to page" entry asks for, within 1..pageCount, or null for anything that is not
 * a whole number (the field then shows the current page again).
 */
export function pageFromEntry(entry: string, pageCount: number): number | null {
  const text = entry.trim();
  if (!/^\d+$/.test(text) || pageCount < 1) return null;
  return Math.min(pageCount, Math.max(1, Number(text)));
}
