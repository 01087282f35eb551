/**
 * Below Mantine's `sm` breakpoint (48em) the shell trades its sidebar for a top bar (AppLayout),
 * lists become cards (ListTable.module.css) and toasts rise from the bottom edge (notify.tsx).
 * The CSS files spell the same width out, as media queries cannot read a variable.
 */
export const PHONE_QUERY = '(max-width: 47.99em)';

/**
 * A device whose only pointer is a finger (phones, tablets): no hover, no fine pointer, and
 * most likely no keyboard, so keyboard hints are left out.
 */
export const TOUCH_ONLY_QUERY = '(hover: none) and (pointer: coarse)';
