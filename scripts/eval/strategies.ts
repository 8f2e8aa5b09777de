/**
 * The three ways the eval builds a prompt for a question, all with the app's own code (src/):
 * - `full`: the layered pipeline (the product). Every session is replayed as a chat session of the same user,
 *   in order, with its date: the first speaker's turns go through `handleUserMessage` (write, working memory,
 *   retrieval, assembly — exactly what the app does per message), the second speaker's are recorded as replies.
 *   Each question is then a probe in the last session: the same pipeline, nothing written.
 * - `recent`: the context engine alone over the whole conversation as one history, newest turns first.
 * - `seed000`: the context engine's seed-000 selection (recent exchanges + key turns) over the same history.
 * Each returns, per question, the rendered prompt and its exact token count.
 */
import { assemble } from '../../src/context/assemble.ts';
import { renderChatML } from '../../src/context/chatml.ts';
import { resolveConfig, type ContextConfig } from '../../src/context/config.ts';
import type { TokenCounter } from '../../src/context/tokens.ts';
import type { ChatMessage } from '../../src/engine/protocol.ts';
import { sectionBudgets, type SectionBudgets } from '../../src/memory/layered/budgets.ts';
import { BASE_SYSTEM_PROMPT } from '../../src/memory/layered/labels.ts';
import { LayeredMemory, type LayeredMemoryOptions, type TurnResult } from '../../src/memory/layered/pipeline.ts';
import { InMemoryChunkStore } from '../../src/memory/retrieval/records.ts';
import type { LocomoConversation, LocomoQuestion } from './locomo-data.ts';

export type Strategy = 'full' | 'recent' | 'seed000';

export interface PromptResult {
  readonly question: LocomoQuestion;
  readonly prompt: string;
  readonly promptTokens: number;
  /** The pipeline's result (full only), for reports. */
  readonly turn?: TurnResult;
  /** Records and doc chunks in the retrieved block (one per turn or chunk, whole or in part). */
  readonly blockLines?: number;
}

/** How a replay differs from the default (every speaker named, the window's own section budgets). */
export interface ReplayOptions {
  /** Turns stored with roles only (user / assistant), as the app stores them: no speaker names. */
  readonly rolesOnly?: boolean;
  /** The retrieval section's tokens, kept strictly; the input section gets the rest of the two. */
  readonly retrievalBudget?: number;
}

/** The window's budgets with the retrieval section set to `retrieval` tokens and the input section resized to match. */
export function budgetsWithRetrieval(window: number, retrieval: number): SectionBudgets {
  const base = sectionBudgets(window);
  const shared = base.retrieval + base.input;
  if (!Number.isInteger(retrieval) || retrieval < 0 || retrieval > shared) {
    throw new Error(`--retrieval-budget must be a whole number from 0 to ${shared} at a ${window}-token window`);
  }
  return { ...base, retrieval, input: shared - retrieval };
}

const MINUTE = 60_000;

/** Turn time: the session's date, one minute per turn, so turns keep their order and their day. */
const turnTime = (sessionTime: number, i: number): number => sessionTime + i * MINUTE;

/** Pipeline settings a run may override (`--options '{"pack":{"wholeTop":0}}'`), for measuring alternatives. */
export type PipelineOverrides = Pick<LayeredMemoryOptions, 'rerank' | 'pack' | 'query' | 'gate' | 'budgets'>;

export async function runFull(
  conv: LocomoConversation,
  window: number,
  counter: TokenCounter,
  overrides: PipelineOverrides = {},
  replay: ReplayOptions = {},
): Promise<PromptResult[]> {
  // A section size measured is a size kept: the block does not borrow the input section's spare room.
  const budgets = replay.retrievalBudget === undefined ? {} : { budgets: budgetsWithRetrieval(window, replay.retrievalBudget), borrowSpareInput: false };
  const memory = new LayeredMemory({ ...budgets, ...overrides, store: new InMemoryChunkStore(), counter, window });
  const userId = conv.id;
  let last = { sessionId: '', time: 0 };
  for (const session of conv.sessions) {
    const sessionId = `${conv.id}/S${session.index}`;
    for (let i = 0; i < session.turns.length; i++) {
      const t = session.turns[i]!;
      const input = { userId, sessionId, text: t.text, time: turnTime(session.time, i), ...(replay.rolesOnly === true ? {} : { speaker: t.speaker }), id: `${conv.id}/${t.diaId}` };
      if (t.text.trim() === '') continue; // nothing to say, nothing to store
      if (t.speaker === conv.speakerA) await memory.handleUserMessage(input);
      else await memory.recordReply(input);
    }
    last = { sessionId, time: turnTime(session.time, session.turns.length) };
  }
  const out: PromptResult[] = [];
  for (const question of conv.questions) {
    const turn = await memory.handleUserMessage({ userId, sessionId: last.sessionId, text: question.question, time: last.time }, { commit: false });
    out.push({ question, prompt: renderChatML(turn.messages), promptTokens: turn.report.promptTokens, turn, blockLines: turn.report.memory.retrieval.injected.length });
  }
  return out;
}

function baselineConfig(strategy: 'recent' | 'seed000', window: number): ContextConfig {
  const budgets = sectionBudgets(window);
  const common = { systemPrompt: BASE_SYSTEM_PROMPT.en, budgetTokens: window, reserveTokens: budgets.reserve, cacheAware: false };
  if (strategy === 'seed000') return resolveConfig(common);
  const none = { zh: [], en: [] };
  return resolveConfig({ ...common, recentExchanges: 1_000_000, codeMarkers: [], backReferences: none, codeReferences: none, originReferences: none });
}

export function runBaseline(conv: LocomoConversation, strategy: 'recent' | 'seed000', window: number, counter: TokenCounter): PromptResult[] {
  const config = baselineConfig(strategy, window);
  const history: ChatMessage[] = conv.sessions.flatMap((s) =>
    s.turns.map((t): ChatMessage => ({ role: t.speaker === conv.speakerA ? 'user' : 'assistant', content: t.text })),
  );
  return conv.questions.map((question) => {
    const result = assemble(null, { history, input: question.question }, config, counter);
    return { question, prompt: renderChatML(result.messages), promptTokens: result.report.promptTokens };
  });
}
