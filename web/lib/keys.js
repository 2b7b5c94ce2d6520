// Which key presses the page's shortcuts (←/→, Home/End, space, 1–6, ↑/↓) may take. A control
// that has the focus keeps its own keys: a radio group's arrows move its choice, a text field's
// arrows move the caret, a slider's move the slider, space presses a button. The page's keys act
// only when the focus is on none of them (the page itself, a heading, a card).

const OWN_KEYS =
  'input, select, textarea, [contenteditable]:not([contenteditable=false]), [role=radio], [role=radiogroup], [role=slider], [role=listbox], [role=tablist], [role=menu], [role=grid], [role=spinbutton], [role=textbox], [role=combobox]';
const PRESSABLE = 'button, a[href], summary, [role=button], [role=link], [role=switch], [role=checkbox]';

/**
 * Whether a page shortcut may act on `event` (a keydown): no modifier, and the focus is not in a
 * control that uses the key itself.
 * @param {KeyboardEvent} event
 */
export function shortcutAllowed(event) {
  if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return false;
  const target = event.target;
  if (!target || typeof (/** @type {Element} */ (target).closest) !== 'function') return true;
  const element = /** @type {Element} */ (target);
  if (element.closest(OWN_KEYS)) return false;
  if ((event.key === ' ' || event.key === 'Enter') && element.closest(PRESSABLE)) return false;
  return true;
}
