/**
 * Heading anchors, GitHub-style (as github-slugger does it): lower case, every character that is not a letter, a
 * mark, a digit, `_`, `-` or a space dropped, spaces turned into `-`; a repeated slug gets `-1`, `-2`, … The
 * indexer and the demo site's renderer both use this, so a chunk's anchor is the id its heading has on the page.
 * Pure, no DOM.
 */

const DROPPED = /[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu;

/** The slug of one heading's plain text, not made unique. */
export function slug(text: string): string {
  return text.trim().toLowerCase().replace(DROPPED, '').replace(/ /g, '-');
}

/** Makes slugs unique within one page: create one per page, call `slug` for each heading in document order. */
export class Slugger {
  private readonly _seen = new Map<string, number>();

  slug(text: string): string {
    const base = slug(text);
    let candidate = base;
    let n = this._seen.get(base) ?? 0;
    // A heading literally named "x-1" after two "x" headings must not collide with the second one's slug.
    while (this._seen.has(candidate)) {
      n += 1;
      candidate = `${base}-${n}`;
    }
    this._seen.set(base, n);
    this._seen.set(candidate, 0);
    return candidate;
  }
}
