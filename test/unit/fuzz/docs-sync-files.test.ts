/**
 * Fuzzing the widget's docs sync with the index `index-docs` writes (a small generated folder), in Node: the
 * manifest or one page file is mutated structurally and served by a fake fetch to `syncDocsIndex` over a
 * recording store. Each run ends in a result or a coded `docs_index_invalid` rejection; a bad manifest writes
 * nothing, a bad page file is reported as failed and only the other pages are written, and nothing is deleted
 * unless every page was read. (The same against a real IndexedDB store: test/browser/fuzz/docs-sync.test.ts.)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDocsFolder } from '../../../scripts/index-docs/index-folder.ts';
import { loadNodeQwenCounter } from '../../../scripts/prepare-tokenizer.ts';
import type { DocsManifest } from '../../../src/docs-index/format.ts';
import type { DocInput } from '../../../src/memory/store/docs.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { syncDocsIndex } from '../../../src/widget/runtime/docs-sync.ts';
import { DOCS, writeDocs } from '../../fixtures/fuzz/docs-folder.ts';
import { mutatedText } from '../../fixtures/fuzz/json-mutations.ts';
import { outcome, fuzzRuns } from '../../fixtures/fuzz/time-bound.ts';

type Json = Parameters<typeof mutatedText>[0];
const BASE = 'http://docs.test/index/';
let dir: string;
let files: Map<string, string>;
let manifest: DocsManifest;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fuzz-sync-'));
  writeDocs(join(dir, 'docs'), DOCS);
  const { pages } = await indexDocsFolder(join(dir, 'docs'), { out: join(dir, 'out'), counter: await loadNodeQwenCounter() });
  manifest = JSON.parse(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8')) as DocsManifest;
  files = new Map([['manifest.json', readFileSync(join(dir, 'out', 'manifest.json'), 'utf8')]]);
  for (const p of pages) files.set(`pages/${p.hash}.json`, readFileSync(join(dir, 'out', 'pages', `${p.hash}.json`), 'utf8'));
}, 30_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Only what the sync uses of a store; `putDocs` records what would be written. */
function recordingStore(stored: string[]): { store: MemoryStore; written: DocInput[]; deleted: string[] } {
  const written: DocInput[] = [];
  const deleted: string[] = [];
  const store = {
    embedder: new HashedNgramEmbedder(),
    listDocs: async () => stored.map((docId) => ({ docId, source: docId, hash: 'old', chunks: 1, updatedAt: 0 })),
    putDocs: async (inputs: readonly DocInput[]) => {
      written.push(...inputs);
      return inputs.map(() => []);
    },
    deleteDoc: async (docId: string) => void deleted.push(docId),
  };
  return { store: store as unknown as MemoryStore, written, deleted };
}

const serve = (served: Map<string, string>): typeof fetch =>
  (async (input: RequestInfo | URL) => {
    const path = String(input).slice(BASE.length);
    const body = served.get(path);
    return body === undefined ? new Response('', { status: 404 }) : new Response(body, { status: 200 });
  }) as typeof fetch;

describe('syncDocsIndex under mutated index files', () => {
  it('the unmutated index syncs whole', async () => {
    const { store, written } = recordingStore([]);
    const result = await syncDocsIndex(store, `${BASE}manifest.json`, { fetch: serve(files) });
    expect(result).toMatchObject({ pages: 4, fetched: 4, failed: [], reembedded: false });
    expect(written.map((w) => w.docId).sort()).toEqual(manifest.pages.map((p) => p.url).sort());
  });

  it('ends in a result or a coded rejection; a bad manifest writes nothing, a bad page only skips itself', async () => {
    const names = [...files.keys()];
    const target = fc.nat({ max: names.length - 1 }).chain((i) =>
      mutatedText(JSON.parse(files.get(names[i]!)!) as Json).map((text) => ({ name: names[i]!, text })),
    );
    await fc.assert(
      fc.asyncProperty(target, async ({ name, text }) => {
        const served = new Map(files).set(name, text);
        // One page stored that the index no longer lists: it may go only when every page was read.
        const { store, written, deleted } = recordingStore(['gone.html']);
        const result = await outcome(2_000, 'syncDocsIndex', () => syncDocsIndex(store, `${BASE}manifest.json`, { fetch: serve(served) }));
        if (!result.ok) {
          expect(result.error).toBeInstanceOf(AssistantError);
          expect((result.error as AssistantError).code).toBe('docs_index_invalid');
          expect(name).toBe('manifest.json');
          expect(written).toEqual([]);
          expect(deleted).toEqual([]);
          return;
        }
        const { failed, manifest: read } = result.value;
        for (const f of failed) expect(f.code).toBe('docs_index_invalid');
        expect(written.length + failed.length).toBe(read.pages.length);
        for (const input of written) {
          expect(input.texts.every((t) => typeof t === 'string')).toBe(true);
          expect(input.tokenCounts?.every((n) => Number.isInteger(n) && n >= 0)).toBe(true);
          expect(input.meta?.every((m) => /^https?:/.test(m.url))).toBe(true);
        }
        expect(deleted).toEqual(failed.length === 0 && !read.pages.some((p) => p.url === 'gone.html') ? ['gone.html'] : []);
      }),
      fuzzRuns(150, 30_000),
    );
  }, 30_000);
});
