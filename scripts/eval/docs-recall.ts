/**
 * The docs eval's replay (docs.ts is its command line): every distinct knowledge triple of a KdConv-format corpus
 * is one doc chunk, indexed as the app indexes a docs site; each dialogue is a chat session of its own user, even
 * messages through `handleUserMessage` (write, working memory, retrieval, assembly), odd ones recorded as replies.
 * Before an odd message that uses knowledge is recorded, each triple it uses is scored: recalled when the memory
 * block built for the user message before it injected that triple's doc and holds its value whole or one
 * informative sentence of it (recall.ts).
 */
import type { CachedTokenCounter } from '../../src/context/tokens.ts';
import { LayeredMemory, type TurnResult } from '../../src/memory/layered/pipeline.ts';
import { InMemoryChunkStore } from '../../src/memory/retrieval/records.ts';
import type { KdCorpus } from './kdconv-data.ts';
import { containsTurn, normalise } from './recall.ts';
import type { PipelineOverrides } from './strategies.ts';

export interface DocsRecall {
  /** Knowledge items scored, and how many were recalled. */
  readonly n: number;
  readonly recalled: number;
  /** By attribute (门票, 地址, …): n and recalled. */
  readonly perKind: ReadonlyMap<string, { n: number; recalled: number }>;
  readonly promptTokens: number;
  /** User messages whose prompt was scored. */
  readonly prompts: number;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** Replays the dialogues through one pipeline whose docs are the corpus's knowledge, scoring as described above. */
export async function runDocsEval(corpus: KdCorpus, window: number, counter: CachedTokenCounter, overrides: PipelineOverrides = {}, dialogues = Infinity): Promise<DocsRecall> {
  const memory = new LayeredMemory({ ...overrides, store: new InMemoryChunkStore(), counter, window });
  for (const doc of corpus.docs) await memory.addDoc(doc);
  const perKind = new Map<string, { n: number; recalled: number }>();
  let n = 0;
  let recalled = 0;
  let promptTokens = 0;
  let prompts = 0;
  const start = Date.UTC(2024, 0, 1, 9);
  for (const dialogue of corpus.dialogues.slice(0, dialogues)) {
    const userId = `kd${dialogue.index}`;
    const sessionId = `${userId}/s`;
    let last: TurnResult | null = null;
    for (const [i, message] of dialogue.messages.entries()) {
      const input = { userId, sessionId, text: message.text, time: start + dialogue.index * HOUR + i * MINUTE };
      if (message.text.trim() === '') continue;
      if (i % 2 === 0) {
        last = await memory.handleUserMessage(input);
        continue;
      }
      if (last !== null && message.knowledge.length > 0) {
        const block = normalise(last.memory);
        const injected = new Set(last.report.memory.retrieval.injected);
        promptTokens += last.report.promptTokens;
        prompts += 1;
        for (const k of message.knowledge) {
          const hit = injected.has(k.docId) && containsTurn(block, k.value);
          const kind = perKind.get(k.attr) ?? { n: 0, recalled: 0 };
          kind.n += 1;
          if (hit) kind.recalled += 1;
          perKind.set(k.attr, kind);
          n += 1;
          if (hit) recalled += 1;
        }
      }
      last = null;
      await memory.recordReply(input);
    }
  }
  return { n, recalled, perKind, promptTokens, prompts };
}
