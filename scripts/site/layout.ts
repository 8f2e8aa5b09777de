/** The demo docs site's page: a nav of the pages, the page itself, its table of contents, and the widget. */
import { DEFAULT_GGUF_URL } from '../../src/engine/model-sources.ts';
import { buildCsp, cspMetaTag, inlineHash, modelConnectSources } from '../csp.ts';
import { escapeHtml, type RenderedPage } from './render-page.ts';

export interface NavEntry {
  /** Published path below the site root, `/`-separated (`guide/install.html`). */
  url: string;
  title: string;
}

export interface LayoutOptions {
  siteTitle: string;
  page: NavEntry;
  nav: readonly NavEntry[];
  content: RenderedPage;
  /** The widget's `model` attribute ('' = the default model). */
  model: string;
  lang: string;
}

/** `../` once per folder level of `url`: links stay relative, so the site works under any path. */
export const rootOf = (url: string): string => '../'.repeat(url.split('/').length - 1);

const STYLE = `
  :root { color-scheme: light dark; --fg: #1f2328; --bg: #fff; --muted: #59636e; --border: #d1d9e0; --accent: #0969da; --code: #f6f8fa; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --bg: #0d1117; --muted: #9198a1; --border: #3d444d; --accent: #4493f8; --code: #161b22; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", "Noto Sans", "PingFang SC", sans-serif; color: var(--fg); background: var(--bg); }
  header.site { display: flex; align-items: center; gap: 16px; padding: 12px 24px; border-bottom: 1px solid var(--border); }
  header.site a { color: inherit; text-decoration: none; font-weight: 600; }
  header.site .hint { margin-left: auto; color: var(--muted); font-size: 14px; }
  kbd { border: 1px solid var(--border); border-radius: 4px; padding: 0 4px; font-size: 12px; }
  .layout { display: grid; grid-template-columns: 220px minmax(0, 1fr) 200px; gap: 32px; max-width: 1200px; margin: 0 auto; padding: 24px; }
  nav.pages ul, nav.toc ul { list-style: none; margin: 0; padding: 0; }
  nav.pages li, nav.toc li { margin: 4px 0; }
  nav a { color: var(--muted); text-decoration: none; }
  nav a:hover, nav a[aria-current="page"] { color: var(--accent); }
  nav.toc .l3 { padding-left: 12px; font-size: 14px; }
  nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: 0.05em; color: var(--muted); margin: 0 0 8px; }
  main { min-width: 0; }
  main a { color: var(--accent); }
  h1, h2, h3, h4 { line-height: 1.25; scroll-margin-top: 16px; }
  h1 .anchor, h2 .anchor, h3 .anchor, h4 .anchor { margin-left: -1em; padding-right: 0.25em; opacity: 0; text-decoration: none; }
  :is(h1, h2, h3, h4):hover .anchor { opacity: 0.6; }
  pre { background: var(--code); padding: 12px 16px; border-radius: 6px; overflow-x: auto; }
  code { font: 14px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  :not(pre) > code { background: var(--code); padding: 0.1em 0.35em; border-radius: 4px; }
  table { border-collapse: collapse; } th, td { border: 1px solid var(--border); padding: 4px 10px; }
  blockquote { margin: 0; padding-left: 16px; border-left: 4px solid var(--border); color: var(--muted); }
  @media (max-width: 900px) { .layout { grid-template-columns: minmax(0, 1fr); } nav.toc { display: none; } }
`;

/** The service worker's registration: inline (no extra request before the worker exists), allowed by its hash. */
const registerScript = (root: string): string => `
  // Offline after one visit: the widget's service worker keeps these pages, the widget, its tokenizer and the index.
  if ('serviceWorker' in navigator) navigator.serviceWorker.register('${root}qwen-assistant-sw.js?widget=./widget/', { scope: '${root || './'}' }).catch(() => {});
`;

/**
 * The page's Content-Security-Policy (scripts/csp.ts): the widget's model host (Hugging Face and its CDN for the
 * default model; a relative model is the site's own), and this page's inline style and registration by hash.
 */
export function layoutPolicy(model: string, register: string): string {
  return buildCsp({
    connect: modelConnectSources([model.trim() === '' ? DEFAULT_GGUF_URL : model]),
    styleHashes: [inlineHash(STYLE)],
    scriptHashes: [inlineHash(register)],
  });
}

export function renderLayout(options: LayoutOptions): string {
  const root = rootOf(options.page.url);
  const register = registerScript(root);
  const nav = options.nav
    .map((entry) => {
      const current = entry.url === options.page.url ? ' aria-current="page"' : '';
      return `<li><a href="${escapeHtml(root + entry.url)}"${current}>${escapeHtml(entry.title)}</a></li>`;
    })
    .join('\n');
  const toc = options.content.headings
    .map((h) => `<li class="l${h.level}"><a href="#${escapeHtml(h.id)}">${escapeHtml(h.text)}</a></li>`)
    .join('\n');
  const title = options.page.title === options.siteTitle ? options.siteTitle : `${options.page.title} · ${options.siteTitle}`;
  return `<!doctype html>
<html lang="${escapeHtml(options.lang)}">
<head>
<meta charset="utf-8">
${cspMetaTag(layoutPolicy(options.model, register))}
<meta name="viewport" content="width=device-width, initial-scale=1">
<!-- An inline icon (img-src allows data:): no request for /favicon.ico, which the site does not have. -->
<link rel="icon" href="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E%3Ccircle cx='8' cy='8' r='7' fill='%230a7'/%3E%3C/svg%3E">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
<script type="module" src="${root}widget/qwen-assistant.js"></script>
</head>
<body>
<header class="site"><a href="${root}index.html">${escapeHtml(options.siteTitle)}</a><span class="hint">Ask the docs: <kbd>/</kbd> or <kbd>Ctrl</kbd>+<kbd>K</kbd></span></header>
<div class="layout">
<nav class="pages" aria-label="Pages"><h2>Pages</h2><ul>
${nav}
</ul></nav>
<main>
${options.content.html}
</main>
<nav class="toc" aria-label="On this page">${toc === '' ? '' : `<h2>On this page</h2><ul>\n${toc}\n</ul>`}</nav>
</div>
<qwen-assistant docs-index="${root}docs-index/manifest.json" model="${escapeHtml(options.model)}"></qwen-assistant>
<script type="module">${register}</script>
</body>
</html>
`;
}
