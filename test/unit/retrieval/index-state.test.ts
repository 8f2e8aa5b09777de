/**
 * The retrieval index as flat data (issue 17's snapshot): a memory restored from `exportState` — after a structured
 * clone, as IndexedDB stores it — answers every later prompt exactly as a memory rebuilt from the records (what a
 * page load did before), edits included; a damaged state is refused, never half used.
 */
import { describe, expect, it } from 'vitest';
import { LayeredMemory, type MessageInput } from '../../../src/memory/layered/pipeline.ts';
import { SessionWorkingMemory } from '../../../src/memory/layered/working-memory.ts';
import { InMemoryChunkStore, type DocEntry } from '../../../src/memory/retrieval/records.ts';
import { RetrievalIndex, type RetrievalIndexState } from '../../../src/memory/retrieval/retrieval-index.ts';
import { pipeline, speaker, T0 } from '../layered/helpers.ts';
import { hashString } from '../../../src/memory/embedders/hash.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { intentTags } from '../../../src/memory/retrieval/intent.ts';
import { isSelfStatement } from '../../../src/memory/retrieval/persona.ts';
import { splitPieces } from '../../../src/memory/retrieval/pieces.ts';
import { INDEX_ANALYSIS_VERSION } from '../../../src/memory/retrieval/retrieval-index.ts';
import { searchTerms } from '../../../src/memory/retrieval/text-terms.ts';

const U = 'u';
const PLACES = ['the harbour museum', 'the old mill', 'the glass bridge', 'the night market', 'the botanical garden'];
const SERVICES = ['billing-api', 'search-gateway', 'auth-proxy', 'report-worker'];
const DOCS: DocEntry[] = [
  { id: 'd1#0', docId: 'd1', source: 'guide.md › Ports', part: 0, text: 'Every service port is listed in services.yaml; the gateway uses 8443.' },
  { id: 'd1#1', docId: 'd1', source: 'guide.md › Certificates', part: 1, text: '证书续费：在到期前 30 天运行 renew-certs 脚本。' },
];

/** A memory of three conversations (ops, travel, mixed zh/en), a deleted reply and a doc or two. */
async function seeded() {
  const wm = new SessionWorkingMemory();
  const { memory, store, counter } = await pipeline(1024, { workingMemory: wm });
  const { say, clock } = speaker(memory, U, T0);
  for (let i = 0; i < 12; i++) {
    const service = SERVICES[i % SERVICES.length]!;
    await say('ops', 'user', `The ${service} listens on port ${8000 + i} and logs to /var/log/${service}.log. Is that right?`);
    await say('ops', 'assistant', `Yes: ${service} uses port ${8000 + i}; rotate its log weekly.`);
    const place = PLACES[i % PLACES.length]!;
    await say('trip', 'user', `On day ${i + 1} we see ${place}, and dinner is near pier ${i + 2}.`);
    await say('trip', 'assistant', `${place} opens at ${8 + (i % 3)}:00; pier ${i + 2} has grilled fish.`);
    await say('mixed', 'user', `部署 ${service} 到 eu-west-${(i % 3) + 1}，证书 ${i + 3} 月到期，记得续费。`);
    await say('mixed', 'assistant', `好的：${service} 在 eu-west-${(i % 3) + 1}，证书将在 ${i + 3} 月到期。`);
  }
  const gone = await say('ops', 'assistant', 'A reply that a regenerate replaced.');
  memory.forgetTurns(U, 'ops', [gone]);
  // The store as the app's would hold it: the replaced reply hidden (the in-memory store has no delete).
  const kept = new InMemoryChunkStore();
  for (const t of await store.listTurns(U)) if (t.id !== gone) await kept.putTurn(t);
  for (const s of await store.listSessions(U)) await kept.putSession(s);
  await kept.putHeat(await store.listHeat((await kept.listTurns(U)).map((t) => t.id)));
  for (const doc of DOCS) {
    await memory.addDoc(doc);
    await kept.putDoc(doc);
  }
  return { memory, store: kept, counter, wm, clock };
}

const questions = (time: () => number): MessageInput[] => [
  { userId: U, sessionId: 'ops', text: 'Which port does the search-gateway use, and where is its log?', time: time(), id: 'q1' },
  { userId: U, sessionId: 'trip', text: 'When does the old mill open?', time: time(), id: 'q2' },
  { userId: U, sessionId: 'mixed', text: 'auth-proxy 部署在哪个区域？证书什么时候到期？', time: time(), id: 'q3' },
  { userId: U, sessionId: 'ops', text: 'How do I renew the certificates before they expire?', time: time(), id: 'q4' },
];

