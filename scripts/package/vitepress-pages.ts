/**
 * How VitePress publishes a Markdown page, for the docs index: its URL (rewrites, `cleanUrls`, index pages as their
 * folder) and its heading ids (VitePress's default `markdown.anchor.slugify`, unless the site sets its own). The
 * plugin then checks every id against the built page (`headingIds`), so a site with other rules still gets links
 * that land: on the heading when it is there, else on the page. Pure.
 */

/** Runs of white space and ASCII punctuation (with curly quotes) that VitePress turns into one `-`. */
const SEPARATORS = /[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'“”‘’<>,.?/]+/g;
const COMBINING_MARKS = /[\u0300-\u036f]/g;
const CONTROL = /[\u0000-\u001f]/g;

/**
 * VitePress 1.x's default heading id for a heading's text: compatibility-decomposed, combining marks and control
 * characters removed, separators as `-` (none at the ends), `_` before a leading digit, lower case.
 */
export function vitepressSlug(text: string): string {
  const dashed = text.normalize('NFKD').replace(COMBINING_MARKS, '').replace(CONTROL, '').replace(SEPARATORS, '-');
  return dashed.replace(/^-+|-+$/g, '').replace(/^(\d)/, '_$1').toLowerCase();
}

export interface VitePressPaths {
  rewrites: { map: Record<string, string | undefined> };
  cleanUrls?: boolean;
}

/** The page's published path below the site's base, from its source file below `srcDir` (`guide/a.md`). */
export function vitepressPageUrl(page: string, site: VitePressPaths): string {
  const stem = (site.rewrites.map[page] ?? page).replace(/\.md$/, '');
  if (stem === 'index') return '';
  if (stem.endsWith('/index')) return stem.slice(0, -'index'.length);
  return site.cleanUrls === true ? stem : `${stem}.html`;
}

/** The built HTML file of that page, below `outDir` (VitePress writes `.html` files whatever `cleanUrls` says). */
export function vitepressHtmlFile(page: string, site: Pick<VitePressPaths, 'rewrites'>): string {
  return (site.rewrites.map[page] ?? page).replace(/\.md$/, '.html');
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'", '#39': "'" };

/** The ids of a built page's headings (`<h1>`–`<h6>`), as a link's fragment names them. */
export function headingIds(html: string): Set<string> {
  const ids = new Set<string>();
  for (const match of html.matchAll(/<h[1-6]\b[^>]*?\sid\s*=\s*(?:"([^"]*)"|'([^']*)')/gi)) {
    ids.add((match[1] ?? match[2]!).replace(/&(amp|quot|lt|gt|apos|#39);/g, (_, name: string) => ENTITIES[name]!));
  }
  return ids;
}
