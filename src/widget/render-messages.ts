/** Templates of the message list: user and assistant messages, each answer's sources. */
import { html, nothing, type TemplateResult } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type { WidgetMessage } from './assistant-controller.ts';
import type { WidgetStrings } from './i18n.ts';
import { markdownHtml } from './lazy-markdown.ts';
import type { DocSource } from './runtime/types.ts';

const SEPARATOR = ' › ';

/** `Title › Heading`, or the title alone for the page's top; a heading path that starts with the title (the
 * page's h1) does not repeat it. */
export function sourceLabel(source: DocSource): string {
  let heading = source.heading;
  if (heading === source.title) heading = '';
  else if (heading.startsWith(source.title + SEPARATOR)) heading = heading.slice(source.title.length + SEPARATOR.length);
  return heading === '' ? source.title : `${source.title}${SEPARATOR}${heading}`;
}

/** One link per target, in the runtime's order. */
function distinct(list: readonly DocSource[]): DocSource[] {
  const seen = new Set<string>();
  return list.filter((source) => {
    if (seen.has(source.href)) return false;
    seen.add(source.href);
    return true;
  });
}

/**
 * Whether a source may be a link: only to an http(s) page (a docs index could name `javascript:` or `data:`).
 * Resolved as the browser would, so spaces or tabs in a scheme do not hide it. (Not the reply renderer's
 * sanitize-config: that module is lazy, and sharing it would add a chunk to what the page loads eagerly.)
 */
export function linkable(href: string): boolean {
  try {
    const { protocol } = new URL(href, document.baseURI);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/** A source as a link when it leads to an http(s) page; else its label alone. */
function sourceLink(source: DocSource): TemplateResult | string {
  return linkable(source.href) ? html`<a href=${source.href}>${sourceLabel(source)}</a>` : sourceLabel(source);
}

/** The sources under an answer; for "not in the docs", the nearest sections (`label`). */
function sources(list: readonly DocSource[], label: string): TemplateResult | typeof nothing {
  if (list.length === 0) return nothing;
  return html`<div class="sources-block">
    <div class="sources-label" aria-hidden="true">${label}</div>
    <ul class="sources" part="sources" aria-label=${label}>
      ${distinct(list).map((source) => html`<li>${sourceLink(source)}</li>`)}
    </ul>
  </div>`;
}

function assistantBody(message: WidgetMessage, strings: WidgetStrings, rerender: () => void, onSuggest: (question: string) => void): TemplateResult {
  const markup = message.text === '' ? null : markdownHtml(message.text, { copy: strings.copy, image: strings.image }, rerender);
  // No whitespace around the text: it is shown with `white-space: pre-wrap`.
  const text = markup === null ? html`<div class="text">${message.text}</div>` : html`<div class="markdown">${unsafeHTML(markup)}</div>`;
  const note = message.state === 'stopped' ? html`<div class="note">${strings.stopped}</div>` : nothing;
  return html`${text}${note}${sources(message.sources, message.notInDocs ? strings.nearest : strings.sources)}${message.state === 'complete' ? actions(message, strings, onSuggest) : nothing}`;
}

/** Under a finished answer: thumbs up and down, copy, and the follow-ups it suggests. */
function actions(message: WidgetMessage, strings: WidgetStrings, onSuggest: (question: string) => void): TemplateResult {
  // Emoji, not inline SVG: nothing in a message is an active element (the exfiltration audit holds the whole message to it).
  const rate = (rating: 'up' | 'down', label: string, icon: string): TemplateResult =>
    html`<button type="button" class="rate" data-rate=${rating} aria-pressed=${message.rating === rating ? 'true' : 'false'} aria-label=${label} title=${label}>${icon}</button>`;
  const topic = (source: DocSource): string => sourceLabel(source).split(SEPARATOR).at(-1)!;
  return html`<div class="answer-actions" part="answer-actions" data-message=${message.id}>
      ${rate('up', strings.helpful, '👍')}${rate('down', strings.notHelpful, '👎')}
      <button type="button" class="copy-answer" data-copy-answer>${message.copied ? strings.copied : strings.copyAnswer}</button>
    </div>
    ${message.followUps.length === 0
      ? nothing
      : html`<div class="follow-ups" part="follow-ups" role="group" aria-label=${strings.followUps}>
          ${message.followUps.map((s) => {
            const question = strings.followUpQuestion.replace('{topic}', topic(s));
            return html`<button type="button" class="chip" @click=${() => onSuggest(question)}>${question}</button>`;
          })}
        </div>`}`;
}

/** On a question too long for the model: how much of it was sent. */
function sentNote(message: WidgetMessage, strings: WidgetStrings): TemplateResult | typeof nothing {
  const sent = message.sent;
  if (sent === null) return nothing;
  const numbers: Record<string, number> = { sent: sent.chars, total: message.text.length, tokens: sent.tokens };
  const text = strings.partlySent.replace(/\{(\w+)\}/g, (_, name: string) => (numbers[name] ?? 0).toLocaleString('en'));
  return html`<div class="note" data-sent=${sent.chars}>${text}</div>`;
}

/** `onSuggest`: a follow-up under an answer was chosen. */
export function renderMessage(message: WidgetMessage, strings: WidgetStrings, rerender: () => void, onSuggest: (question: string) => void = () => {}): TemplateResult {
  const label = message.role === 'user' ? strings.you : strings.assistant;
  return html`<div
    class="message ${message.role}"
    part="message ${message.role}"
    role="article"
    data-state=${message.state}
    aria-label=${label}
    aria-busy=${message.state === 'streaming' ? 'true' : 'false'}
  >${message.role === 'user' ? html`<div class="text">${message.text}</div>${sentNote(message, strings)}` : assistantBody(message, strings, rerender, onSuggest)}</div>`;
}
