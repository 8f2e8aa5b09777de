/**
 * Turns the visible conversation into the prompt through the context engine (seed-000 selection, token-exact
 * budget, append-only between compactions). The Qwen tokenizer is fetched on first use, never at first paint.
 */
import {
  ContextAssembler,
  DEFAULT_CONTEXT_CONFIG,
  loadQwenTokenCounter,
  type ContextConfig,
  type ContextReport,
  type TokenCounter,
} from '../../context/index.ts';
import type { ChatMessage } from '../../engine/protocol.ts';

export interface PlannedPrompt {
  messages: ChatMessage[];
  report: ContextReport;
}

/** Where the prepared tokenizer files are served (`npm run prepare-tokenizer` writes them into public/). */
export const TOKENIZER_BASE = `${import.meta.env.BASE_URL}tokenizer/qwen2.5/`;

let sharedCounter: Promise<TokenCounter> | null = null;

export function qwenCounter(): Promise<TokenCounter> {
  sharedCounter ??= loadQwenTokenCounter(async (file) => {
    const response = await fetch(`${TOKENIZER_BASE}${file}`);
    if (!response.ok) throw new Error(`Could not load the tokenizer (${TOKENIZER_BASE}${file}: HTTP ${response.status}).`);
    return response.json();
  }).catch((error: unknown) => {
    sharedCounter = null;
    throw error;
  });
  return sharedCounter;
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
