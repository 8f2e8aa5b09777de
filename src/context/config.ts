/**
 * Everything the context engine decides by: budgets, thresholds, word lists, markers.
 * No logic here beyond validation; change behaviour by changing data.
 */
import { AssistantError } from '../shared/errors.ts';

/** Words per language. Chinese words match as substrings; English ones as whole words, case-insensitive. */
export interface WordLists {
  readonly zh: readonly string[];
  readonly en: readonly string[];
}

export interface ContextConfig {
  /** The system message, sent first and verbatim on every request. */
  readonly systemPrompt: string;
  /** Tokens of the model's window used per request: prompt + answer. */
  readonly budgetTokens: number;
  /** Tokens kept free for the answer; the prompt never exceeds `budgetTokens - reserveTokens`. */
  readonly reserveTokens: number;
  /**
   * After a compaction the prompt fills at most this fraction of the prompt room (`budget - reserve`),
   * so the next turns can be appended (and hit the KV cache) before the next compaction.
   */
  readonly lowWaterRatio: number;
  /** How many of the most recent exchanges (a user turn and its answer) are kept. */
  readonly recentExchanges: number;
  /**
   * true: the prompt only grows at its end between compactions (KV-cache reuse).
   * false: every request is re-selected from scratch (seed-000 behaviour, no reuse guarantee).
   */
  readonly cacheAware: boolean;
  /** An assistant turn containing one of these holds code and is a key turn. */
  readonly codeMarkers: readonly string[];
  /** A user turn containing one of these refers back to an earlier turn. */
  readonly backReferences: WordLists;
  /** Back-references that mean code: they point to the latest code answer rather than the previous answer. */
  readonly codeReferences: WordLists;
  /** Substrings that contain a back-reference word without being one (因此 contains 此). Removed before matching. */
  readonly backReferenceExclusions: readonly string[];
  /** Words in the current input that ask about the original request, which keeps requests superseded by code. */
  readonly originReferences: WordLists;
  /** How the last user message carries what changes every turn: `{extras}` and `{input}` are replaced. */
  readonly extrasTemplate: string;
  /**
   * How an over-budget prompt compacts: 'reselect' picks turns afresh from the plain history (seed 000);
   * 'slide' keeps what was sent verbatim (memory blocks included) and drops the oldest messages, which an
   * engine with KV chunk reuse shifts instead of prefilling again (see slide.ts).
   */
  readonly compaction: 'reselect' | 'slide';
  /** Cap on the tokens of the extras (retrieved / working memory) inside the last user message. */
  readonly maxExtrasTokens: number;
  /** Appended to a message that was cut to fit. */
  readonly truncationMarker: string;
  /** Characters that end a sentence; a cut prefers to stop right after one. `.` counts only before whitespace. */
  readonly sentenceEnds: readonly string[];
  /** A cut looks for a sentence end within this last fraction of the kept text before cutting mid-sentence. */
  readonly sentenceSearchRatio: number;
  /** A message is cut only if at least this many tokens of it can be kept; otherwise it is left out. */
  readonly minCutTokens: number;
}

export const DEFAULT_CONTEXT_CONFIG: ContextConfig = Object.freeze({
  systemPrompt: 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.',
  budgetTokens: 1024,
  reserveTokens: 400,
  lowWaterRatio: 0.65,
  recentExchanges: 3,
  cacheAware: true,
  codeMarkers: Object.freeze(['```', '~~~']),
  backReferences: Object.freeze({
    zh: Object.freeze([
      '上面', '刚才', '刚刚', '之前', '那个', '此', '前面',
      '上一个', '上一段', '这段', '上述', '你说的', '前述',
    ]),
    en: Object.freeze([
      'above', 'earlier', 'previous', 'previously', 'before', 'that function', 'the function', 'the code',
      'this code', 'that code', 'it', 'you said', 'you wrote', 'your answer', 'last answer', 'that one',
    ]),
  }),
  codeReferences: Object.freeze({
    zh: Object.freeze(['代码', '函数', '这段', '脚本', '程序']),
    en: Object.freeze(['code', 'function', 'script', 'snippet', 'program']),
  }),
  backReferenceExclusions: Object.freeze(['因此', '此外', '如此', '彼此', '从此', '此时', '在此之前']),
  originReferences: Object.freeze({
    zh: Object.freeze(['最初', '一开始', '原来的需求', '原始需求', '最开始', '第一个问题']),
    en: Object.freeze(['originally', 'at first', 'original request', 'first question', 'at the start']),
  }),
  extrasTemplate: '{extras}\n\n{input}',
  compaction: 'reselect',
  maxExtrasTokens: 200,
  truncationMarker: '\n…[truncated]',
  sentenceEnds: Object.freeze(['。', '！', '？', '；', '…', '!', '?', '.', '\n']),
  sentenceSearchRatio: 0.3,
  minCutTokens: 16,
});

/** Merges overrides onto the defaults and checks the result; throws `invalid_config`. */
export function resolveConfig(overrides: Partial<ContextConfig> = {}): ContextConfig {
  const config: ContextConfig = { ...DEFAULT_CONTEXT_CONFIG, ...overrides };
  validateConfig(config);
  return config;
}

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);

export function validateConfig(config: ContextConfig): void {
  const fail = (what: string): never => {
    throw new AssistantError('invalid_config', `Context config: ${what}.`);
  };
  if (typeof config.systemPrompt !== 'string') fail('systemPrompt must be a string');
  if (!isInt(config.budgetTokens) || config.budgetTokens < 64) fail('budgetTokens must be an integer ≥ 64');
  if (!isInt(config.reserveTokens) || config.reserveTokens < 0) fail('reserveTokens must be an integer ≥ 0');
  if (config.budgetTokens - config.reserveTokens < 32) fail('budgetTokens - reserveTokens must leave ≥ 32 tokens');
  if (!(config.lowWaterRatio > 0 && config.lowWaterRatio <= 1)) fail('lowWaterRatio must be in (0, 1]');
  if (!isInt(config.recentExchanges) || config.recentExchanges < 0) fail('recentExchanges must be an integer ≥ 0');
  if (!isInt(config.maxExtrasTokens) || config.maxExtrasTokens < 0) fail('maxExtrasTokens must be an integer ≥ 0');
  if (!isInt(config.minCutTokens) || config.minCutTokens < 1) fail('minCutTokens must be an integer ≥ 1');
  if (!(config.sentenceSearchRatio >= 0 && config.sentenceSearchRatio <= 1)) fail('sentenceSearchRatio must be in [0, 1]');
  if (!config.extrasTemplate.includes('{input}')) fail('extrasTemplate must contain {input}');
  if (config.compaction !== 'reselect' && config.compaction !== 'slide') fail("compaction must be 'reselect' or 'slide'");
  if (config.codeMarkers.some((m) => m.length === 0)) fail('codeMarkers must not be empty strings');
  for (const lists of [config.backReferences, config.codeReferences, config.originReferences]) {
    if ([...lists.zh, ...lists.en].some((w) => w.trim().length === 0)) fail('word lists must not hold empty words');
  }
}

/**
 * A string that changes whenever a setting that shapes the prompt changes; stored in the state so that a
 * changed config forces one compaction instead of mixing two shapes.
 */
export function configKey(config: ContextConfig): string {
  return JSON.stringify([
    config.systemPrompt,
    config.budgetTokens,
    config.reserveTokens,
    config.extrasTemplate,
    config.truncationMarker,
    config.cacheAware,
    config.compaction,
  ]);
}
