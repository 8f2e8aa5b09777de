/**
 * Cache-aware assembly. Between compactions a request's prompt is the previous prompt + the previous reply + the
 * new user message, byte for byte, so web-llm (same earlier messages) and wllama (common token prefix) reuse
 * their KV cache. When appending would exceed `budget - reserve`, the turns are selected afresh (seed 000) down
 * to the low-water mark, so compactions stay rare (or, with `compaction: 'slide'`, the oldest sent messages are
 * dropped and the rest kept verbatim; see slide.ts). What changes every turn (memory) rides in the newest user
 * message and is kept verbatim afterwards; given as a function, it is built for the messages it will follow, so
 * it can leave out what they already hold.
 */
import type { ChatMessage } from '../shared/chat.ts';
import { AssistantError } from '../shared/errors.ts';
import { computeBudget, historyRoom, inputRoom, sectionReport, type Budget } from './budget.ts';
import { appendedPrefixTokens } from './chatml.ts';
import { configKey, validateConfig, type ContextConfig } from './config.ts';
import { buildInputMessage, type InputMessage } from './input.ts';
import type { CompactionCause, ContextReport, PrefixReport, TurnReport } from './report.ts';
import { isBlank, sanitizeText } from '../shared/sanitize.ts';
import { exclusionReason, selectTurns } from './select.ts';
import type { TokenCounter } from './tokens.ts';
import { slideDraft, type Draft } from './slide.ts';
import { fillUnits } from './truncate.ts';

/** Builds the memory block for the messages the new user message will follow (`held`, system first). */
export type ExtrasFor = (held: readonly ChatMessage[]) => string;

export interface AssembleRequest {
  /** Every earlier turn, oldest first, without the input; it ends with the reply to the previous request. */
  readonly history: readonly ChatMessage[];
  /** What the user just sent. */
  readonly input: string;
  /** What changes every turn (retrieved / working memory); placed in the newest user message only. */
  readonly extras?: string | ExtrasFor;
}

/** Plain data (structured-clone and JSON safe): keep it between requests of one conversation. */
export interface ContextState {
  readonly version: 1;
  readonly configKey: string;
  /** Requests assembled so far, and how many of them compacted. */
  readonly requests: number;
  readonly compactions: number;
  /** The messages sent last time, verbatim: the system message first, the request's user message last. */
  readonly sent: readonly ChatMessage[];
  readonly sentTokens: readonly number[];
  /** History index each sent message came from: -1 for the system message; the last is where the input lands. */
  readonly sentFrom: readonly number[];
  /** The sanitized history text each sent message came from (differs from `sent` when cut or carrying extras). */
  readonly sourceContent: readonly string[];
  /** History length at the last request: next time the input sent then is expected at this index. */
  readonly historyLength: number;
  /** The last report's turn decisions, history turns then the input. */
  readonly turns: readonly TurnReport[];
}

export interface AssembleResult {
  /** What to send: system first, the new user message last. Earlier messages are exactly the previous ones when appending. */
  readonly messages: ChatMessage[];
  readonly report: ContextReport;
  readonly nextState: ContextState;
}

function checkRequest(request: AssembleRequest): void {
  const bad = (what: string): never => {
    throw new AssistantError('invalid_input', what);
  };
  if (typeof request !== 'object' || request === null) bad('The request is missing.');
  if (typeof request.input !== 'string') bad('The message must be text.');
  if (request.extras !== undefined && typeof request.extras !== 'string' && typeof request.extras !== 'function') {
    bad('The memory context must be text.');
  }
  if (!Array.isArray(request.history)) bad('The history must be a list of messages.');
  request.history.forEach((m: unknown, i) => {
    const message = m as Partial<ChatMessage> | null;
    if (typeof message !== 'object' || message === null) bad(`History turn ${i} is not a message.`);
    else if (message.role !== 'user' && message.role !== 'assistant' && message.role !== 'system') {
      bad(`History turn ${i} has an unknown role.`);
    } else if (typeof message.content !== 'string') bad(`History turn ${i} has no text.`);
  });
  if (isBlank(request.input)) bad('The message is empty.');
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);
const sameMessage = (a: ChatMessage | undefined, b: ChatMessage | undefined): boolean =>
  a !== undefined && b !== undefined && a.role === b.role && a.content === b.content;

