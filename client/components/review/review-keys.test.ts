import { afterEach, describe, expect, it } from 'vitest';
import { isShortcutTarget } from './review-keys';

/** A piece of page in a review dialog, its elements found by their `data-id`. */
function page(html: string) {
  document.body.innerHTML = `<section role="dialog" data-id="review">${html}</section>`;
  const at = (id: string) => document.querySelector(`[data-id="${id}"]`) as Element;
  return { at, dialog: at('review') };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('isShortcutTarget: which key presses may be the review shortcuts', () => {
  it('yes on the dialog itself, its buttons and the page body (focus lost)', () => {
    const { at, dialog } = page('<button data-id="next">Next</button><div data-id="text">Facts</div>');
    expect(isShortcutTarget(dialog, dialog)).toBe(true);
    expect(isShortcutTarget(at('next'), dialog)).toBe(true);
    expect(isShortcutTarget(at('text'), dialog)).toBe(true);
    expect(isShortcutTarget(document.body, dialog)).toBe(true);
    expect(isShortcutTarget(window, dialog)).toBe(true);
  });

  it('no in a text field, a select or an editable element, in a form or not', () => {
    const { at, dialog } = page(
      '<input data-id="page" type="text"><input data-id="number" type="number"><textarea data-id="box"></textarea>' +
        '<select data-id="pick"><option>1</option></select><div data-id="edit" contenteditable="true"></div>' +
        '<div role="combobox" data-id="combo" tabindex="0"></div>',
    );
    for (const id of ['page', 'number', 'box', 'pick', 'combo'])
      expect(isShortcutTarget(at(id), dialog)).toBe(false);
    // jsdom has no isContentEditable: a browser's contenteditable element says true.
    Object.defineProperty(at('edit'), 'isContentEditable', { value: true });
    expect(isShortcutTarget(at('edit'), dialog)).toBe(false);
  });

  it('no anywhere inside a form, buttons included', () => {
    const { at, dialog } = page(
      '<form><button data-id="accept" type="button">Accept</button><span data-id="label">Reasons</span></form>',
    );
    expect(isShortcutTarget(at('accept'), dialog)).toBe(false);
    expect(isShortcutTarget(at('label'), dialog)).toBe(false);
  });

  it('no on a checkbox or chip, or anywhere in a group of them', () => {
    const { at, dialog } = page(
      '<div role="group"><input data-id="chip" type="checkbox"><label data-id="chip-label">Missing signature</label></div>' +
        '<div role="radiogroup"><span data-id="radio" role="radio" tabindex="0"></span></div>' +
        '<div role="group" aria-label="PDF viewer"><button data-id="page-next">Next page</button></div>',
    );
    expect(isShortcutTarget(at('chip'), dialog)).toBe(false);
    expect(isShortcutTarget(at('chip-label'), dialog)).toBe(false);
    expect(isShortcutTarget(at('radio'), dialog)).toBe(false);
    // A group of plain buttons is not a choice being made.
    expect(isShortcutTarget(at('page-next'), dialog)).toBe(true);
  });

  it('no in a dialog opened over the review dialog, or in a menu or a list of options', () => {
    const { at, dialog } = page(
      '<div role="dialog" data-id="confirm"><button data-id="ok">OK</button></div>' +
        '<div role="menu"><button data-id="item">Copy</button></div>' +
        '<div role="listbox"><div data-id="option" role="option">Sale</div></div>',
    );
    expect(isShortcutTarget(at('ok'), dialog)).toBe(false);
    expect(isShortcutTarget(at('item'), dialog)).toBe(false);
    expect(isShortcutTarget(at('option'), dialog)).toBe(false);
  });
});
