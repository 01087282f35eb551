import { useEffect } from 'react';

/**
 * Places on a transaction page that links elsewhere lead to (the agent's 'Needs your attention'
 * strip, AttentionStrip.tsx): `/home/transactions/<id>#item-<formId>` or `#key-dates`.
 */

/** The id of a checklist item's card (FormsChecklist.tsx). */
export const checklistAnchor = (formId: string) => `item-${formId}`;
/** The id of the key dates section (KeyDatesEditor.tsx). */
export const KEY_DATES_ANCHOR = 'key-dates';
/** Room above a place scrolled to, so a phone's fixed top bar does not cover its heading. */
export const SCROLL_MARGIN = 'calc(var(--app-shell-header-height, 0px) + var(--mantine-spacing-md))';

/**
 * Scrolls to the address's #place once the page has drawn it. The browser does this itself only
 * for content present at load; here the transaction arrives after the page's first paint.
 */
export function useScrollToHash(ready: boolean): void {
  useEffect(() => {
    if (!ready) return;
    const hash = window.location.hash.slice(1);
    if (!hash) return;
    let id = hash;
    try {
      id = decodeURIComponent(hash);
    } catch {
      // A malformed escape (a hand-edited address) is looked up as it stands.
    }
    const frame = requestAnimationFrame(() =>
      document.getElementById(id)?.scrollIntoView({ block: 'start' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [ready]);
}
