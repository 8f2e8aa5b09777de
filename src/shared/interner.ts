/** Strings numbered in first-seen order, both ways: hot loops compare small integers, not strings. */
export class Interner {
  private readonly _codes = new Map<string, number>();
  private readonly _names: string[] = [];

  get size(): number {
    return this._names.length;
  }

  /** The string's code, numbering it when new. */
  code(name: string): number {
    let code = this._codes.get(name);
    if (code === undefined) {
      code = this._names.length;
      this._names.push(name);
      this._codes.set(name, code);
    }
    return code;
  }

  /** The string's code, or undefined when it was never numbered. */
  codeOf(name: string): number | undefined {
    return this._codes.get(name);
  }

  /** Every string, by code (a copy). */
  names(): string[] {
    return [...this._names];
  }

  name(code: number): string {
    return this._names[code]!;
  }
}
