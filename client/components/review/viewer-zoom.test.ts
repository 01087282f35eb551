import { describe, expect, it } from 'vitest';
import {
  FIT_WIDTH,
  MAX_SCALE,
  MIN_SCALE,
  pageFromEntry,
  percentOf,
  shownScale,
  zoomedIn,
  zoomedOut,
} from './viewer-zoom';

describe('shownScale', () => {
  it('is the fixed scale, or the frame over the content when fitting', () => {
    expect(shownScale({ kind: 'scale', scale: 1.5 }, 600, 612)).toBe(1.5);
    expect(shownScale(FIT_WIDTH, 612, 612)).toBe(1);
    expect(shownScale(FIT_WIDTH, 306, 612)).toBe(0.5);
    // A poster-sized page still fits a phone, below the smallest step.
    expect(shownScale(FIT_WIDTH, 360, 2384)).toBeCloseTo(0.151, 3);
  });

  it('is 1 while there is nothing to fit yet (frame not measured, page not read)', () => {
    expect(shownScale(FIT_WIDTH, 0, 612)).toBe(1);
    expect(shownScale(FIT_WIDTH, 600, 0)).toBe(1);
  });
});

describe('zoomedIn and zoomedOut', () => {
  it('step from the scale on screen to the next step either way', () => {
    expect(zoomedIn(1)).toEqual({ kind: 'scale', scale: 1.25 });
    expect(zoomedOut(1)).toEqual({ kind: 'scale', scale: 0.75 });
    // From a fitted scale between steps: the nearest step in that direction.
    expect(zoomedIn(0.83)).toEqual({ kind: 'scale', scale: 1 });
    expect(zoomedOut(0.83)).toEqual({ kind: 'scale', scale: 0.75 });
  });

  it('do not stop again on a step the fitted scale is a hair away from', () => {
    expect(zoomedIn(0.999)).toEqual({ kind: 'scale', scale: 1.25 });
    expect(zoomedOut(1.001)).toEqual({ kind: 'scale', scale: 0.75 });
  });

  it('stay within the smallest and largest steps', () => {
    expect(zoomedIn(MAX_SCALE)).toEqual({ kind: 'scale', scale: MAX_SCALE });
    expect(zoomedIn(9)).toEqual({ kind: 'scale', scale: MAX_SCALE });
    expect(zoomedOut(MIN_SCALE)).toEqual({ kind: 'scale', scale: MIN_SCALE });
    expect(zoomedIn(0.1)).toEqual({ kind: 'scale', scale: MIN_SCALE });
  });
});

describe('percentOf', () => {
  it('rounds to whole percents', () => {
    expect(percentOf(1)).toBe('100%');
    expect(percentOf(1.25)).toBe('125%');
    expect(percentOf(0.5882)).toBe('59%');
  });
});

describe('pageFromEntry', () => {
  it('takes a whole number, kept within the document', () => {
    expect(pageFromEntry('7', 40)).toBe(7);
    expect(pageFromEntry(' 12 ', 40)).toBe(12);
    expect(pageFromEntry('0', 40)).toBe(1);
    expect(pageFromEntry('400', 40)).toBe(40);
  });

  it('refuses anything else (null: the field shows the current page again)', () => {
    for (const entry of ['', 'two', '2.5', '-3', '1e2', '3 4'])
      expect(pageFromEntry(entry, 40), entry).toBeNull();
    expect(pageFromEntry('1', 0)).toBeNull();
  });
});
