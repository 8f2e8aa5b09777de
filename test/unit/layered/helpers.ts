/** Shared fixtures for the layered-memory tests: a pipeline over the in-memory store and the real Qwen counter. */
import { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { LayeredMemory, type LayeredMemoryOptions, type TurnResult } from '../../../src/memory/layered/pipeline.ts';
import { InMemoryChunkStore } from '../../../src/memory/retrieval/records.ts';
import { loadNodeQwenTokenizer } from '../../../scripts/prepare-tokenizer.ts';

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
/** 2024-03-01 09:00 UTC. */
export const T0 = Date.UTC(2024, 2, 1, 9);

export async function pipeline(window = 1024, options: Partial<LayeredMemoryOptions> = {}) {
  const counter = new CachedTokenCounter(await loadNodeQwenTokenizer());
  const store = new InMemoryChunkStore();
  const memory = new LayeredMemory({ store, counter, window, ...options });
  return { memory, store, counter };
}

/** A tiny conversation driver: `user()` sends a message (through the whole pipeline), `bot()` records a reply. */
export function chat(memory: LayeredMemory, userId: string, sessionId: string, start: number) {
  let clock = start;
  return {
    at(time: number) {
      clock = time;
    },
    async user(text: string, probe = false): Promise<TurnResult> {
      clock += 60_000;
      return memory.handleUserMessage({ userId, sessionId, text, time: clock }, { commit: !probe });
    },
    async bot(text: string): Promise<void> {
      clock += 60_000;
      await memory.recordReply({ userId, sessionId, text, time: clock });
    },
  };
}

/** The turn ids a result injected as conversation records. */
export const injected = (r: TurnResult): readonly string[] => r.report.memory.retrieval.injected;

/** Small talk long enough to push earlier turns out of a 1,024-token prompt's history. */
export async function smallTalk(c: ReturnType<typeof chat>, lang: 'zh' | 'en', exchanges = 6): Promise<void> {
  for (let i = 0; i < exchanges; i++) {
    if (lang === 'zh') {
      await c.user(`第${i + 1}个闲聊问题：周末想去公园散步，顺便买点水果和面包，你觉得什么时间出门比较合适？`);
      await c.bot('上午九点到十点之间出门比较合适，天气凉爽，人也不多。公园附近的市场这个时候水果也最新鲜，面包店刚出炉的面包也不错。');
    } else {
      await c.user(`Small talk ${i + 1}: I am thinking about a walk in the park this weekend and buying some fruit and bread on the way. When should I go?`);
      await c.bot('Between nine and ten in the morning is nice: it is cool, the park is quiet, the market has the freshest fruit and the bakery has bread straight from the oven.');
    }
  }
}

/**
 * Says turns into a memory under ids `<session>-<n>` a minute apart from `start` (a user turn through the whole
 * pipeline, a reply recorded); returns `say` and the clock.
 */
export function speaker(memory: LayeredMemory, userId: string, start: number) {
  let clock = start;
  let n = 0;
  const say = async (sessionId: string, role: 'user' | 'assistant', text: string): Promise<string> => {
    clock += 60_000;
    const id = `${sessionId}-${++n}`;
    if (role === 'user') await memory.handleUserMessage({ userId, sessionId, text, time: clock, id });
    else await memory.recordReply({ userId, sessionId, text, time: clock, id });
    return id;
  };
  return { say, clock: () => (clock += 60_000) };
}