/** Whether `history` continues what `state` sent; the indices of the turns added since, or why not. */
function continuation(state: ContextState, history: readonly ChatMessage[]): number[] | null {
  const inputAt = state.historyLength;
  const last = state.sent.length - 1;
  const previousInput = history[inputAt];
  if (previousInput === undefined || previousInput.role !== 'user') return null;
  if (sanitizeText(previousInput.content) !== state.sourceContent[last]) return null;
  for (let j = 1; j < last; j++) {
    const turn = history[state.sentFrom[j]!];
    if (turn === undefined || turn.role !== state.sent[j]!.role) return null;
    if (sanitizeText(turn.content) !== state.sourceContent[j]) return null;
  }
  const added: number[] = [];
  for (let i = inputAt + 1; i < history.length; i++) added.push(i);
  return added;
}

/**
 * The messages the next request starts with when it appends to the previous one (`state`): what was sent, verbatim,
 * then the turns written since (the reply). Null when the next request cannot append (another config, a history
 * that changed). An engine can prefill them before the message exists (the KV cache warm while the user types); a
 * request that then slides drops some of them, and keeps the rest.
 */
export function appendedPrefix(state: ContextState, history: readonly ChatMessage[], config: ContextConfig): ChatMessage[] | null {
  if (!config.cacheAware || state.configKey !== configKey(config)) return null;
  const added = continuation(state, history);
  if (added === null) return null;
  const since = added.map((i) => history[i]!).filter((turn) => turn.role !== 'system');
  return [...state.sent, ...since.map((turn) => ({ role: turn.role, content: sanitizeText(turn.content) }))];
}

/** Leading messages shared with the previous request, and the tokens that makes in common. */
function prefixReport(
  state: ContextState | null,
  messages: readonly ChatMessage[],
  tokens: readonly number[],
  promptTokens: number,
): PrefixReport {
  if (state === null) return { messages: 0, appendOnly: false, tokens: 0, replyTokens: 0, newTokens: promptTokens };
  let k = 0;
  while (k < state.sent.length && sameMessage(state.sent[k], messages[k])) k++;
  const shared = sum(tokens.slice(0, k));
  const next = messages[k];
  let common = shared;
  let replyTokens = 0;
  if (k === state.sent.length && next !== undefined) {
    // The previous prompt ended with `<|im_start|>assistant\n`.
    if (next.role === 'assistant') {
      common = appendedPrefixTokens(shared, next.content);
      replyTokens = Math.max(0, tokens[k]! - (common - shared) - 1);
    } else {
      common = shared + 1;
    }
  } else if (next !== undefined) {
    common = shared + 1 + (state.sent[k]?.role === next.role ? 1 : 0);
  }
  return { messages: k, appendOnly: k === state.sent.length, tokens: common, replyTokens, newTokens: promptTokens - common };
}

function inputTurn(index: number, input: InputMessage): TurnReport {
  const base = { index, role: 'user' as const, included: true, reason: 'current-input' as const, tokens: input.tokens };
  return input.cut === null
    ? { ...base, detail: 'the message being answered' }
    : { ...base, detail: 'the message being answered, cut to fit', cut: input.cut };
}

