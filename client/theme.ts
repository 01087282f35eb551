import { createTheme, PasswordInput } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
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
  },
});
