/** The keyboard shortcut that opens the widget: a single key outside editable fields, and Ctrl/Cmd+K anywhere. */

/** True when the key event comes from a place where typing means text: inputs, textareas, selects, contenteditable. */
export function fromEditable(event: KeyboardEvent): boolean {
  // composedPath reaches into open shadow roots (a search box inside another web component counts too).
  for (const target of event.composedPath()) {
    if (!(target instanceof HTMLElement)) continue;
    if (target.isContentEditable) return true;
    const tag = target.tagName;
    if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
    if (tag === 'INPUT') {
      const type = (target as HTMLInputElement).type;
      return !['button', 'checkbox', 'radio', 'range', 'reset', 'submit', 'color', 'file', 'image'].includes(type);
    }
  }
  return false;
}

/** Does this keydown ask to open the widget? `key` is the single-key shortcut ('' = none). */
export function isOpenShortcut(event: KeyboardEvent, key: string): boolean {
  if (event.defaultPrevented || event.isComposing || event.repeat) return false;
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.key.toLowerCase() === 'k') return true;
  if (key === '' || event.ctrlKey || event.metaKey || event.altKey) return false;
  return event.key === key && !fromEditable(event);
}

/** The `aria-keyshortcuts` value for the launcher. */
export function ariaShortcuts(key: string): string {
  const names: Record<string, string> = { '/': 'Slash', ' ': 'Space' };
  const single = key === '' ? [] : [names[key] ?? key];
  return [...single, 'Control+K', 'Meta+K'].join(' ');
}
