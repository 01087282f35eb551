import { screen } from '@testing-library/react';

/**
 * An input by its visible label. Mantine appends a " *" to required labels; matching the label's
 * start keeps tests on the words a user reads.
 */
export function field(label: string): HTMLElement {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByLabelText(new RegExp(`^${escaped}\\s*\\*?$`));
}
