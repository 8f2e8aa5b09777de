/**
 * A Markdown page as sections, with marked's lexer: split at headings, each block turned into plain text
 * (emphasis and link syntax dropped, link text kept; lists as `- item` lines; tables as `a | b` rows) and code
 * blocks kept fenced. The demo site renders heading ids with `inlinePlainText` + `Slugger`, so anchors match. Pure.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { decodeEntities } from './entities.ts';
import { htmlFragmentText } from './html.ts';
import { breakLongRuns } from './long-runs.ts';
import { collapseSpace, type PageBlock, type PageSection, type ParsedPage } from './sections.ts';
import { Slugger, type Slugify } from './slug.ts';

/** The plain text of inline tokens (a heading's, a paragraph's): what a reader sees, without markup. */
export function inlinePlainText(tokens: readonly Token[]): string {
  let out = '';
  for (const token of tokens) {
    switch (token.type) {
      case 'codespan':
        // A code span's text is the source as written: CommonMark does not decode entities inside backticks.
        out += (token as Tokens.Codespan).text;
        break;
      case 'br':
        out += '\n';
        break;
      case 'html':
        out += htmlFragmentText((token as Tokens.HTML).text);
        break;
      case 'image':
        out += (token as Tokens.Image).text;
        break;
      case 'checkbox':
        out += (token as Tokens.Checkbox).checked ? '[x] ' : '[ ] ';
        break;
      default: {
        const children = (token as Tokens.Generic).tokens;
        if (Array.isArray(children) && children.length > 0) out += inlinePlainText(children as Token[]);
        else if (typeof (token as Tokens.Generic).text === 'string') out += decodeEntities((token as Tokens.Generic).text as string);
      }
    }
  }
  return out;
}

/** A heading's text as used for its anchor: `slugger.heading(headingText(token.tokens))` is the id the site renders. */
export function headingText(tokens: readonly Token[]): string {
  return collapseSpace(inlinePlainText(tokens));
}

function listText(list: Tokens.List, indent: string): string {
  const lines: string[] = [];
  list.items.forEach((item, i) => {
    const marker = list.ordered ? `${(typeof list.start === 'number' ? list.start : 1) + i}. ` : '- ';
    const own = item.tokens.filter((t) => t.type !== 'list').map(blockText).filter((p) => p.trim() !== '');
    const nested = item.tokens.filter((t) => t.type === 'list').map((t) => listText(t as Tokens.List, indent + '  '));
    const checkbox = item.task ? (item.checked === true ? '[x] ' : '[ ] ') : '';
    lines.push(`${indent}${marker}${checkbox}${own.join(' ').trim()}`, ...nested);
  });
  return lines.join('\n');
}

function tableText(table: Tokens.Table): string {
  const row = (cells: Tokens.TableCell[]): string => cells.map((c) => collapseSpace(inlinePlainText(c.tokens))).join(' | ');
  return [row(table.header), ...table.rows.map(row)].join('\n');
}

/** One block's plain text ('' for blocks without text: space, hr, link definitions). */
function blockText(token: Token): string {
  switch (token.type) {
    case 'paragraph':
    case 'text': {
      const t = token as Tokens.Paragraph | Tokens.Text;
      // (Only a run's first blank starts a match: tried from every blank of a long run, `[ \t]+\n` was quadratic.)
      return (t.tokens !== undefined ? inlinePlainText(t.tokens) : decodeEntities(t.text)).replace(/(?<![ \t])[ \t]+\n/g, '\n').trim();
    }
    case 'code': {
      const code = token as Tokens.Code;
      return '```' + (code.lang ?? '').split(/\s/)[0] + '\n' + code.text + '\n```';
    }
    case 'list':
      return listText(token as Tokens.List, '');
    case 'table':
      return tableText(token as Tokens.Table);
    case 'blockquote':
      return (token as Tokens.Blockquote).tokens.map(blockText).filter((t) => t !== '').join('\n');
    case 'html':
      return htmlFragmentText((token as Tokens.HTML).text);
    case 'heading':
      return headingText((token as Tokens.Heading).tokens);
    default:
      return '';
  }
}

/** `slugify`: the site generator's rule for heading ids (default GitHub's, which the demo site renders). */
export function parseMarkdownPage(markdown: string, slugify?: Slugify): ParsedPage {
  const slugger = new Slugger(slugify);
  const sections: PageSection[] = [{ depth: 0, heading: '', anchor: '', blocks: [] }];
  let firstH1: string | null = null;
  for (const token of Lexer.lex(breakLongRuns(markdown), { gfm: true })) {
    if (token.type === 'heading') {
      const heading = token as Tokens.Heading;
      const { id, text } = slugger.heading(headingText(heading.tokens));
      if (heading.depth === 1 && firstH1 === null && text !== '') firstH1 = text;
      sections.push({ depth: heading.depth, heading: text, anchor: id, blocks: [] });
      continue;
    }
    const text = blockText(token);
    if (text === '') continue;
    const block: PageBlock = { text, code: token.type === 'code' };
    sections[sections.length - 1]!.blocks.push(block);
  }
  return { title: firstH1, sections: sections.filter((s) => s.depth > 0 || s.blocks.length > 0) };
}