function appendDraft(
  state: ContextState,
  history: readonly ChatMessage[],
  added: readonly number[],
  counter: TokenCounter,
): Draft {
  const draft: Draft = {
    messages: [...state.sent],
    tokens: [...state.sentTokens],
    sentFrom: [...state.sentFrom],
    sourceContent: [...state.sourceContent],
    turns: state.turns.slice(0, state.historyLength),
    warnings: [],
  };
  const previousInput = state.turns[state.historyLength];
  draft.turns.push({
    index: state.historyLength,
    role: 'user',
    included: true,
    reason: 'appended',
    detail: `sent at request ${state.requests}, kept verbatim`,
    tokens: state.sentTokens[state.sentTokens.length - 1]!,
    ...(previousInput?.cut ? { cut: previousInput.cut } : {}),
  });
  for (const i of added) {
    const turn = history[i]!;
    // An empty reply (aborted before any token) is still appended: the previous prompt ended with
    // `<|im_start|>assistant\n`, so sending it keeps the new prompt a string extension of the previous one.
    if (turn.role === 'system') {
      draft.turns.push({ index: i, role: turn.role, included: false, reason: 'system-in-history', detail: 'not sent' });
      continue;
    }
    const message: ChatMessage = { role: turn.role, content: sanitizeText(turn.content) };
    const tokens = counter.messageTokens(message);
    draft.messages.push(message);
    draft.tokens.push(tokens);
    draft.sentFrom.push(i);
    draft.sourceContent.push(message.content);
    const detail = 'new since the last request';
    draft.turns.push({ index: i, role: turn.role, included: true, reason: 'appended', detail, tokens });
  }
  return draft;
}

function compactDraft(
  history: readonly ChatMessage[],
  input: InputMessage,
  system: ChatMessage,
  systemTokens: number,
  budget: Budget,
  config: ContextConfig,
  counter: TokenCounter,
): Draft {
  const clean = new Map<number, ChatMessage>();
  const messageAt = (i: number): ChatMessage => {
    let m = clean.get(i);
    if (m === undefined) {
      m = { role: history[i]!.role, content: sanitizeText(history[i]!.content) };
      clean.set(i, m);
    }
    return m;
  };
  const selection = selectTurns(history, input.source, config);
  const room = historyRoom(budget, systemTokens + input.tokens + budget.generationPrompt, config.cacheAware);
  const fill = fillUnits(selection.units, messageAt, room, counter, config);
  const draft: Draft = {
    messages: [system],
    tokens: [systemTokens],
    sentFrom: [-1],
    sourceContent: [system.content],
    turns: [],
    warnings: [],
  };
  for (let i = 0; i < history.length; i++) {
    const pick = fill.included.get(i);
    const role = history[i]!.role;
    if (pick === undefined) {
      const short = fill.shortfalls.get(i);
      const why = short ?? exclusionReason(i, history, selection, (j) => fill.included.has(j));
      const tokens = short?.tokens !== undefined ? { tokens: short.tokens } : {};
      draft.turns.push({ index: i, role, included: false, reason: why.reason, detail: why.detail, ...tokens });
      continue;
    }
    const cut = fill.cuts.get(i);
    const message = cut?.message ?? messageAt(i);
    const tokens = cut?.keptTokens ?? counter.messageTokens(message);
    draft.messages.push(message);
    draft.tokens.push(tokens);
    draft.sentFrom.push(i);
    draft.sourceContent.push(messageAt(i).content);
    const base = { index: i, role, included: true, reason: pick.reason, detail: pick.detail ?? '', tokens };
    if (cut === undefined) draft.turns.push(base);
    else {
      draft.turns.push({ ...base, cut: { originalTokens: cut.originalTokens, keptTokens: cut.keptTokens } });
      const sizes = `${cut.originalTokens} to ${cut.keptTokens} tokens`;
      draft.warnings.push(`turn #${i} alone exceeds the history room: cut from ${sizes}`);
    }
  }
  return draft;
}

/** Configs already checked (configs are treated as immutable). */
const validated = new WeakSet<ContextConfig>();

/**
 * Assembles the messages for one request. `state` is the previous request's `nextState` (null to start);
 * `counter` caches counts by content, so a long history costs map look-ups, not tokenization.
 * Throws `invalid_input` for an empty or malformed request, `invalid_config` for a bad config.
 */
