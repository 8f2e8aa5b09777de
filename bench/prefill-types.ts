/** What the bench:prefill page reports to its Node driver. */
/**
 * full: every turn, verbatim, until the window overflows. reselect: seed 000 as written (selection from scratch
 * every turn). cache-aware: append-only between rare compactions. The `+reuse` variants run the same policy on
 * wllama with KV chunk reuse (llama.cpp `n_cache_reuse`), which the app turns on for the CPU engine. layered: the
 * app's full pipeline (seed 001: working memory, retrieval, labelled memory block in the newest user message) with
 * chunk reuse, on the conversation followed by questions that need retrieval.
 */
export type Strategy = 'full' | 'reselect' | 'cache-aware' | 'reselect+reuse' | 'cache-aware+reuse' | 'layered';

export interface TurnSample {
  turn: number;
  promptTokens: number;
  cachedTokens: number;
  prefill: number;
  newTokens: number;
  ttftMs: number;
  compaction: boolean;
  /** The first turn after a page reload (`--reload-at`). */
  afterReload?: boolean;
}

export interface StrategyResult {
  strategy: Strategy;
  /** Tokens kept free for the answer (the layered pipeline's section budgets differ from the context engine's default). */
  reserveTokens: number;
  /** Tokens prefilled before the first message, as the app does while the user types (0 with `--no-warm`). */
  warmTokens: number;
  /** Tokens prefilled after the reload, before its first message (`--reload-at`). */
  reloadWarmTokens?: number;
  /** What it was asked, in words: the layered row ends with questions that need retrieval. */
  script: string;
  turns: TurnSample[];
  /** Set when the strategy could not go on (full history past the window). */
  stoppedAt?: { turn: number; reason: string };
}


export interface PrefillBenchResult {
  modelUrl: string;
  budget: number;
  maxTokens: number;
  results: StrategyResult[];
}
