/**
 * Types of the `<qwen-assistant>` element (`qwen-assistant`'s main export, `widget/qwen-assistant.js`). The element
 * is configured by its attributes (README, "Docs widget"; `custom-elements.json` lists them); its script API is
 * below. scripts/package/types-check.ts checks these against the element's source, so they cannot drift.
 */

/** A link under an answer or in the search results. */
export interface QwenAssistantSource {
  /** Absolute link to the page and heading (`…/guide/install.html#from-npm`). */
  readonly href: string;
  readonly title: string;
  /** Heading path, '' for the page's top. */
  readonly heading: string;
}

/** The events the element fires (they bubble and cross shadow roots), by name, with their `detail`. */
export interface QwenAssistantEventDetails {
  /** The panel opened or closed. */
  'qwen-assistant-toggle': { open: boolean };
  /** Search results shown for a query. */
  'qwen-assistant:search': { query: string; results: QwenAssistantSource[]; ms: number };
  /** A question sent to the assistant. */
  'qwen-assistant:question': { question: string };
  /** An answer finished. `notInDocs`: nothing in the docs matched, the model was not asked. */
  'qwen-assistant:answer': {
    question: string;
    answer: string;
    sources: readonly QwenAssistantSource[];
    notInDocs: boolean;
    ms: number;
    /** `cached`: prompt tokens the engine's cache already held (the widget prefills its system message once ready). */
    tokens: { readonly prompt: number; readonly completion: number; readonly cached: number };
    finishReason: string;
  };
  /** A search result or an answer's source opened. */
  'qwen-assistant:source-click': { href: string; title: string; heading: string; from: 'search' | 'answer' };
  /** The reader agreed to the model download, or declined it. */
  'qwen-assistant:consent': { granted: boolean };
  /** Thumbs up or down on an answer. */
  'qwen-assistant:feedback': { question: string; answer: string; rating: 'up' | 'down' | null; sources: readonly QwenAssistantSource[] };
}

export type QwenAssistantEventMap = { [K in keyof QwenAssistantEventDetails]: CustomEvent<QwenAssistantEventDetails[K]> };

/** The `<qwen-assistant>` element. */
export declare class QwenAssistant extends HTMLElement {
  /** Whether the panel is open (reflected as the `open` attribute). */
  open: boolean;
  /** The language the panel speaks: the `lang` attribute, else the page's, else the browser's. */
  readonly language: 'zh' | 'en';
  /** Opens the panel (as the launcher or the shortcut does). */
  show(): void;
  /** Closes the panel. */
  hide(): void;
  addEventListener<K extends keyof QwenAssistantEventMap>(type: K, listener: (this: QwenAssistant, event: QwenAssistantEventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof QwenAssistantEventMap>(type: K, listener: (this: QwenAssistant, event: QwenAssistantEventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'qwen-assistant': QwenAssistant;
  }
}
