/**
 * Assistant replies as sanitised Markdown, loaded on demand: marked, DOMPurify and highlight.js stay out of the
 * eager chunk. Until the module has arrived a reply shows as plain text; `onLoad` asks for a re-render.
 */
import type { MarkdownLabels } from '../ui/markdown.ts';

type Render = (text: string, labels: MarkdownLabels) => string;

let render: Render | null = null;
let loading: Promise<void> | null = null;
const waiting = new Set<() => void>();

/** Sanitised HTML for `text`, or null while the renderer loads (then `onLoad` is called once it can render). */
export function markdownHtml(text: string, labels: MarkdownLabels, onLoad: () => void): string | null {
  if (render !== null) return render(text, labels);
  waiting.add(onLoad);
  loading ??= import('../ui/markdown.ts').then(
    (module) => {
      render = module.renderMarkdown;
      for (const callback of waiting) callback();
      waiting.clear();
    },
    () => {
      // Offline before the chunk was cached: replies stay plain text; the next render tries again.
      loading = null;
    },
  );
  return null;
}
