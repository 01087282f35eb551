/**
 * Below Mantine's `sm` breakpoint (48em) the shell trades its sidebar for a top bar (AppLayout),
 * lists become cards (ListTable.module.css) and toasts rise from the bottom edge (notify.tsx).
 * The CSS files spell the same width out, as media queries cannot read a variable.
 */
export const PHONE_QUERY = '(max-width: 47.99em)';
