/**
 * What a parsed page is, before splitting: its title and its sections, one per heading (plus the text before the
 * first heading), each a list of blocks. Markdown (markdown.ts) and HTML (html.ts) both produce this. Pure.
 */

export interface PageBlock {
  /** Plain text of a paragraph, list, table or quote; a code block's source, fenced. */
  text: string;
  /** A code block: split only when it alone is over the token limit. */
  code: boolean;
}

export interface PageSection {
  /** Heading level 1–6; 0 for the text before the first heading. */
  depth: number;
  /** The heading's plain text ('' for the text before the first heading). */
  heading: string;
  /** The heading's id on the rendered page ('' for the text before the first heading). */
  anchor: string;
  blocks: PageBlock[];
}

export interface ParsedPage {
  /** `<title>`, else the first h1's text; null when the page has neither. */
  title: string | null;
  sections: PageSection[];
}

/** Collapses runs of whitespace to one space (HTML and Markdown inline text). */
export function collapseSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
