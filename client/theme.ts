import { createTheme, DEFAULT_THEME, type MantineColorsTuple, PasswordInput } from '@mantine/core';

/**
 * A palette that keeps Mantine's light shades (0-5: backgrounds, borders, hovers) and replaces
 * the dark end (6-9), which is what text and filled backgrounds use.
 */
function withDarkEnd(name: 'gray' | 'red' | 'green' | 'yellow', darkEnd: [string, string, string, string]) {
  return [...DEFAULT_THEME.colors[name].slice(0, 6), ...darkEnd] as unknown as MantineColorsTuple;
}

/**
 * Colours chosen for contrast (WCAG AA, 4.5:1 for text; axe's `color-contrast` in the browser
 * suite, e2e/pages.spec.ts). Mantine's defaults fall short in this app:
 * - the primary shade 6 (indigo #4c6ef5): 4.32:1 for white on a primary button, and for links;
 *   shade 8 (#3b5bdb) gives 5.67:1 (5.38:1 on gray.0). Every colour's "filled" shade is this one.
 * - gray.6 (#868e96) is "dimmed" text (dates, meta lines, the pager's count): 3.32:1 on white.
 *   Now #676e76: 5.16:1 on white, 4.64:1 on gray.1.
 * - red.6 (#fa5252) is the error colour of every field and alert: 3.28:1. Now #d12a2a (5.15:1);
 *   red.8 (filled: the Delete buttons) #b32424, white on it 6.57:1.
 * - the status colours (FormsChecklist: pending yellow, accepted green, rejected red) are shown as
 *   light badges (text shade 9 on shade 1) and coloured text (shade 8, the filled shade):
 *   'pending' was #e67700 on #fff3bf, 2.68:1; 'Accepted' green.6 text 2.36:1; a light green
 *   button 3.8:1. Now yellow.9 #8a4500 on yellow.1 6.42:1, green.9 #1b5e2a on green.1 6.83:1,
 *   green.8 #237032 on white 6.11:1, yellow.8 #a35200 5.58:1.
 * Other colours in use (indigo, blue, grape) already pass at these shades.
 */
const colors = {
  gray: withDarkEnd('gray', ['#676e76', '#495057', '#343a40', '#212529']),
  red: withDarkEnd('red', ['#d12a2a', '#c92a2a', '#b32424', '#9c1f1f']),
  green: withDarkEnd('green', ['#2b8a3e', '#277c38', '#237032', '#1b5e2a']),
  yellow: withDarkEnd('yellow', ['#f08c00', '#c76a00', '#a35200', '#8a4500']),
};

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: 8,
  colors,
  defaultRadius: 'md',
  // System fonts: the CSP allows no external font host, and they render at once.
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  components: {
    PasswordInput: PasswordInput.extend({
      defaultProps: {
        // Mantine's default name, "Toggle password visibility", also answers to "Password", so
        // looking the field up by its label would find the button too. The pressed state says
        // whether the characters show.
        visibilityToggleButtonProps: { 'aria-label': 'Show characters' },
      },
    }),
    // Mantine's close buttons are an icon and nothing else: without these names a screen reader
    // announces just "button" on every dialog, drawer and toast (axe: button-name, critical).
    // Plain objects, not Modal.extend(...): importing the components here would pull them (and
    // the colour picker) into the initial bundle, past its budget.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close dialog' } } },
    Drawer: { defaultProps: { closeButtonProps: { 'aria-label': 'Close menu' } } },
    Notification: { defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } },
    // The banner designer's colour fields: Chromium offers an eyedropper button beside them.
    ColorInput: {
      defaultProps: { eyeDropperButtonProps: { 'aria-label': 'Pick a colour from the screen' } },
    },
  },
});
