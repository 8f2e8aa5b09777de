/**
 * One term's posting list: the slots of the documents holding it and, in step, the term's count there, in
 * growable typed arrays (appends in slot order; a search reads them straight through). Pure, no DOM.
 */
export class Postings {
  /** Starts empty, or (a restored index) as views of its saved arrays: a full list copies itself on the next push. */
  constructor(
    public slots: Int32Array = new Int32Array(4),
    public tfs: Int32Array = new Int32Array(4),
    public length = 0,
  ) {}

  push(slot: number, tf: number): void {
    if (this.length === this.slots.length) {
      const capacity = this.length * 2;
      const slots = new Int32Array(capacity);
      slots.set(this.slots);
      const tfs = new Int32Array(capacity);
      tfs.set(this.tfs);
      this.slots = slots;
      this.tfs = tfs;
    }
    this.slots[this.length] = slot;
    this.tfs[this.length] = tf;
    this.length += 1;
  }

  /** Drops every entry (when the last document holding the term is gone). */
  clear(): void {
    this.length = 0;
    if (this.slots.length > 4) {
      this.slots = new Int32Array(4);
      this.tfs = new Int32Array(4);
    }
  }
}
