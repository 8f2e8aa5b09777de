/**
 * The LoCoMo eval's `--embedder` flags, and the pipeline's vector search on engine vectors in `runFull`, with a
 * stand-in engine (the real model in the browser: test/e2e/eval-engine-embedder.test.ts). The conversation is the
 * project's own (test/fixtures/locomo-embedder.json), in LoCoMo's format.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { EngineVectors, type EngineEmbeddingSource } from '../../../src/memory/embedders/engine-vectors.ts';
import type { EmbedPurpose } from '../../../src/memory/embedders/embedder.ts';
import { DEFAULT_EMBED_BATCH, embedderChoice, UsageError } from '../../../scripts/eval/embedder-args.ts';
import { readLocomo, type LocomoConversation } from '../../../scripts/eval/locomo-data.ts';
import { containsTurn, normalise } from '../../../scripts/eval/recall.ts';
import { runFull, type EngineReplayInfo } from '../../../scripts/eval/strategies.ts';
import { EMBEDDING_CONCEPTS } from '../../../scripts/test-model/embedding-concepts.ts';
import { realCounter } from '../context/helpers.ts';

const FIXTURE = 'test/fixtures/locomo-embedder.json';
/** The turn about the apple (English), and the question that asks about it in Chinese (苹果). */
const APPLE_TURN = 'D1:3';

const flags = (embedder: string, embeddingModel: string | null = null, embedBatch = DEFAULT_EMBED_BATCH) => ({ embedder, embeddingModel, embedBatch });

function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return error as UsageError;
  }
  throw new Error('no error');
}

