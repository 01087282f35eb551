import { useEffect, useRef } from 'react';

/** What the review dialog's keys do, read afresh at every key press. */
export type ReviewKeys = {
  /** The dialog the panel is drawn in: a key pressed in a dialog opened over it is not ours. */
  dialog: () => Element | null;
  rejecting: boolean;
  accept: () => void;
  /** Ctrl/Cmd+Enter: confirm the rejection (denial) as it stands. */
  reject: () => void;
  startRejecting: () => void;
  cancelRejecting: () => void;
  next: () => void;
  previous: () => void;
};

/** Inputs that are pressed, not typed into or chosen. */
const PRESSED_INPUTS = new Set(['button', 'submit', 'reset', 'image']);

/** Widgets whose letters and arrows are their own: a field, a choice among options, a menu. */
const OWN_KEYS = [
  'form',
  '[role="textbox"]',
  '[role="searchbox"]',
  '[role="combobox"]',
  '[role="spinbutton"]',
  '[role="slider"]',
  '[role="checkbox"]',
  '[role="radio"]',
  '[role="switch"]',
  '[role="radiogroup"]',
  '[role="listbox"]',
  '[role="option"]',
  '[role="menu"]',
  '[role="menubar"]',
  '[role="menuitem"]',
  '[role="menuitemcheckbox"]',
  '[role="menuitemradio"]',
].join(', ');

const CHOICES = 'input[type="checkbox"], input[type="radio"], [role="checkbox"], [role="radio"]';
const DIALOGS = '[role="dialog"], [role="alertdialog"]';

/** Focus is in a dialog or menu opened over the review dialog: its keys are its own. */
function inAnotherLayer(target: Element, dialog: Element | null): boolean {
  if (target.closest('[role="menu"], [role="listbox"]')) return true;
  const host = target.closest(DIALOGS);
  return host !== null && host !== dialog;
}

/**
 * Whether a key pressed with focus on `target` may be one of the review dialog's shortcuts: not
 * when it belongs to what has focus, that is anything inside a form (the decision has its own
 * keys), a text field, a checkbox or chip group being chosen, a list of options, a menu, or a
 * dialog opened over the review dialog (`dialog`).
 */
export function isShortcutTarget(target: EventTarget | null, dialog: Element | null): boolean {
  if (!(target instanceof Element)) return true;
  if (target instanceof HTMLElement && target.isContentEditable) return false;
  if (target instanceof HTMLInputElement) return PRESSED_INPUTS.has(target.type) && !target.closest('form');
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return false;
  if (target.closest(OWN_KEYS)) return false;
  if (target.closest('[role="group"]')?.querySelector(CHOICES)) return false;
  return !inAnotherLayer(target, dialog);
}

/**
 * The review dialog's shortcuts, on the window for the life of the item: A accept (approve),
 * R reject (deny), J next, K previous; Escape leaves rejecting (the dialog closes it otherwise);
 * Ctrl/Cmd+Enter confirms a rejection. Keys that belong to what has focus are left alone (see
 * isShortcutTarget); the decision form handles its own.
 */
export function useReviewShortcuts(keys: ReviewKeys): void {
  const latest = useRef(keys);
  latest.current = keys;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.isComposing) return;
      const k = latest.current;
      if (event.key === 'Escape') {
        if (k.rejecting && event.target instanceof Element && !inAnotherLayer(event.target, k.dialog())) {
          event.preventDefault();
          k.cancelRejecting();
        }
        return;
      }
      if (!isShortcutTarget(event.target, k.dialog())) return;
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        k.reject();
        return;
      }
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const actions: Record<string, (() => void) | undefined> = {
        a: k.accept,
        r: k.startRejecting,
        j: k.next,
        k: k.previous,
      };
      const action = actions[event.key.toLowerCase()];
      if (!action) return;
      // R moves focus to the comment box: the letter itself must not be typed into it.
      event.preventDefault();
      action();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
