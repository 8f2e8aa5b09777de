/**
 * The turn before and after each turn of a session, by slot of the shard's turn index: a search reads the
 * scores of a turn's exchange (its neighbours) for every turn it touches, so these are two array reads rather
 * than id look-ups. Kept by `UserMemory`, which knows the session order; -1 where there is no neighbour.
 * Pure, no DOM.
 */
export class SlotLinks {
  private _prev: Int32Array<ArrayBuffer> = new Int32Array(64).fill(-1);
  private _next: Int32Array<ArrayBuffer> = new Int32Array(64).fill(-1);

  prev(slot: number): number {
    return slot < this._prev.length ? this._prev[slot]! : -1;
  }

  next(slot: number): number {
    return slot < this._next.length ? this._next[slot]! : -1;
  }

  /** Both directions as arrays (copies), for a snapshot. */
  exportState(): { prev: Int32Array; next: Int32Array } {
    return { prev: this._prev.slice(), next: this._next.slice() };
  }

  static fromState(state: { prev: Int32Array; next: Int32Array }): SlotLinks {
    if (state.prev.length !== state.next.length) throw new RangeError('damaged links: lengths differ');
    const links = new SlotLinks();
    links._prev = Int32Array.from(state.prev);
    links._next = Int32Array.from(state.next);
    return links;
  }

  /** Links `a` → `b` (either may be -1: the link is cut on the other side only). */
  link(a: number, b: number): void {
    this._reserve(Math.max(a, b) + 1);
    if (a >= 0) this._next[a] = b;
    if (b >= 0) this._prev[b] = a;
  }

  private _reserve(slots: number): void {
    if (slots <= this._prev.length) return;
    const capacity = Math.max(slots, this._prev.length * 2);
    const grow = (old: Int32Array): Int32Array<ArrayBuffer> => {
      const next = new Int32Array(capacity).fill(-1);
      next.set(old);
      return next;
    };
    this._prev = grow(this._prev);
    this._next = grow(this._next);
  }
}
