/**
 * The search view (results as the reader types) and the consent step, as Lit templates. Doc text is rendered as
 * text only — a snippet's marked words are `<mark>` elements around text parts, never parsed markup — and a result
 * is a link only to an http(s) page, as an answer's sources are (render-messages.ts's `linkable`).
 */
import { html, nothing } from 'lit';
import type { WidgetStrings } from './i18n.ts';
import { linkable, sourceLabel } from './render-messages.ts';
import type { DocSearchHit, ModelOffer } from './runtime/types.ts';

export interface SearchView {
  readonly query: string;
  readonly results: readonly DocSearchHit[];
  /** The highlighted result (arrow keys), -1 for none. */
  readonly active: number;
  /** Whether the last search for `query` has answered. */
  readonly done: boolean;
  /** The query was then asked: a "no section matches" for it is not repeated above the answer. */
  readonly asked: boolean;
  /** A conversation is under way: the results shrink to their titles above it. */
  readonly compact: boolean;
  /** Offers "Ask the assistant" (modes auto and assistant). */
  readonly offerAssistant: boolean;
  readonly onPick: (hit: DocSearchHit, event: Event) => void;
  readonly onAsk: () => void;
}

export function renderSearch(view: SearchView, strings: WidgetStrings): unknown {
  if (view.query.trim() === '' || (view.asked && view.results.length === 0)) return nothing;
  return html`<section class="search ${view.compact ? 'compact' : ''}" part="search" aria-label=${strings.searchResults}>
    ${view.done && view.results.length === 0 ? html`<p class="no-results">${strings.noResults}</p>` : nothing}
    <ul id="results" role="listbox" aria-label=${strings.searchResults} part="results">
      ${view.results.map((hit, i) => {
        const href = linkable(hit.href) ? hit.href : null;
        const body = html`<span class="result-title">${sourceLabel(hit)}</span>
          <span class="snippet">${hit.snippet.map((p) => (p.mark ? html`<mark>${p.text}</mark>` : p.text))}</span>`;
        return html`<li id="result-${i}" role="option" part="result" aria-selected=${i === view.active ? 'true' : 'false'} class=${i === view.active ? 'active' : ''}>
          ${href === null ? body : html`<a href=${href} tabindex="-1" @click=${(event: Event) => view.onPick(hit, event)}>${body}</a>`}
        </li>`;
      })}
    </ul>
    ${view.offerAssistant ? html`<button type="button" class="ask-assistant" part="ask-assistant" @click=${view.onAsk}>${strings.askAssistant}</button>` : nothing}
  </section>`;
}

const fill = (template: string, values: Record<string, string>): string => template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? '');

/** The consent step; `offer` is null until the runtime module is in (a moment after the panel opens). */
export function renderConsent(offer: ModelOffer | null, strings: WidgetStrings, onAccept: () => void, onDecline: () => void): unknown {
  const size = offer === null ? '' : offer.megabytes === null ? strings.consentNoSize : fill(strings.consentSize, { mb: String(offer.megabytes) });
  return html`<div class="consent" part="consent" role="group" aria-label=${strings.askAssistant}>
    <p>${offer === null ? '…' : fill(strings.consent, { file: offer.file, host: offer.host, size })}</p>
    <div class="consent-actions">
      <button type="button" class="accept" part="consent-accept" @click=${onAccept}>${strings.consentAccept}</button>
      <button type="button" class="decline" part="consent-decline" @click=${onDecline}>${strings.consentDecline}</button>
    </div>
  </div>`;
}

/**
 * Suggested questions (or pages) on an empty panel; each fills the field and is asked or searched. The text is
 * only ever a text node (no attribute holds doc text).
 */
export function renderSuggestions(list: readonly string[], strings: WidgetStrings, onChoose: (text: string) => void): unknown {
  if (list.length === 0) return nothing;
  return html`<div class="suggestions" part="suggestions" role="group" aria-label=${strings.suggested}>
    ${list.map((text) => html`<button type="button" class="chip" @click=${() => onChoose(text)}>${text}</button>`)}
  </div>`;
}