/** The version and the hash of the examples' analysis it was pinned with. */
const PINNED_ANALYSIS = '9:1ior2ku';
const ANALYSED = [
  'The billing-api listens on port 8443. Its log rotates weekly, at 02:00 on Sundays.',
  '我下周去大阪，住在难波附近的酒店，预算每晚一万日元左右。',
  'How do I renew the TLS certificate on gateway-2? It expires 2025-04-01!',
  'I love hiking with my dog; we walked 12 km yesterday.',
  'She weighs about 14 kg now, the vet said.',
  'We bought the tent in May and paid 240 for it.',
  '把 worker 的内存上限提到 8Gi，镜像推到私有仓库。',
  'Restart it:\n\n```bash\nsystemctl restart billing-api\n```\n\nThen tail the log.',
  'The sitter charges 18 an hour; the cleaner, paid monthly, asks 25 hourly. 我们每周结算一次。',
  'We moved EMR 7.1 and the runner to 3.14.2 on v2.7 hosts; the BMI is 24.3 and 10.1.4.22 is the old box.',
  '| host | role |\n|---|---|\n| kiln-1 | primary |\n| kiln-2 | replica |\n| kiln-3 | backup |\n| kiln-4 | spare |\n\nThe spare joins the pool once its disks are replaced next month.',
];

describe('the analysis a saved index holds', () => {
  it('is pinned to INDEX_ANALYSIS_VERSION: a change of terms, sentences, vectors or tags needs a bump', () => {
    const embedder = new HashedNgramEmbedder();
    const analysis = ANALYSED.map((text) => ({
      terms: searchTerms(text),
      pieces: splitPieces(text).map((p) => [p.start, p.end]),
      vector: Array.from(embedder.embedOne(text), (x) => Math.round(x * 1e6)),
      tags: intentTags(text),
      self: isSelfStatement(text),
    }));
    expect(
      `${INDEX_ANALYSIS_VERSION}:${hashString(JSON.stringify(analysis)).toString(36)}`,
      'What the index works out from a text changed: bump INDEX_ANALYSIS_VERSION in src/memory/retrieval/retrieval-index.ts ' +
        '(saved indexes of the old analysis are then built again) and pin the new version and hash here.',
    ).toBe(PINNED_ANALYSIS);
  });
});

describe('the retrieval index as flat data', () => {
  it('a memory restored from a cloned state gives the same prompts, turn after turn, as one rebuilt from the records', async () => {
    const { memory: live, store, counter, wm, clock } = await seeded();
    const state = structuredClone(live.index.exportState());
    const restored = new LayeredMemory({ store, counter, window: 1024, workingMemory: wm, index: RetrievalIndex.fromState(state) });
    await restored.restoreUser(U);
    const memory = new LayeredMemory({ store, counter, window: 1024, workingMemory: wm });
    await memory.loadUser(U);
    for (const doc of await store.listDocs()) memory.index.addDoc(doc);
    expect(restored.index.user(U).turns.size).toBe(memory.index.user(U).turns.size);
    for (const question of questions(clock)) {
      const expected = await memory.handleUserMessage(question);
      const got = await restored.handleUserMessage(question);
      expect(got.messages.at(-1)!.content).toBe(expected.messages.at(-1)!.content);
      expect(got.messages).toEqual(expected.messages);
      expect(got.report.memory.retrieval.injected).toEqual(expected.report.memory.retrieval.injected);
      expect(got.report.memory.block.sent.records.length).toBeGreaterThan(0);
      // Both go on changing in step: a reply, then a regenerate that takes it out.
      const reply = { ...question, id: `${question.id}-r`, text: `An answer to ${question.text}`, time: clock() };
      await memory.recordReply(reply);
      await restored.recordReply(reply);
    }
    memory.forgetTurns(U, 'ops', ['q4', 'q4-r']);
    restored.forgetTurns(U, 'ops', ['q4', 'q4-r']);
    const again = { ...questions(clock)[3]!, time: clock() };
    expect((await restored.handleUserMessage(again)).messages).toEqual((await memory.handleUserMessage(again)).messages);
  });

  it('the restored state exports the same state again (nothing is lost or reordered on the way)', async () => {
    const { memory } = await seeded();
    const state = structuredClone(memory.index.exportState());
    expect(RetrievalIndex.fromState(state).exportState()).toEqual(state);
  });

  it('refuses a damaged state instead of restoring part of it', async () => {
    const { memory } = await seeded();
    const state = memory.index.exportState();
    const damage: Array<(s: RetrievalIndexState) => void> = [
      (s) => s.users[0]![1].shard.turns.postingSlots.fill(1_000_000),
      (s) => (s.users[0]![1].shard.chunkTexts = s.users[0]![1].shard.chunkTexts.slice(1)),
      (s) => (s.users[0]![1].turns.ids[0] = 'no-such-turn'),
      (s) => s.users[0]![1].turns.sessionIds.codes.fill(99),
      (s) => (s.users[0]![1].turns.roles.names[0] = 'narrator'),
      (s) => (s.users[0]![1].shard.vectors!.embedder = 'another-embedder@1'),
      (s) => (s.docs!.shard.pieceBounds[1] = 10_000),
      (s) => (s.users[0]![1].shard.stats = { documents: 1, df: new Uint32Array(3) }),
    ];
    for (const hurt of damage) {
      const copy = structuredClone(state);
      hurt(copy);
      expect(() => RetrievalIndex.fromState(copy)).toThrow(RangeError);
    }
  });

  it('a keywords-only index (no embedder) has no vectors to restore, and refuses a state that has some', async () => {
    const { memory } = await seeded();
    const state = structuredClone(memory.index.exportState());
    expect(() => RetrievalIndex.fromState(state, { createEmbedder: () => null })).toThrow(/another embedder/);
  });
});
