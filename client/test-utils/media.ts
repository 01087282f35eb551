import { vi } from 'vitest';

/**
 * The browser as a device answers its media queries: `matching` ones match, the rest do not
 * (jsdom's stub in setup.ts matches none). Undone by `vi.restoreAllMocks()`.
 */
export function deviceMatching(...matching: string[]) {
  const real = window.matchMedia;
  return vi.spyOn(window, 'matchMedia').mockImplementation((query) => ({
    ...real(query),
    matches: matching.includes(query),
  }));
}
