/**
 * Turns the visible conversation into the prompt through the context engine (seed-000 selection, token-exact
 * budget, append-only between compactions). The Qwen tokenizer is fetched on first use, never at first paint.
 */
import {
  CachedTokenCounter,
  ContextAssembler,
  DEFAULT_CONTEXT_CONFIG,
  loadQwenTokenizer,
  type ContextConfig,
  type ContextReport,
  type TokenCounter,
} from '../../context/index.ts';
import type { ChatMessage } from '../../engine/protocol.ts';
import { AssistantError } from '../../shared/errors.ts';

export interface PlannedPrompt {
  messages: ChatMessage[];
  report: ContextReport;
}

/** Where the prepared tokenizer files are served (`npm run prepare-tokenizer` writes them into public/). */
export const TOKENIZER_BASE = `${import.meta.env.BASE_URL}tokenizer/qwen2.5/`;

/** One counter per tokenizer folder (the app's, a widget's base URL), loaded once; a failed load is retried. */
const counters = new Map<string, Promise<TokenCounter>>();

/**
 * The exact Qwen token counter, its files fetched from `base` (a folder URL ending in `/`): the app's own by
 * default, the widget's `${widgetBase}tokenizer/qwen2.5/` when embedded on another site.
 */
export function qwenCounter(base: string = TOKENIZER_BASE): Promise<TokenCounter> {
  let counter = counters.get(base);
  if (counter === undefined) {
    counter = loadQwenTokenizer(async (file) => {
      const url = `${base}${file}`;
      let response: Response;
      try {
        response = await fetch(url);
      } catch (error) {
        throw new AssistantError('network', `Could not load the tokenizer from ${url}: the network is off or the host is unreachable.`, { cause: error });
      }
      if (!response.ok) throw new AssistantError('load_failed', `Could not load the tokenizer (${url}: HTTP ${response.status}).`);
      return response.json();
    }).then((tokenizer) => {
      if (tokenizer.build === 'rebuilt') {
        console.warn('Qwen tokenizer: this version of @huggingface/tokenizers did not take the prebuilt tables; it was built from the full vocabulary (slower).');
      }
      return new CachedTokenCounter(tokenizer);
    }).catch((error: unknown) => {
      counters.delete(base);
      throw error;
    });
    counters.set(base, counter);
  }
  return counter;
}

export class ContextPlanner {
  private _assembler: ContextAssembler | null = null;
  private _configKey = '';

  constructor(private readonly _config: () => Partial<ContextConfig>) {}

  /** `history` ends with the reply to the previous input; `input` is the user's new message. */
  async plan(history: readonly ChatMessage[], input: string): Promise<PlannedPrompt> {
    const counter = await qwenCounter();
    const config: ContextConfig = { ...DEFAULT_CONTEXT_CONFIG, ...this._config() };
    const key = JSON.stringify([config.systemPrompt, config.budgetTokens, config.reserveTokens, config.recentExchanges]);
    if (this._assembler === null || key !== this._configKey) {
      // A new config object starts a new assembler; its first request compacts, as it must.
      this._assembler = new ContextAssembler(counter, Object.freeze(config), this._assembler?.state ?? null);
      this._configKey = key;
    }
    const { messages, report } = this._assembler.next(history, input);
    return { messages, report };
  }

  /** Forget the previous prompt (another conversation starts). */
  reset(): void {
    this._assembler?.reset();
  }
}
