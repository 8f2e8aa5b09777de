/**
 * One Markdown docs page → HTML for the demo site. Heading ids come from the indexer's own helpers
 * (`headingText` + `Slugger`), so an answer's source link `page.html#anchor` lands on that heading. Links to
 * other `.md` pages point at their published `.html`. The docs are the repository's own: no sanitising here.
 */
import { Marked, type Tokens } from 'marked';
import { parseFrontMatter } from '../../src/docs-index/front-matter.ts';
import { headingText } from '../../src/docs-index/markdown.ts';
import { Slugger } from '../../src/docs-index/slug.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

export interface RenderedPage {
  html: string;
  /** The page's headings (level 2 and 3), for its table of contents. */
  headings: Array<{ level: number; id: string; text: string }>;
}

/** `guide/x.md#y` → `guide/x.html#y`; other links unchanged. */
export function rewriteDocLink(href: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return href;
  return href.replace(/\.(?:md|markdown)(?=$|[#?])/i, '.html');
}

export function renderMarkdownPage(source: string): RenderedPage {
  const slugger = new Slugger();
  const headings: RenderedPage['headings'] = [];
  const marked = new Marked({
    gfm: true,
    renderer: {
      heading(this: { parser: { parseInline(tokens: Tokens.Heading['tokens']): string } }, token: Tokens.Heading) {
        const { id, text } = slugger.heading(headingText(token.tokens));
        if (token.depth === 2 || token.depth === 3) headings.push({ level: token.depth, id, text });
        const shown = text === headingText(token.tokens) ? this.parser.parseInline(token.tokens) : escapeHtml(text);
        return `<h${token.depth} id="${escapeHtml(id)}"><a class="anchor" href="#${escapeHtml(id)}" aria-hidden="true">#</a>${shown}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Link['tokens']): string } }, token: Tokens.Link) {
        const title = token.title ? ` title="${escapeHtml(token.title)}"` : '';
        return `<a href="${escapeHtml(rewriteDocLink(token.href))}"${title}>${this.parser.parseInline(token.tokens)}</a>`;
      },
    },
  });
  const body = parseFrontMatter(source).body;
  return { html: marked.parse(body, { async: false }), headings };
}
