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

/** The id of `Title {#custom-id}`: an id given in the heading itself. */
const EXPLICIT_ID = /^[\p{L}\p{M}\p{N}\p{Pc}:.-]+$/u;

/** `Title {#id}` → its title and id; null without one. Found from the end, in linear time (headings can be huge). */
function explicitId(text: string): { id: string; text: string } | null {
  if (!text.endsWith('}')) return null;
  const open = text.lastIndexOf('{#');
  const id = open === -1 ? '' : text.slice(open + 2, -1);
  return EXPLICIT_ID.test(id) ? { id, text: text.slice(0, open).trimEnd() } : null;
}

/** A heading's text → its id before it is made unique (`slug` above, or a site generator's own rule). */
export type Slugify = (text: string) => string;

/** Makes slugs unique within one page: create one per page, call `slug` for each heading in document order. */
export class Slugger {
  private readonly _seen = new Map<string, number>();

  private readonly _base: Slugify;

  /** `base`: the rule for one heading (default GitHub's); repeats get `-1`, `-2`, … whatever the rule. */
  constructor(base: Slugify = slug) {
    this._base = base;
  }

  slug(text: string): string {
    return this._unique(this._base(text));
  }

  /**
   * A heading's id and shown text: an explicit `{#id}` at its end (VitePress, Docusaurus, MkDocs' attr_list and
   * Pandoc all render it as the id and drop it from the text) is taken as it is, else the slug of the text.
   */
  heading(text: string): { id: string; text: string } {
    const explicit = explicitId(text);
    if (explicit === null) return { id: this.slug(text), text };
    return { id: this._unique(explicit.id), text: explicit.text };
  }

  private _unique(base: string): string {
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
