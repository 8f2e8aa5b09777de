/**
 * The widget runtime in real Chromium, with the generated test model, the real tokenizer and a docs index written
 * in the index format: an answer drawn from the docs (its chunk in the prompt under the docs label, its link among
 * the sources), an incremental re-index that fetches only the changed page and drops a removed one, and a
 * malformed manifest that fails with a code and loses nothing. Those last two run on the scripted engine.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_MODEL_REPLY } from '../../../scripts/test-model/reply.ts';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { LABELS } from '../../../src/memory/layered/labels.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { createWidgetRuntimeWith, type WidgetRuntimeImpl } from '../../../src/widget/runtime/index.ts';
import type { WidgetRuntimeConfig, WidgetStatus } from '../../../src/widget/runtime/types.ts';
import { NOT_IN_DOCS } from '../../../src/widget/runtime/not-in-docs.ts';
import { SCRIPTED_MODEL_URL, createScriptedUiWorker } from '../engine/ui-script.ts';
import { clearRequests, fixtureDir, requestsUnder, writeDocsIndex, removeFixtures, writeRaw, type FixturePage } from './docs-fixture.ts';

const PORT_FACT = 'The Zorblax daemon listens on port 7341 by default; change it with the --zorblax-port flag.';
const QUOKKA_FACT = 'The quokka palette tints every panel in warm sand colours; enable it with theme: quokka.';

const PAGES: FixturePage[] = [
  {
    url: 'guide/install.html',
    title: 'Install',
    sections: [
      { anchor: '', heading: '', text: 'Installing the toolkit takes about a minute on a laptop.' },
      { anchor: 'from-npm', heading: 'Install › From npm', text: PORT_FACT },
    ],
  },
  {
    url: 'faq.html',
    title: 'FAQ',
    sections: [{ anchor: 'license', heading: 'FAQ › License', text: 'The toolkit is released under the MIT license.' }],
  },
  {
    url: 'guide/theming.html',
    title: 'Theming',
    sections: [{ anchor: 'palettes', heading: 'Theming › Palettes', text: QUOKKA_FACT }],
  },
];

const runtimes: WidgetRuntimeImpl[] = [];
const stores: string[] = [];

afterAll(removeFixtures);

afterEach(async () => {
  for (const r of runtimes.splice(0)) await r.dispose();
  for (const name of stores.splice(0)) await deleteMemoryDB(`qwen-widget:${name}`);
});

function open(docsIndex: string, storeName: string, model = 'models/test/qwen2-tiny.gguf'): WidgetRuntimeImpl {
  const config: WidgetRuntimeConfig = { base: '/', model, docsIndex, lang: 'en', window: 1024, storeName };
  // The docs-sync tests run on the scripted engine (the real handler and worker protocol over a backend double):
  // their subject is the index and the prompt, and each opens the runtime twice.
  const runtime = createWidgetRuntimeWith(config, model === SCRIPTED_MODEL_URL ? { createWorker: createScriptedUiWorker } : {});
  runtimes.push(runtime);
  if (!stores.includes(storeName)) stores.push(storeName);
  return runtime;
}

const userMessage = (prompt: ReadonlyArray<{ role: string; content: string }>): string => prompt.filter((m) => m.role === 'user').at(-1)!.content;

describe('widget runtime: answers from the docs', () => {
  it('puts the docs chunk in the prompt under the docs label, cites its link and stores the exchange', async () => {
    const dir = fixtureDir('answer');
    const { manifestUrl } = await writeDocsIndex(dir, PAGES);
    const storeName = `answer-${Date.now()}`;
    const runtime = open(manifestUrl, storeName);
    const statuses: WidgetStatus[] = [];
    runtime.onStatus((s) => statuses.push(s));
    await runtime.ready();
    expect(runtime.lastSync).toMatchObject({ pages: 3, chunks: 4, fetched: 3, removed: 0, failed: [], reembedded: false });
    expect(statuses.at(-1)?.phase).toBe('ready');
    expect(statuses.at(-1)?.text).toMatch(/^WASM CPU, .* · 3 doc pages$/);
    expect(statuses.some((s) => s.phase === 'loading' && s.progress !== null)).toBe(true);
    // Its start, step by step: the engine's steps, the docs index and the tokenizer, and when it was ready.
    const steps = runtime.timeline!.steps.map((s) => s.name);
    expect(steps).toEqual(expect.arrayContaining(['worker', 'wasm', 'model-load', 'docs-index', 'tokenizer']));
    expect(runtime.timeline!.readyMs).toBeGreaterThanOrEqual(Math.max(...runtime.timeline!.steps.map((s) => s.endMs)) - 1);

    const deltas: string[] = [];
    const result = await runtime.ask('Which port does the Zorblax daemon listen on?', { onDelta: (t) => deltas.push(t) });

    expect(result.reply).toBe(TEST_MODEL_REPLY);
    expect(deltas.join('')).toBe(TEST_MODEL_REPLY);
    // The system message was prefilled once the widget was ready, while the reader typed: the engine's cache held
    // it when the question came (on a fresh engine nothing is cached otherwise). English prose is ~4 characters a
    // token, so an eighth of its characters is a floor under its tokens.
    expect(result.tokens.cached).toBeGreaterThan(result.prompt[0]!.content.length / 8);
    expect(result.tokens.cached).toBeLessThan(result.tokens.prompt);
    const message = userMessage(result.prompt);
    const docsAt = message.indexOf(LABELS.en.docs);
    expect(docsAt).toBeGreaterThanOrEqual(0);
    expect(message.indexOf(PORT_FACT)).toBeGreaterThan(docsAt);
    // Doc knowledge never poses as conversation: no conversation-records section holds it.
    expect(message).not.toContain(LABELS.en.history);
    expect(result.sources).toContainEqual({ href: `${location.origin}/docs-site/guide/install.html#from-npm`, title: 'Install', heading: 'Install › From npm' });
    expect(result.sources.every((s) => s.href.startsWith(`${location.origin}/docs-site/`))).toBe(true);

    // Written first, then the reply: both are in the widget's own database after the answer.
    await runtime.dispose();
    const store = await MemoryStore.open({ name: `qwen-widget:${storeName}` });
    const [session] = await store.listSessions();
    const turns = await store.listTurns(session!.id);
    expect(turns.map((t) => [t.role, t.status, t.content])).toEqual([
      ['user', 'complete', 'Which port does the Zorblax daemon listen on?'],
      ['assistant', 'complete', TEST_MODEL_REPLY],
    ]);
    await store.close();
  });

  it('a later visit with the docs unchanged restores the saved docs index: nothing indexed again, the same prompt and links', async () => {
    const dir = fixtureDir('restore');
    const { manifestUrl } = await writeDocsIndex(dir, PAGES);
    const storeName = `restore-${Date.now()}`;
    const first = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await first.ready();
    expect(first.docsOrigin).toBe('built');
    const asked = await first.ask('Which port does the Zorblax daemon listen on?');
    await first.saveDocsIndexNow();
    await first.dispose();

    const second = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await second.ready();
    expect(second.docsOrigin).toBe('restored');
    expect(second.lastSync).toMatchObject({ pages: 3, fetched: 0, removed: 0 });
    expect(second.status.text).toMatch(/· 3 doc pages$/);
    const again = await second.ask('Which port does the Zorblax daemon listen on?');
    expect(again.prompt).toEqual(asked.prompt);
    expect(again.sources).toEqual(asked.sources);
    expect(JSON.stringify(again.prompt)).toContain(PORT_FACT);
  });

  it('a first visit loads the docs memory the index ships: the same prompt and links as indexing the pages, which are stored in the background', async () => {
    const question = 'Which port does the Zorblax daemon listen on?';
    const indexed = open((await writeDocsIndex(fixtureDir('indexed'), PAGES)).manifestUrl, `indexed-${Date.now()}`, SCRIPTED_MODEL_URL);
    await indexed.ready();
    expect(indexed.docsOrigin).toBe('built');
    const expected = await indexed.ask(question);

    const dir = fixtureDir('shipped');
    const { manifestUrl, manifest } = await writeDocsIndex(dir, PAGES, { memory: true });
    const storeName = `shipped-${Date.now()}`;
    clearRequests();
    const first = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await first.ready();
    expect(first.docsOrigin).toBe('shipped');
    expect(first.status.text).toMatch(/· 3 doc pages$/);
    expect(requestsUnder(`/${dir}/memory/`)).toEqual([`/${dir}/${manifest.memory!.file}`]);
    const asked = await first.ask(question);
    expect(asked.prompt).toEqual(expected.prompt);
    expect(asked.sources).toEqual(expected.sources);
    expect(JSON.stringify(asked.prompt)).toContain(PORT_FACT);
    // The page files are stored in the background; the memory is saved once they are.
    await first.saveDocsIndexNow();
    expect(first.lastSync).toMatchObject({ pages: 3, fetched: 3, removed: 0, failed: [] });
    await first.dispose();

    // The next visit has nothing to fetch: it restores what the first saved, and answers the same.
    clearRequests();
    const second = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await second.ready();
    expect(second.docsOrigin).toBe('restored');
    expect(requestsUnder(`/${dir}/`)).toEqual([`/${dir}/manifest.json`]);
    const again = await second.ask(question);
    expect(again.prompt).toEqual(expected.prompt);
  });

  it('a shipped docs memory built from other pages is not used: the pages are indexed here', async () => {
    const faq: FixturePage = { ...PAGES[1]!, sections: [{ anchor: 'license', heading: 'FAQ › License', text: 'The toolkit is released under the Apache-2.0 license since version 2.' }] };
    const warnings: string[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => void warnings.push(args.map(String).join(' '));
    try {
      const { manifestUrl } = await writeDocsIndex(fixtureDir('stale'), [PAGES[0]!, faq, PAGES[2]!], { memory: { builtFrom: PAGES } });
      const runtime = open(manifestUrl, `stale-${Date.now()}`, SCRIPTED_MODEL_URL);
      await runtime.ready();
      expect(runtime.docsOrigin).toBe('built');
      expect(warnings.some((w) => w.includes('other-pages'))).toBe(true);
      const result = await runtime.ask('Which license is the toolkit released under?');
      expect(JSON.stringify(result.prompt)).toContain('Apache-2.0');
      expect(JSON.stringify(result.prompt)).not.toContain('MIT license');
    } finally {
      console.warn = warn;
    }
  });

  it('re-opening after a re-index fetches only the changed page and forgets a removed one', async () => {
    const dir = fixtureDir('reindex');
    const { manifestUrl } = await writeDocsIndex(dir, PAGES);
    const storeName = `reindex-${Date.now()}`;
    const first = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await first.ready();
    await first.saveDocsIndexNow();
    await first.dispose();

    // A re-index: the FAQ changed, Theming is gone, Install is as it was.
    const faq: FixturePage = { ...PAGES[1]!, sections: [{ anchor: 'license', heading: 'FAQ › License', text: 'The toolkit is released under the Apache-2.0 license since version 2.' }] };
    // It ships a built memory, but one changed page of three chunks is not worth its download: only that page is fetched.
    const { files } = await writeDocsIndex(dir, [PAGES[0]!, faq], { memory: true });
    clearRequests();
    const second = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await second.ready();
    const fetched = requestsUnder(`/${dir}/`);
    expect(fetched.sort()).toEqual([`/${dir}/manifest.json`, `/${dir}/pages/${files[1]!.hash}.json`].sort());
    expect(second.lastSync).toMatchObject({ pages: 2, fetched: 1, removed: 1, failed: [] });
    // The docs changed since the first visit saved its index: indexed again, not restored.
    expect(second.docsOrigin).toBe('built');
    expect(second.status.text).toMatch(/· 2 doc pages$/);

    const result = await second.ask('What does the quokka palette do?');
    expect(JSON.stringify(result.prompt)).not.toContain('quokka palette tints');
    expect(result.sources.map((s) => s.href).filter((h) => h.includes('theming'))).toEqual([]);
    // The changed page is read as it is now (the prompt may hold it from the first answer's block: it is append-only).
    const license = await second.ask('Which license is the toolkit released under?');
    expect(JSON.stringify(license.prompt)).toContain('Apache-2.0');
    expect(JSON.stringify(license.prompt)).not.toContain('MIT license');
    expect(license.sources.map((s) => s.href)).toContain(`${location.origin}/docs-site/faq.html#license`);
  });

  it('a malformed manifest fails with docs_index_invalid, keeps the stored docs, and ready() retries', async () => {
    const dir = fixtureDir('malformed');
    const { manifestUrl, manifest } = await writeDocsIndex(dir, PAGES);
    const storeName = `malformed-${Date.now()}`;
    const first = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    await first.ready();
    await first.dispose();

    await writeRaw(`${dir}/manifest.json`, JSON.stringify({ ...manifest, pages: 'oops' }));
    const broken = open(manifestUrl, storeName, SCRIPTED_MODEL_URL);
    const error = await broken.ready().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'docs_index_invalid' });
    expect(broken.status).toMatchObject({ phase: 'error', error: { code: 'docs_index_invalid' } });
    expect(broken.status.text).toContain('docs_index_invalid');

    // Fixed on the server: the same runtime retries and answers from the docs it kept.
    await writeRaw(`${dir}/manifest.json`, JSON.stringify(manifest));
    clearRequests();
    const retrying: WidgetStatus[] = [];
    const stopWatching = broken.onStatus((s) => retrying.push(s));
    await broken.ready();
    stopWatching();
    // The model stayed loaded: the retry reads only the docs, and its loading line says so.
    const loading = retrying.filter((s) => s.phase === 'loading').map((s) => s.text);
    expect(loading.length).toBeGreaterThan(0);
    for (const text of loading) expect(text).toMatch(/^Reading the docs index/);
    expect(broken.lastSync).toMatchObject({ pages: 3, fetched: 0, removed: 0 });
    expect(requestsUnder(`/${dir}/pages/`)).toEqual([]);
    const result = await broken.ask('Which port does the Zorblax daemon listen on?');
    expect(userMessage(result.prompt)).toContain(PORT_FACT);
  });

  it('stopping an answer keeps what streamed as an interrupted reply, and the widget is ready again', async () => {
    const dir = fixtureDir('stop');
    const { manifestUrl } = await writeDocsIndex(dir, PAGES);
    const storeName = `stop-${Date.now()}`;
    // The loop model never stops on its own.
    const runtime = open(manifestUrl, storeName, 'models/test/qwen2-tiny-loop.gguf');
    const stop = new AbortController();
    let deltas = 0;
    const error = await runtime
      .ask('Which port does the Zorblax daemon listen on?', { signal: stop.signal, onDelta: () => ++deltas === 3 && stop.abort() })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'AbortError' });
    expect(runtime.status.phase).toBe('ready');
    await runtime.dispose();
    const store = await MemoryStore.open({ name: `qwen-widget:${storeName}` });
    const [session] = await store.listSessions();
    const turns = await store.listTurns(session!.id);
    expect(turns.map((t) => [t.role, t.status])).toEqual([['user', 'complete'], ['assistant', 'interrupted']]);
    expect(turns[1]!.content.length).toBeGreaterThan(0);
    await store.close();
  });
});

describe('widget runtime: before and beside the model', () => {
  it('searches the docs with no engine and no tokenizer: docsReady() loads the index alone', async () => {
    const { manifestUrl } = await writeDocsIndex(fixtureDir('search'), PAGES);
    let workers = 0;
    const storeName = `search-${Date.now()}`;
    const runtime = createWidgetRuntimeWith(
      { base: '/', model: SCRIPTED_MODEL_URL, docsIndex: manifestUrl, lang: 'en', window: 1024, storeName },
      { createWorker: () => (workers++, createScriptedUiWorker()) },
    );
    runtimes.push(runtime);
    stores.push(storeName);
    clearRequests();
    const hits = await runtime.search('which port does the daemon listen on');
    expect(hits[0]).toMatchObject({ title: 'Install', heading: 'Install › From npm' });
    expect(hits[0]!.href).toMatch(/\/guide\/install\.html#from-npm$/);
    expect(hits[0]!.snippet.filter((p) => p.mark).map((p) => p.text.toLowerCase())).toEqual(expect.arrayContaining(['port', 'daemon']));
    expect(await runtime.search('a recipe for lemon tart')).toEqual([]);
    expect(workers).toBe(0);
    expect(runtime.partsStarted).toEqual({ engine: false, tokenizer: false, docs: true });
    expect(requestsUnder('/tokenizer/')).toEqual([]);
    expect(runtime.status.phase).toBe('idle');
    expect(runtime.status.text).toBe('3 doc pages');
  });

  it('a question the docs do not cover gets "not in the docs" and the nearest sections, without asking the model', async () => {
    const { manifestUrl } = await writeDocsIndex(fixtureDir('uncovered'), PAGES);
    const runtime = open(manifestUrl, `uncovered-${Date.now()}`, SCRIPTED_MODEL_URL);
    await runtime.ready();
    // Off-topic: nothing passes the gate; no section is near either.
    const offTopic = await runtime.ask('What is a good recipe for lemon tart?');
    expect(offTopic.notInDocs).toBe(true);
    expect(offTopic.reply).toBe(NOT_IN_DOCS.en);
    expect(offTopic.tokens).toEqual({ prompt: 0, completion: 0, cached: 0 });
    // A near miss: close to a section in its letters (quokka…), not in its words; that section is the nearest.
    await runtime.reset();
    const nearMiss = await runtime.ask('Which quokkaesque mascots exist?');
    expect(nearMiss.notInDocs).toBe(true);
    expect(nearMiss.reply).toBe(NOT_IN_DOCS.en);
    expect(nearMiss.sources[0]?.heading).toBe('Theming › Palettes');
    // A covered question is answered by the model.
    await runtime.reset();
    const covered = await runtime.ask('Which port does the Zorblax daemon listen on?');
    expect(covered.notInDocs).toBe(false);
    expect(covered.reply).not.toBe(NOT_IN_DOCS.en);
    expect(covered.tokens.prompt).toBeGreaterThan(0);
    expect(covered.tokens.completion).toBeGreaterThan(0);
  });

  it('scope keeps the search, the prompt and the sources to the pages under a path', async () => {
    const { manifestUrl } = await writeDocsIndex(fixtureDir('scope'), PAGES);
    const storeName = `scope-${Date.now()}`;
    stores.push(storeName);
    const probe = createWidgetRuntimeWith({ base: '/', model: SCRIPTED_MODEL_URL, docsIndex: manifestUrl, lang: 'en', window: 1024, storeName }, { createWorker: createScriptedUiWorker });
    runtimes.push(probe);
    const license = (await probe.search('Which license is the toolkit released under?'))[0]!;
    expect(license.heading).toBe('FAQ › License');
    const guide = new URL('guide/', license.href).pathname;
    await probe.dispose();

    const runtime = createWidgetRuntimeWith({ base: '/', model: SCRIPTED_MODEL_URL, docsIndex: manifestUrl, lang: 'en', window: 1024, storeName, scope: guide }, { createWorker: createScriptedUiWorker });
    runtimes.push(runtime);
    const scoped = await runtime.search('Which license is the toolkit released under?', { scope: guide });
    expect(scoped.every((h) => new URL(h.href).pathname.startsWith(guide))).toBe(true);
    expect(scoped.map((h) => h.heading)).not.toContain('FAQ › License');
    await runtime.ready();
    // The FAQ is outside the scope: not in the prompt, not a source; the pages under it answer.
    const outside = await runtime.ask('Which license is the toolkit released under?');
    expect(outside.prompt.map((m) => m.content).join('\n')).not.toContain('MIT license');
    expect(outside.sources.every((s) => new URL(s.href).pathname.startsWith(guide))).toBe(true);
    await runtime.reset();
    const inside = await runtime.ask('Which port does the Zorblax daemon listen on?');
    expect(inside.prompt.map((m) => m.content).join('\n')).toContain(PORT_FACT);
    expect(inside.sources.map((s) => s.heading)).toContain('Install › From npm');
  });
});