export function assemble(
  state: ContextState | null,
  request: AssembleRequest,
  config: ContextConfig,
  counter: TokenCounter,
): AssembleResult {
  checkRequest(request);
  if (!validated.has(config)) {
    validateConfig(config);
    validated.add(config);
  }
  const { history } = request;
  const budget = computeBudget(config);
  const system: ChatMessage = { role: 'system', content: sanitizeText(config.systemPrompt) };
  const systemTokens = counter.messageTokens(system);
  const room = inputRoom(budget, systemTokens);
  const minimum = counter.messageTokens({ role: 'user', content: config.truncationMarker }) + config.minCutTokens;
  if (room < minimum) {
    throw new AssistantError('invalid_config', `The system prompt (${systemTokens} tokens) leaves no room for a message.`);
  }
  const extras = request.extras;
  // Extras given as text (or none) give the same message whatever it follows: it is built once.
  let fixed: InputMessage | undefined;
  const inputFor = (held: readonly ChatMessage[]): InputMessage =>
    typeof extras === 'function'
      ? buildInputMessage(request.input, extras(held), room, counter, config)
      : (fixed ??= buildInputMessage(request.input, extras, room, counter, config));
  const key = configKey(config);

  let cause: CompactionCause | null = null;
  let draft: Draft | null = null;
  let input: InputMessage | null = null;
  if (state === null) cause = 'first-request';
  else if (!config.cacheAware) cause = 'cache-off';
  else if (state.configKey !== key) cause = 'config-changed';
  else {
    const added = continuation(state, history);
    if (added === null) cause = 'history-changed';
    else {
      draft = appendDraft(state, history, added, counter);
      input = inputFor(draft.messages);
      if (sum(draft.tokens) + input.tokens + budget.generationPrompt > budget.promptLimit) {
        cause = 'over-budget';
        if (config.compaction === 'slide') ({ draft, input } = slideDraft(draft, inputFor, budget, counter));
        else draft = null;
      }
    }
  }
  if (draft === null || input === null) {
    // The block is sized with nothing held, then rebuilt for the turns chosen (it can only shrink).
    const selected = compactDraft(history, inputFor([system]), system, systemTokens, budget, config, counter);
    draft = selected;
    input = inputFor(selected.messages);
  }

  draft.messages.push(input.message);
  draft.tokens.push(input.tokens);
  draft.sentFrom.push(history.length);
  draft.sourceContent.push(input.source);
  draft.turns.push(inputTurn(history.length, input));
  const warnings = [...input.warnings, ...draft.warnings];
  if (cause !== null && cause !== 'first-request' && cause !== 'cache-off') warnings.push(`compacted: ${cause}`);

  const promptTokens = sum(draft.tokens) + budget.generationPrompt;
  if (promptTokens > budget.promptLimit) {
    // Unreachable by construction; kept as a guard so a bug shows as an error, not as an overflowing prompt.
    throw new AssistantError('context_overflow', `Assembled ${promptTokens} tokens over the limit of ${budget.promptLimit}.`);
  }
  const requests = (state?.requests ?? 0) + 1;
  const report: ContextReport = {
    request: requests,
    mode: cause === null ? 'append' : 'compact',
    compaction: cause,
    budget,
    sections: sectionReport(budget, config.maxExtrasTokens, {
      system: systemTokens,
      history: sum(draft.tokens) - systemTokens - input.tokens,
      extras: input.extrasTokens,
      input: input.tokens,
    }),
    promptTokens,
    turns: draft.turns,
    prefix: prefixReport(state, draft.messages, draft.tokens, promptTokens),
    extras: input.extrasStatus,
    warnings,
  };
  const nextState: ContextState = {
    version: 1,
    configKey: key,
    requests,
    compactions: (state?.compactions ?? 0) + (cause === null ? 0 : 1),
    sent: draft.messages,
    sentTokens: draft.tokens,
    sentFrom: draft.sentFrom,
    sourceContent: draft.sourceContent,
    historyLength: history.length,
    turns: draft.turns,
  };
  return { messages: [...draft.messages], report, nextState };
}
