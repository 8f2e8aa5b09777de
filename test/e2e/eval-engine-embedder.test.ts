/**
 * The LoCoMo eval with `--embedder engine`, end to end, on the generated tiny embedding model (its vectors follow
 * the concept table of scripts/test-model/embedding-concepts.ts: 苹果 and "apple" point one way). It says nothing
 * of a real model's quality; it checks the plumbing: the app's engine in Chromium embeds every stored turn as a
 * document and each query as a query, the memory searches those vectors, and the report names the model.
 * The conversation is the project's own (test/fixtures/locomo-embedder.json), in LoCoMo's format.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CachedTokenCounter } from '../../src/context/tokens.ts';
import { EngineVectors } from '../../src/memory/embedders/engine-vectors.ts';
import { openEngineEmbedder, type EngineEmbedder } from '../../scripts/eval/engine-embedder.ts';
import { readLocomo, type LocomoConversation } from '../../scripts/eval/locomo-data.ts';
import { containsTurn, normalise } from '../../scripts/eval/recall.ts';
import { runFull, type EngineReplayInfo } from '../../scripts/eval/strategies.ts';
import { loadNodeQwenTokenizer } from '../../scripts/prepare-tokenizer.ts';

const MODEL = 'public/models/test/qwen2-embed-tiny.gguf';
const FIXTURE = 'test/fixtures/locomo-embedder.json';
/** The English turn about an apple; the fixture's one question asks about it in Chinese (苹果). */
const APPLE_TURN = 'D1:3';

let embedder: EngineEmbedder;
let counter: CachedTokenCounter;
let conv: LocomoConversation;

beforeAll(async () => {
  if (!existsSync(MODEL)) throw new Error(`${MODEL} is missing: run \`npm run test-model\` first (npm test does it for you).`);
  [conv] = (await readLocomo(FIXTURE)) as [LocomoConversation];
  counter = new CachedTokenCounter(await loadNodeQwenTokenizer());
  embedder = await openEngineEmbedder(MODEL, { log: () => {} });
});

afterAll(async () => {
  await embedder?.close();
});

describe('the eval on engine vectors, with the tiny embedding model in the app engine', () => {
  it('embeds every stored turn through the engine, each query as a query, and finds the English apple turn for 苹果', async () => {
    expect(embedder.info).toMatchObject({ backend: 'wllama', dimensions: 32, maxTokens: 512 });
    expect(embedder.info.modelId).toMatch(/\/__eval-embedding\/qwen2-embed-tiny\.gguf$/);
    // Not an e5, arctic or nomic file name: no prefixes, as in the app.
    expect(embedder.prefixes).toEqual({});

    const vectors = new EngineVectors(embedder.source, { modelId: embedder.info.modelId, dimensions: embedder.info.dimensions });
    let replayed: EngineReplayInfo | undefined;
    const [result] = await runFull(conv, 1024, counter, {}, { engine: { vectors, batch: 8, onReplayed: (info) => (replayed = info) } });

    const turns = conv.sessions.flatMap((s) => s.turns);
    const storedTexts = new Set(turns.map((t) => t.text));
    const stats = await embedder.engineStats();
    // Every stored text got its vector from the engine, as a document, in batches of up to 8.
    expect(stats.texts.document).toBe(storedTexts.size);
    expect(stats.calls.document).toBe(Math.ceil(storedTexts.size / 8));
    expect(vectors.documents).toBe(storedTexts.size);
    expect(replayed).toMatchObject({ embedded: storedTexts.size, storedTurns: turns.length, withVector: turns.length });
    // Queries: one per message of the first speaker as the conversation is replayed, and the question.
    const queries = turns.filter((t) => t.speaker === conv.speakerA).length + 1;
    expect(stats).toMatchObject({ calls: { query: queries }, texts: { query: queries } });
    expect(embedder.counts.query.texts).toBe(queries);

    const appleId = `${conv.id}/${APPLE_TURN}`;
    const candidates = result!.turn!.report.memory.retrieval.candidates;
    const byVector = [...candidates].sort((a, b) => b.features.vector - a.features.vector);
    expect(byVector[0]!.id).toBe(appleId);
    expect(result!.turn!.report.memory.retrieval.injected).toContain(appleId);
    expect(containsTurn(normalise(result!.prompt), turns.find((t) => t.diaId === APPLE_TURN)!.text)).toBe(true);
  });

  it('npm run eval -- --embedder engine reports the model and what it embedded; the hashed run misses the turn', async () => {
    const run = async (...extra: string[]) =>
      (await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/eval/locomo.ts', '--locomo', FIXTURE, '--json', ...extra], { encoding: 'utf8' })).stdout;
    const engineOut = await run('--embedder', 'engine', '--embedding-model', MODEL);
    const lines = engineOut.trim().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^embedder engine: qwen2-embed-tiny\.gguf \(http:\/\/127\.0\.0\.1:\d+\/__eval-embedding\/qwen2-embed-tiny\.gguf\), 32 dimensions, 512 tokens max, prefixes query none \/ document none$/));
    expect(lines).toContainEqual(expect.stringMatching(/^embedded 38 stored texts in [\d.]+ s \([\d.]+ ms each, 5 requests of up to 8\), 20 queries in [\d.]+ s \([\d.]+ ms each\); 38 of 38 stored turns in the vector search$/));
    const engine = JSON.parse(lines.at(-1)!) as { lenient: number; embedder: Record<string, unknown> };
    expect(engine.embedder).toMatchObject({ kind: 'engine', dimensions: 32, documentsEmbedded: 38, queriesEmbedded: 20, storedTurns: 38, storedWithVector: 38 });
    expect(engine.lenient).toBe(1);

    const hashed = JSON.parse((await run()).trim().split('\n').at(-1)!) as { lenient: number; embedder?: unknown };
    expect(hashed.embedder).toBeUndefined();
    expect(hashed.lenient).toBe(0);
  });
});
