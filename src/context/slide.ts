/**
 * Compaction by sliding (config `compaction: 'slide'`, the layered memory's choice): instead of re-selecting
 * turns from the plain history, keep what was sent, verbatim and in order, and drop exchanges. An engine with
 * KV chunk reuse (wllama's `n_cache_reuse`) then shifts the kept messages instead of prefilling them again,
 * memory blocks included, so a compaction costs little more than an append. Messages are kept or dropped
 * whole, never edited: llama.cpp reuses a chunk only if the prompt is the cache with pieces taken out (in runs
 * of ≥ 32 tokens); anything new before the end stops the reuse of all that follows.
 * Order of sacrifice, never the newest exchange first: oldest first, exchanges whose loss the new message's
 * memory block hardly has to make up for (it carries again at most a quarter of what they free), down to the
 * low-water mark; then, only while over the prompt limit, the others, those that free the most net of what the
 * new block must carry again first; last, the newest exchange's memory block, then the exchange itself.
 */
import type { ChatMessage } from '../shared/chat.ts';
import type { Budget } from './budget.ts';
import type { InputMessage } from './input.ts';
import type { TurnReport } from './report.ts';
import type { TokenCounter } from './tokens.ts';

/** The prompt being built: system first; the new user message is added by the caller. */
export interface Draft {
  readonly messages: ChatMessage[];
  readonly tokens: number[];
  readonly sentFrom: number[];
  readonly sourceContent: string[];
  /** Indexed by history index. */
  readonly turns: TurnReport[];
  readonly warnings: string[];
}

export interface SlideResult {
  readonly draft: Draft;
  readonly input: InputMessage;
}

/**
 * llama.cpp reuses a chunk of the old cache only when at least `n_cache_reuse` tokens match (the app sets 32),
 * and it looks for the next chunk only after that; a margin covers tokens that merge across a cut.
 */
const MIN_REUSED_RUN = 48;

/** Share of an exchange's tokens the new block may have to carry again for the exchange to go in step 1. */
const KEEP_SHARE = 0.25;

/** Kept stretches (consecutive in the old prompt) that are too short to reuse and not the last one, oldest first. */
function shortRuns(kept: readonly number[], tokens: readonly number[]): number[][] {
  const runs: number[][] = [];
  for (const j of kept) {
    const run = runs.at(-1);
    if (run !== undefined && run.at(-1) === j - 1) run.push(j);
    else runs.push([j]);
  }
  const size = (run: readonly number[]): number => run.reduce((n, j) => n + tokens[j]!, 0);
  return runs.slice(0, -1).filter((run) => run[0] !== 0 && size(run) < MIN_REUSED_RUN);
}

/** Exchanges of the draft after the system message: a user message with the replies that follow it. */
function exchanges(messages: readonly ChatMessage[]): number[][] {
  const units: number[][] = [];
  for (let j = 1; j < messages.length; j++) {
    if (messages[j]!.role === 'user' || units.length === 0) units.push([j]);
    else units[units.length - 1]!.push(j);
  }
  return units;
}

/**
 * Slides `draft` (the previous prompt with the turns added since) until it and the new message fit under the
 * low-water mark, or at least under the prompt limit. `inputFor` builds the new message for the messages it
 * will follow (its memory block may leave out what they already hold).
 */
