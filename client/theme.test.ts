import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { theme } from './theme';

/**
 * The colour pairs the app draws text with, checked against WCAG AA (4.5:1) without a browser.
 * The browser suite's axe run (e2e/pages.spec.ts) checks the pages themselves; this names the
 * pair that broke when a palette is edited.
 */

const full = mergeMantineTheme(DEFAULT_THEME, theme);
const WHITE = '#ffffff';
const AA = 4.5;

function luminance(hex: string): number {
  const channels = [1, 3, 5].map((start) => Number.parseInt(hex.slice(start, start + 2), 16) / 255);
  const [r, g, b] = channels.map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

const shade = (color: string, index: number) => full.colors[color]?.[index] as string;
const primaryShade = typeof full.primaryShade === 'number' ? full.primaryShade : full.primaryShade.light;
const gray0 = shade('gray', 0);
const gray1 = shade('gray', 1);

/** The colours pages use: the primary, the status colours, the role badges, the neutral grey. */
const IN_USE = [full.primaryColor, 'red', 'green', 'yellow', 'blue', 'grape', 'gray'];

describe('theme contrast (WCAG AA, 4.5:1)', () => {
  it.each(IN_USE)(
    '%s: white on its filled shade, and the filled shade as text on white and grey.0',
    (color) => {
      const filled = shade(color, primaryShade);
      expect(contrast(WHITE, filled)).toBeGreaterThanOrEqual(AA);
      expect(contrast(filled, gray0)).toBeGreaterThanOrEqual(AA);
    },
  );

  it.each(IN_USE)('%s: a light badge or button (shade 9 on shade 1)', (color) => {
    expect(contrast(shade(color, 9), shade(color, 1))).toBeGreaterThanOrEqual(AA);
  });

  it('dimmed text (gray.6) on white, grey.0 (striped rows) and grey.1', () => {
    for (const background of [WHITE, gray0, gray1])
      expect(contrast(shade('gray', 6), background)).toBeGreaterThanOrEqual(AA);
  });

  it('error text (red.6) on white and grey.0', () => {
    for (const background of [WHITE, gray0])
      expect(contrast(shade('red', 6), background)).toBeGreaterThanOrEqual(AA);
  });
});
