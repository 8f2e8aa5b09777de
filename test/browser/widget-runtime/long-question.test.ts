/**
 * A long question in the widget (issue 15): stored whole, the model gets the start that fits (as in the app), and
 * the runtime says how much was sent before the answer streams, so the reader is told on the message.
 */
import { afterAll, afterEach, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../../scripts/test-model/reply.ts';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { createWidgetRuntimeWith, type WidgetRuntimeImpl } from '../../../src/widget/runtime/index.ts';
import { mixedProse } from '../../fixtures/mixed-prose.ts';
import { fixtureDir, removeFixtures, writeDocsIndex } from './docs-fixture.ts';

const storeName = `long-${Date.now()}`;
let runtime: WidgetRuntimeImpl | null = null;

afterAll(removeFixtures);
afterEach(async () => {
  await runtime?.dispose();
  await deleteMemoryDB(`qwen-widget:${storeName}`);
});

it('stores a 30,000-character question whole, sends its start and says how much', { timeout: 120_000 }, async () => {
  const { manifestUrl } = await writeDocsIndex(fixtureDir('long'), [
    { url: 'guide.html', title: 'Guide', sections: [{ anchor: '', heading: '', text: 'The server logs every request twice.' }] },
  ]);
  runtime = createWidgetRuntimeWith({ base: '/', model: 'models/test/qwen2-tiny.gguf', docsIndex: manifestUrl, lang: 'en', window: 1024, storeName });
  await runtime.ready();
  const question = mixedProse(30_000, 5);
  const events: string[] = [];
  const result = await runtime.ask(question, {
    onSent: (sent) => events.push(`sent ${sent.chars}`),
    onDelta: () => events.push('delta'),
  });

  expect(result.reply).toBe(TEST_MODEL_REPLY);
  const sent = result.sent!;
  expect(sent.chars).toBeGreaterThan(100);
  expect(sent.chars).toBeLessThan(question.length);
  expect(sent.tokens).toBeLessThanOrEqual(1024);
  // Told before the answer streams, so the message says it while the reader waits.
  expect(events[0]).toBe(`sent ${sent.chars}`);
  expect(events.slice(1).every((e) => e === 'delta')).toBe(true);
  // The model got the question's start, cut with the marker, and no more.
  const prompt = result.prompt.filter((m) => m.role === 'user').at(-1)!.content;
  const kept = question.slice(0, sent.chars);
  expect(prompt).toContain(`${kept}\n…[truncated]`);
  expect(prompt).not.toContain(question.slice(0, sent.chars + 200));

  // Stored whole, with the part sent.
  const store = await MemoryStore.open({ name: `qwen-widget:${storeName}` });
  try {
    const sessions = await store.listSessions();
    const turns = await store.listTurns(sessions[0]!.id);
    expect(turns[0]!.content).toBe(question);
    expect(turns[0]!.sent).toEqual(sent);
  } finally {
    await store.close();
  }
});
