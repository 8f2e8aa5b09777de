/** Dispatches an event that bubbles out of shadow roots (`composed`), so the app shell hears it from any depth. */
export function fire(target: EventTarget, name: string, detail?: unknown): void {
  target.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}
