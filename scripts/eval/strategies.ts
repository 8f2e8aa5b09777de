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
import type { EngineVectors } from '../../src/memory/embedders/engine-vectors.ts';
import { sectionBudgets, type SectionBudgets } from '../../src/memory/layered/budgets.ts';
import { BASE_SYSTEM_PROMPT } from '../../src/memory/layered/labels.ts';
import { LayeredMemory, type LayeredMemoryOptions, type TurnResult } from '../../src/memory/layered/pipeline.ts';
import { InMemoryChunkStore } from '../../src/memory/retrieval/records.ts';
import { RetrievalIndex } from '../../src/memory/retrieval/retrieval-index.ts';
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
  /** The vector search on an embedding model's vectors (`--embedder engine`) instead of the built-in hashed ones. */
  readonly engine?: EngineSearch;
  /**
   * Each question opens a new session a day after the last one, as a user who comes back to ask (MemoryBank's
   * probing questions), instead of closing the last session (LoCoMo's).
   */
  readonly askInNewSession?: boolean;
}

/**
 * Engine vectors for the pipeline's vector search, as the app uses them (src/ui/controllers/memory-planner.ts): the
 * retrieval index searches `vectors`, and the pipeline embeds each query just before its search (`prepareQuery`).
 * Before a conversation is replayed every text it will store is embedded as a document, `batch` texts per engine
 * request: `EngineVectors` answers from its cache, and a turn without a vector there would be searched by keywords
 * only. (In the app, a turn's vector arrives in the background after it is stored, ready for the next message.)
 */
export interface EngineSearch {
  readonly vectors: EngineVectors;
  readonly batch: number;
  /** Once the conversation is replayed: the texts it embedded and the time that took, and its stored turns with a vector. */
  readonly onReplayed?: (info: EngineReplayInfo) => void;
}

export interface EngineReplayInfo {
  /** Texts embedded as documents for this conversation (texts already in the cache are not embedded again). */
  readonly embedded: number;
  readonly embedMs: number;
  /** Turns the memory stores, and those of them in the vector search. */
  readonly storedTurns: number;
  readonly withVector: number;
}

/** Every text `runFull` stores for `conv`, embedded as a document into `engine.vectors` (unless cached already). */
export async function embedStoredTurns(conv: LocomoConversation, engine: EngineSearch): Promise<{ embedded: number; embedMs: number }> {
  const texts = [...new Set(conv.sessions.flatMap((s) => s.turns.map((t) => t.text)).filter((text) => text.trim() !== ''))].filter((text) => !engine.vectors.hasDocument(text));
  const started = performance.now();
  for (let i = 0; i < texts.length; i += engine.batch) {
    const batch = texts.slice(i, i + engine.batch);
    const vectors = await engine.vectors.embed(batch, { purpose: 'document' });
    if (vectors.length !== batch.length) throw new Error(`The embedding model gave ${vectors.length} vectors for ${batch.length} texts.`);
    batch.forEach((text, j) => {
      if (!engine.vectors.putDocument(text, vectors[j]!)) throw new Error(`The embedding model gave a vector of ${vectors[j]!.length} dimensions, not ${engine.vectors.dimensions}.`);
    });
  }
  return { embedded: texts.length, embedMs: performance.now() - started };
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
  const engine = replay.engine;
  const embedded = engine === undefined ? null : await embedStoredTurns(conv, engine);
  // As the app does once the stored texts are embedded: cosines are read against the model's own background.
  engine?.vectors.measureBackground();
  const vectorSearch =
    engine === undefined ? {} : { index: new RetrievalIndex({ createEmbedder: () => engine.vectors }), prepareQuery: (text: string) => engine.vectors.prepareQuery(text) };
  const memory = new LayeredMemory({ ...budgets, ...overrides, ...vectorSearch, store: new InMemoryChunkStore(), counter, window });
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
  if (engine !== undefined && embedded !== null) {
    const shard = memory.index.user(userId).shard;
    engine.onReplayed?.({ ...embedded, storedTurns: shard.chunks.size, withVector: shard.vectorCount });
  }
  const out: PromptResult[] = [];
  const asked = replay.askInNewSession === true ? { sessionId: `${conv.id}/asked`, time: last.time + 24 * 60 * MINUTE } : last;
  for (const question of conv.questions) {
    const turn = await memory.handleUserMessage({ userId, sessionId: asked.sessionId, text: question.question, time: asked.time }, { commit: false });
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
