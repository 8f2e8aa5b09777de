/**
 * Embedding texts with wllama, each cut to the model's window by the model's own tokenizer. wllama 3.13 has no
 * tokenize call, but llama.cpp refuses an input longer than its micro-batch and says how many tokens it had, so a
 * text it refuses is cut in proportion to that count and tried again: only long texts pay, and the count is the
 * model's. A batch is sent whole first (one round trip to wllama's worker); if it is refused, its texts go alone.
 */
import type { Wllama } from '@wllama/wllama';

/** The embedding context, in tokens: e5 and arctic-embed were trained on 512. */
export const EMBEDDING_WINDOW = 512;

/** A refusal of a too-long input, and the token count it names (null when it names none). */
export function refusedLength(error: unknown): { tokens: number | null } | null {
  const message = error instanceof Error ? error.message : String(error);
  if (!/too large|too long|exceed|larger than|context size|batch size/i.test(message)) return null;
  const counted = /(\d+)\s*tokens?/i.exec(message);
  return { tokens: counted === null ? null : Number(counted[1]) };
}

/** A shorter start of `text` for a model that counted `tokens` of it against a limit of `limit`. */
export function shorterFor(text: string, tokens: number | null, limit: number): string {
  const points = Array.from(text);
  const ratio = tokens !== null && tokens > limit ? (limit / tokens) * 0.95 : 0.5;
  return points.slice(0, Math.max(1, Math.floor(points.length * ratio))).join('');
}

async function embedRaw(wllama: Wllama, input: string[]): Promise<Float32Array[]> {
  const response = await wllama.createEmbedding({ input });
  return response.data.map((item) => Float32Array.from(item.embedding as number[]));
}

async function embedOne(wllama: Wllama, text: string, limit: number): Promise<Float32Array> {
  let current = text;
  for (let attempt = 0; ; attempt++) {
    try {
      const [vector] = await embedRaw(wllama, [current]);
      return vector!;
    } catch (error) {
      const refused = refusedLength(error);
      if (refused === null || attempt >= 6 || current.length <= 1) throw error;
      current = shorterFor(current, refused.tokens, limit);
    }
  }
}

export async function embedTexts(wllama: Wllama, texts: readonly string[], limit: number): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  try {
    return await embedRaw(wllama, [...texts]);
  } catch (error) {
    if (refusedLength(error) === null) throw error;
  }
  const out: Float32Array[] = [];
  for (const text of texts) out.push(await embedOne(wllama, text, limit));
  return out;
}
