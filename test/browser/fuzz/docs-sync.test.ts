/**
 * Fuzzing the widget's docs sync against a real IndexedDB store. The store holds index A (pages a, b, c); index B
 * keeps a, changes b, drops c and adds d. B's manifest or one of its page files is mutated structurally and served
 * to `syncDocsIndex` by a fake fetch. The design is per page, so what is kept is exact:
 * - a manifest that does not parse: rejected with `docs_index_invalid`, every record deep-equal to before;
 * - a page file that is malformed, mismatched or missing: listed in `failed` with a code, its stored version (or
 *   its absence) deep-equal to before, the other changed pages written, and no page deleted (c stays);
 * - everything read: c deleted, and each written page holds exactly the chunks of the file that was served.
 */
import fc from 'fast-check';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DOCS_INDEX_VERSION, type DocsManifest, type DocsPageFile } from '../../../src/docs-index/format.ts';
import { parseDocsPageFile } from '../../../src/docs-index/parse.ts';
import { deleteMemoryDB } from '../../../src/memory/store/db.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { AssistantError } from '../../../src/shared/errors.ts';
import { syncDocsIndex } from '../../../src/widget/runtime/docs-sync.ts';
import { mutatedText } from '../../fixtures/fuzz/json-mutations.ts';
import { described } from '../../fixtures/fuzz/text-mutations.ts';
import { within, fuzzRuns } from '../../fixtures/fuzz/time-bound.ts';
import { pageFile, type FixturePage } from '../widget-runtime/docs-fixture.ts';
import { canonical, dumpDatabase } from './store-dump.ts';

type Json = Parameters<typeof mutatedText>[0];
const BASE = `${location.origin}/fuzz-docs/`;
const embedder = new HashedNgramEmbedder();
const page = (url: string, ...texts: string[]): FixturePage => ({
  url,
  title: url.replace('.html', ''),
  sections: texts.map((text, i) => ({ anchor: `s${i}`, heading: `Part ${i}`, text })),
});

function manifestOf(files: DocsPageFile[]): DocsManifest {
  return {
    version: DOCS_INDEX_VERSION,
    createdAt: '2026-01-01T00:00:00.000Z',
    embedder: { id: embedder.id, version: embedder.version, dimensions: embedder.dimensions },
    baseUrl: '/docs-site/',
    pages: files.map((f) => ({ url: f.url, title: f.title, hash: f.hash, file: `pages/${f.hash}.json`, chunks: f.chunks.length })),
  };
}

function served(files: DocsPageFile[]): Map<string, string> {
  const out = new Map([['manifest.json', JSON.stringify(manifestOf(files))]]);
  for (const f of files) out.set(`pages/${f.hash}.json`, JSON.stringify(f));
  return out;
}

const serve = (files: Map<string, string>): typeof fetch =>
  (async (input: RequestInfo | URL) => {
    const body = files.get(String(input).slice(BASE.length));
    return body === undefined ? new Response('', { status: 404 }) : new Response(body, { status: 200 });
  }) as typeof fetch;

let indexA: Map<string, string>;
let indexB: Map<string, string>;
beforeAll(async () => {
  const a = await pageFile(page('a.html', 'Backups run nightly.', 'They keep seven days.'));
  const b1 = await pageFile(page('b.html', 'The widget loads lazily.'));
  const b2 = await pageFile(page('b.html', 'The widget loads on first click.', 'It caches the model.'));
  const c = await pageFile(page('c.html', 'An old page about quokkas.'));
  const d = await pageFile(page('d.html', '新页面：离线使用。'));
  indexA = served([a, b1, c]);
  indexB = served([a, b2, d]);
});

const names: string[] = [];
afterEach(async () => {
  for (const n of names.splice(0)) await deleteMemoryDB(n);
});

/** Each stored doc's summary and chunks, by doc id (the derived stats snapshot left out, see store-dump.ts). */
async function docsByPage(name: string): Promise<Map<string, string>> {
  const dump = await dumpDatabase(name);
  const out = new Map<string, string>();
  for (const r of dump['meta'] as Array<{ key: string; docId?: string }>) if (r.key.startsWith('doc:')) out.set(r.docId!, canonical(r));
  for (const c of dump['docChunks'] as Array<{ docId: string; part: number }>) out.set(`${c.docId}#${c.part}`, canonical(c));
  return out;
}

const target = fc
  .constantFrom('manifest.json', 'b', 'd')
  .chain((which) => {
    const hash = JSON.parse(indexB.get('manifest.json')!).pages.find((p: { url: string }) => p.url === `${which}.html`)?.hash as string | undefined;
    const name = hash === undefined ? which : `pages/${hash}.json`;
    return mutatedText(JSON.parse(indexB.get(name)!) as Json, 100_000).map((text) => described({ name, text }, text));
  });

describe('docs sync under mutated index files (IndexedDB)', () => {
  it('keeps exactly what the per-page design promises', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.noShrink(target), async ({ name, text }) => {
        const db = `test-fuzz-docs-${Date.now().toString(36)}-${run++}`;
        names.push(db);
        const store = await MemoryStore.open({ name: db, logger: { warn: () => {} } });
        try {
          await syncDocsIndex(store, `${BASE}manifest.json`, { fetch: serve(indexA) });
          await store.whenIdle();
          const before = await docsByPage(db);
          const files = new Map(indexB).set(name, text);
          let result: Awaited<ReturnType<typeof syncDocsIndex>> | null = null;
          let error: unknown = null;
          try {
            result = await within(5_000, 'syncDocsIndex', () => syncDocsIndex(store, `${BASE}manifest.json`, { fetch: serve(files) }));
          } catch (e) {
            error = e;
          }
          await store.whenIdle();
          const after = await docsByPage(db);
          if (result === null) {
            expect(error).toBeInstanceOf(AssistantError);
            expect((error as AssistantError).code).toBe('docs_index_invalid');
            expect(name).toBe('manifest.json');
            expect(after).toEqual(before);
            return;
          }
          const failed = new Set(result.failed.map((f) => f.url));
          for (const f of result.failed) expect(['docs_index_invalid', 'docs_index_not_found']).toContain(f.code);
          const sameAs = (prefix: string, map: Map<string, string>): string[] => [...map].filter(([k]) => k === prefix || k.startsWith(`${prefix}#`)).map(([, v]) => v);
          for (const entry of result.manifest.pages) {
            if (failed.has(entry.url)) {
              expect(sameAs(entry.url, after)).toEqual(sameAs(entry.url, before));
              continue;
            }
            const chunks = await store.listDocChunks(entry.url);
            const file = parseDocsPageFile(JSON.parse(files.get(entry.file)!));
            expect(chunks.map((c) => c.text)).toEqual(file.chunks.map((c) => c.text));
          }
          // c.html is gone from B: deleted only when every page was read.
          const cKept = sameAs('c.html', after);
          if (result.failed.length > 0 || result.manifest.pages.some((p) => p.url === 'c.html')) expect(cKept).toEqual(sameAs('c.html', before));
          else expect(cKept).toEqual([]);
        } finally {
          await store.close();
        }
      }),
      fuzzRuns(40, 90_000),
    );
  }, 90_000);
});
