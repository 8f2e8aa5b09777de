/**
 * The result of one BM25 search (bm25.ts): scores dense by slot, and the slots reached. Pure, no DOM.
 */

/** How an index names its slots. */
export interface SlotNames {
  slotOf(id: string): number | undefined;
  idOf(slot: number): string;
}

/**
 * The scores of one search: dense by slot (0 for documents sharing no term or outside the allowed scopes), and
 * the scored slots in the order they were first reached (the order a map filled term by term would have).
 */
export class Bm25Scores {
  readonly bySlot: Float64Array;
  readonly slots: Int32Array;
  private readonly _index: SlotNames;

  constructor(index: SlotNames, bySlot: Float64Array, slots: Int32Array) {
    this._index = index;
    this.bySlot = bySlot;
    this.slots = slots;
  }

  get size(): number {
    return this.slots.length;
  }

  /** The score of a document by id (0 when it shares no term, is outside the scopes, or is unknown). */
  get(id: string): number {
    const slot = this._index.slotOf(id);
    return slot === undefined || slot >= this.bySlot.length ? 0 : this.bySlot[slot]!;
  }

  idOf(slot: number): string {
    return this._index.idOf(slot);
  }

  /** Id → score, in first-reached order (for callers that want a map). */
  toMap(): Map<string, number> {
    const out = new Map<string, number>();
    for (const slot of this.slots) out.set(this._index.idOf(slot), this.bySlot[slot]!);
    return out;
  }
}
