/**
 * Budget arithmetic: how the window splits into prompt and answer, how much room each section has, and the
 * low-water mark a compaction aims for. All numbers are tokens of the rendered ChatML prompt.
 */
import { GENERATION_PROMPT_TOKENS } from './chatml.ts';
import type { ContextConfig } from './config.ts';

export interface Budget {
  /** The whole window used per request (prompt + answer). */
  readonly total: number;
  /** Kept free for the answer. */
  readonly reserve: number;
  /** The most the prompt may take: `total - reserve`. Never exceeded. */
  readonly promptLimit: number;
  /** What a compaction brings the prompt down to (at most), so later turns can be appended. */
  readonly lowWater: number;
  /** `<|im_start|>assistant\n` at the end of every prompt. */
  readonly generationPrompt: number;
}

export function computeBudget(config: ContextConfig): Budget {
  const promptLimit = config.budgetTokens - config.reserveTokens;
  return {
    total: config.budgetTokens,
    reserve: config.reserveTokens,
    promptLimit,
    lowWater: Math.floor(promptLimit * config.lowWaterRatio),
    generationPrompt: GENERATION_PROMPT_TOKENS,
  };
}

/** Room for the last user message (input + extras): what the system message and the generation prompt leave. */
export function inputRoom(budget: Budget, systemTokens: number): number {
  return budget.promptLimit - systemTokens - budget.generationPrompt;
}

/**
 * Room for history turns at a compaction: up to the low-water mark when the engine is cache-aware (so the
 * prompt can grow for a while before the next compaction), up to the limit otherwise; never negative.
 */
export function historyRoom(budget: Budget, fixedTokens: number, cacheAware: boolean): number {
  const ceiling = cacheAware ? budget.lowWater : budget.promptLimit;
  return Math.max(0, ceiling - fixedTokens);
}

export interface SectionUsage {
  readonly tokens: number;
  /** The most this section could have taken in this request. */
  readonly limit: number;
}

export interface SectionReport {
  readonly system: SectionUsage;
  readonly history: SectionUsage;
  /** What changes every turn (retrieved / working memory), inside the last user message. */
  readonly extras: SectionUsage;
  /** The last user message as sent (input + extras + its ChatML tokens). */
  readonly input: SectionUsage;
  /** The generation prompt. */
  readonly template: SectionUsage;
  /** All of the prompt against `promptLimit`. */
  readonly prompt: SectionUsage;
  /** The answer's room: at least `reserve`, more when the prompt is shorter. */
  readonly answer: SectionUsage;
}

export function sectionReport(
  budget: Budget,
  maxExtrasTokens: number,
  parts: { system: number; history: number; extras: number; input: number },
): SectionReport {
  const prompt = parts.system + parts.history + parts.input + budget.generationPrompt;
  return {
    system: { tokens: parts.system, limit: budget.promptLimit - budget.generationPrompt },
    history: {
      tokens: parts.history,
      limit: Math.max(0, budget.promptLimit - parts.system - parts.input - budget.generationPrompt),
    },
    extras: { tokens: parts.extras, limit: maxExtrasTokens },
    input: { tokens: parts.input, limit: inputRoom(budget, parts.system) },
    template: { tokens: budget.generationPrompt, limit: budget.generationPrompt },
    prompt: { tokens: prompt, limit: budget.promptLimit },
    answer: { tokens: budget.total - prompt, limit: budget.total },
  };
}