describe('--embedder and --embedding-model', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-embedder-'));
  const gguf = join(dir, 'model.gguf');
  writeFileSync(gguf, Buffer.concat([Buffer.from('GGUF'), Buffer.alloc(12)]));
  const notGguf = join(dir, 'notes.gguf');
  writeFileSync(notGguf, 'hello');
  mkdirSync(join(dir, 'folder.gguf'));

  it('defaults to the hashed vectors, and takes an engine model that is a GGUF file', () => {
    expect(embedderChoice(flags('hashed'), 'full')).toEqual({ kind: 'hashed' });
    expect(embedderChoice(flags('engine', gguf, 16), 'full')).toEqual({ kind: 'engine', modelPath: gguf, batch: 16 });
    // A relative path is the working directory's.
    expect(embedderChoice(flags('engine', relative(process.cwd(), gguf)), 'full')).toMatchObject({ modelPath: gguf });
  });

  it('refuses, with a message that says what to give, a missing, absent or wrong model and mismatched flags', () => {
    expect(usageError(() => embedderChoice(flags('engine'), 'full')).message).toMatch(/--embedder engine needs the embedding model file: --embedding-model <path/);
    expect(usageError(() => embedderChoice(flags('engine', join(dir, 'absent.gguf')), 'full')).message).toMatch(/absent\.gguf: no such file/);
    expect(usageError(() => embedderChoice(flags('engine', join(dir, 'folder.gguf')), 'full')).message).toMatch(/not a file/);
    expect(usageError(() => embedderChoice(flags('engine', notGguf), 'full')).message).toMatch(/not a GGUF file/);
    expect(usageError(() => embedderChoice(flags('engine', gguf, 0), 'full')).message).toMatch(/--embed-batch/);
    expect(usageError(() => embedderChoice(flags('engine', gguf), 'tfidf')).message).toMatch(/--strategy full/);
    expect(usageError(() => embedderChoice(flags('hashed', gguf), 'full')).message).toMatch(/goes with --embedder engine/);
    expect(usageError(() => embedderChoice(flags('neural'), 'full')).message).toMatch(/hashed or engine/);
  });

  it('npm run eval says so in one line and exits with code 2, before loading anything', () => {
    const run = (...extra: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', 'scripts/eval/locomo.ts', '--locomo', FIXTURE, '--embedder', 'engine', ...extra], { encoding: 'utf8' });
    const missing = run();
    expect(missing.status).toBe(2);
    expect(missing.stderr.trim()).toBe('--embedder engine needs the embedding model file: --embedding-model <path to a .gguf> (e.g. multilingual-e5-small-q8_0.gguf)');
    expect(missing.stdout).toBe('');
    const absent = run('--embedding-model', join(dir, 'multilingual-e5-small-q8_0.gguf'));
    expect(absent.status).toBe(2);
    expect(absent.stderr.trim()).toBe(`--embedding-model ${join(dir, 'multilingual-e5-small-q8_0.gguf')}: no such file (looked at ${join(dir, 'multilingual-e5-small-q8_0.gguf')})`);
    expect(absent.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);
});

/**
 * A stand-in for the engine, after the tiny embedding model's rule: a text's vector counts the words of each concept
 * (embedding-concepts.ts, English and Chinese alike), plus a little of a dimension of its own. Records every call.
 */
function conceptEngine(): { source: EngineEmbeddingSource; calls: Array<{ purpose: EmbedPurpose; texts: string[] }> } {
  const concepts = Object.values(EMBEDDING_CONCEPTS);
  const calls: Array<{ purpose: EmbedPurpose; texts: string[] }> = [];
  const source: EngineEmbeddingSource = {
    embed: async (texts, { purpose }) => {
      calls.push({ purpose, texts: [...texts] });
      return texts.map((text) => {
        const v = new Float32Array(concepts.length + 1);
        concepts.forEach((words, i) => {
          for (const w of words) if (text.toLowerCase().includes(w.toLowerCase())) v[i] += 1;
        });
        v[concepts.length] = 0.05;
        return v;
      });
    },
  };
  return { source, calls };
}

describe('runFull with engine vectors', () => {
  let counter: CachedTokenCounter;
  let conv: LocomoConversation;
  beforeAll(async () => {
    counter = await realCounter();
    [conv] = (await readLocomo(FIXTURE)) as [LocomoConversation];
  });

  const appleText = (): string => conv.sessions[0]!.turns.find((t) => t.diaId === APPLE_TURN)!.text;
  const appleId = (): string => `${conv.id}/${APPLE_TURN}`;

  it('embeds every stored turn before the replay, each query as a query, and finds the apple turn for 苹果', async () => {
    const { source, calls } = conceptEngine();
    const vectors = new EngineVectors(source, { modelId: 'stand-in', dimensions: Object.keys(EMBEDDING_CONCEPTS).length + 1 });
    let replayed: EngineReplayInfo | null = null;
    const [result] = await runFull(conv, 1024, counter, {}, { engine: { vectors, batch: 8, onReplayed: (info) => (replayed = info) } });

    const stored = new Set(conv.sessions.flatMap((s) => s.turns.map((t) => t.text)));
    const documents = calls.filter((c) => c.purpose === 'document');
    expect(documents.flatMap((c) => c.texts).sort()).toEqual([...stored].sort());
    expect(Math.max(...documents.map((c) => c.texts.length))).toBe(8);
    // Every document was embedded before the first query (the replay's first message).
    expect(calls.findIndex((c) => c.purpose === 'query')).toBe(documents.length);
    expect(replayed).toMatchObject({ embedded: stored.size, storedTurns: 38, withVector: 38 });

    const queries = calls.filter((c) => c.purpose === 'query');
    // One per message of the first speaker while replaying, and the question: one text each.
    const firstSpeaker = conv.sessions.flatMap((s) => s.turns).filter((t) => t.speaker === conv.speakerA).length;
    expect(queries).toHaveLength(firstSpeaker + 1);
    expect(queries.every((c) => c.texts.length === 1)).toBe(true);
    expect(queries.at(-1)!.texts[0]).toContain('苹果');

    const candidates = result!.turn!.report.memory.retrieval.candidates;
    const byVector = [...candidates].sort((a, b) => b.features.vector - a.features.vector);
    expect(byVector[0]!.id).toBe(appleId());
    expect(byVector[0]!.features.vector).toBeGreaterThan(0.5);
    expect(result!.turn!.report.memory.retrieval.injected).toContain(appleId());
    expect(containsTurn(normalise(result!.prompt), appleText())).toBe(true);
  });

  it('with the built-in hashed vectors (the default) the Chinese question does not reach the English turn', async () => {
    const [result] = await runFull(conv, 1024, counter);
    const apple = result!.turn!.report.memory.retrieval.candidates.find((c) => c.id === appleId());
    expect(apple?.features.vector ?? 0).toBe(0);
    expect(result!.turn!.report.memory.retrieval.injected).not.toContain(appleId());
    expect(containsTurn(normalise(result!.prompt), appleText())).toBe(false);
  });
});