export function slideDraft(
  draft: Draft,
  inputFor: (held: readonly ChatMessage[]) => InputMessage,
  budget: Budget,
  counter: TokenCounter,
): SlideResult {
  const units = exchanges(draft.messages);
  const messages = [...draft.messages];
  const tokens = [...draft.tokens];
  const dropped = new Set<number>();
  const stripped = new Set<number>();
  const kept = (without: readonly number[] = []): number[] =>
    messages.map((_, j) => j).filter((j) => !dropped.has(j) && !without.includes(j));
  const held = (without: readonly number[] = []): ChatMessage[] => kept(without).map((j) => messages[j]!);
  const inputWithout = (without: readonly number[] = []): InputMessage => inputFor(held(without));
  let input = inputWithout();
  /** The prompt's tokens, or what they would be without some messages and with the new message rebuilt for that. */
  const total = (without: readonly number[] = [], next = input): number =>
    kept(without).reduce((n, j) => n + tokens[j]!, 0) + next.tokens + budget.generationPrompt;
  /** Drops messages; `rebuilt` is the new message for what is left, when already built. */
  const drop = (unit: readonly number[], rebuilt = inputWithout(unit)): void => {
    for (const j of unit) dropped.add(j);
    input = rebuilt;
  };
  const older = units.slice(0, -1);
  // 1. Exchanges the new block hardly needs: it grows by at most a quarter of what they free.
  for (const unit of older) {
    if (total() <= budget.lowWater) break;
    const size = unit.reduce((n, j) => n + tokens[j]!, 0);
    const without = inputWithout(unit);
    if (without.tokens - input.tokens <= size * KEEP_SHARE) drop(unit, without);
  }
  // 2. Over the limit still: older exchanges that free the most net of the memory the new block must then
  //    carry again (mostly stale blocks go before ones the new turn still reads).
  while (total() > budget.promptLimit) {
    let best: readonly number[] | null = null;
    let bestInput = input;
    let bestGain = -Infinity;
    for (const unit of older) {
      if (dropped.has(unit[0]!)) continue;
      const without = inputWithout(unit);
      const gain = unit.reduce((n, j) => n + tokens[j]!, 0) - (without.tokens - input.tokens);
      if (gain > bestGain) [best, bestInput, bestGain] = [unit, without, gain];
    }
    if (best === null) break;
    drop(best, bestInput);
  }
  // 3. Last resort: the newest exchange's memory block (a message sent with one ends with its own text), then it.
  const newest = units.at(-1) ?? [];
  for (const j of newest) {
    const m = messages[j]!;
    if (total() <= budget.promptLimit) break;
    if (m.role !== 'user' || m.content === draft.sourceContent[j] || !m.content.endsWith(draft.sourceContent[j]!)) continue;
    messages[j] = { role: 'user', content: draft.sourceContent[j]! };
    tokens[j] = counter.messageTokens(messages[j]!);
    stripped.add(j);
    input = inputWithout();
  }
  if (total() > budget.promptLimit && newest.length > 0) drop(newest);
  // 4. A kept stretch too short to be reused, with kept messages after it, would stop the reuse of all of those:
  //    it goes, unless the new block, no longer finding the memory it holds, would grow back over the limit.
  //    (Dropping whole stretches splits none of the others, so the short ones are known from the start.)
  for (const run of shortRuns(kept(), tokens)) {
    const without = inputWithout(run);
    if (total(run, without) <= budget.promptLimit) drop(run, without);
  }

  const out: Draft = { messages: [], tokens: [], sentFrom: [], sourceContent: [], turns: [...draft.turns], warnings: [...draft.warnings] };
  for (const j of kept()) {
    out.messages.push(messages[j]!);
    out.tokens.push(tokens[j]!);
    out.sentFrom.push(draft.sentFrom[j]!);
    out.sourceContent.push(draft.sourceContent[j]!);
    const at = draft.sentFrom[j]!;
    if (stripped.has(j) && out.turns[at] !== undefined) {
      out.turns[at] = { ...out.turns[at]!, tokens: tokens[j]!, detail: 'kept without the memory block it was sent with' };
    }
  }
  for (const j of dropped) {
    const at = draft.sentFrom[j]!;
    const before = out.turns[at];
    if (before === undefined) continue;
    out.turns[at] = {
      index: at,
      role: before.role,
      included: false,
      reason: 'over-budget',
      detail: 'sent earlier; slid out (oldest first) when the prompt compacted',
      tokens: draft.tokens[j]!,
    };
  }
  const exchangesOut = units.filter((u) => dropped.has(u[0]!)).length;
  const notes = [`slid out ${exchangesOut} exchange(s)`];
  if (stripped.size > 0) notes.push('the newest exchange without its memory block');
  out.warnings.push(notes.join(', '));
  return { draft: out, input };
}
