/**
 * Fuzzing `index-docs` (on a temp folder, the real Qwen tokenizer) and the app's docs import (`importDocFiles`, over
 * a recording store) with mutated pages, raw bytes included (NUL, invalid UTF-8): every file is indexed or skipped
 * with a coded reason, never "failed"; index-docs never throws, and what it writes parses back and matches.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexDocsFolder } from '../../../scripts/index-docs/index-folder.ts';
import { loadNodeQwenCounter } from '../../../scripts/prepare-tokenizer.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { parseDocsManifest, parseDocsPageFile } from '../../../src/docs-index/parse.ts';
import type { DocInput } from '../../../src/memory/store/docs.ts';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { importDocFiles } from '../../../src/ui/data/docs-import.ts';
import { DOCS, writeDocs } from '../../fixtures/fuzz/docs-folder.ts';
import { described, mutatedPage } from '../../fixtures/fuzz/text-mutations.ts';
import { within, fuzzRuns } from '../../fixtures/fuzz/time-bound.ts';

let counter: CachedTokenCounter;
const dirs: string[] = [];
beforeAll(async () => {
  counter = await loadNodeQwenCounter();
}, 30_000);
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const encoder = new TextEncoder();
/** Bytes a text file cannot hold as UTF-8: a NUL, a lone continuation byte, a cut multi-byte sequence. */
const badBytes = fc.constantFrom(new Uint8Array([0]), new Uint8Array([0x80]), new Uint8Array([0xe4, 0xb8]), new Uint8Array([0xff, 0xfe]));

/** A docs folder: each page kept, mutated (kept small: the real tokenizer runs), or given bad bytes. */
const folder = fc
  .tuple(
    ...Object.entries(DOCS).map(([path, text]) =>
      fc.oneof(
        fc.constant(encoder.encode(text)),
        mutatedPage(text).map((t) => encoder.encode(t.slice(0, 30_000))),
        fc.tuple(badBytes, fc.nat()).map(([bad, at]) => {
          const bytes = encoder.encode(text);
          const i = at % (bytes.length + 1);
          return new Uint8Array([...bytes.subarray(0, i), ...bad, ...bytes.subarray(i)]);
        }),
      ).map((bytes) => [path, bytes] as const),
    ),
  )
  .map((entries) => described({ files: Object.fromEntries(entries) as Record<string, Uint8Array<ArrayBuffer>> }, entries.map(([p, b]) => `${p}:${b.length}`).join(' ')));

describe('index-docs on mutated folders', () => {
  it('indexes or skips each file with a coded reason, and writes an index that parses back', async () => {
    await fc.assert(
      fc.asyncProperty(folder, async ({ files }) => {
        const root = mkdtempSync(join(tmpdir(), 'fuzz-index-'));
        dirs.push(root);
        writeDocs(join(root, 'docs'), files);
        const out = join(root, 'out');
        const { stats, pages } = await within(10_000, 'indexDocsFolder', () => indexDocsFolder(join(root, 'docs'), { out, counter }));
        expect(stats.pages + stats.skipped.length).toBe(Object.keys(files).length);
        for (const s of stats.skipped) expect(s.reason).not.toMatch(/^(failed|unreadable)/);
        if (stats.pages === 0) return;
        const manifest = parseDocsManifest(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
        expect(manifest.pages.map((p) => p.hash)).toEqual(pages.map((p) => p.hash));
        for (const entry of manifest.pages) {
          const page = parseDocsPageFile(JSON.parse(readFileSync(join(out, entry.file), 'utf8')));
          expect([page.url, page.hash, page.chunks.length]).toEqual([entry.url, entry.hash, entry.chunks]);
        }
      }),
      fuzzRuns(30, 120_000),
    );
  }, 120_000);
});

describe("the app's docs import on mutated files", () => {
  it('imports or skips each file with a reason code, never "failed", and writes only what it counts', async () => {
    await fc.assert(
      fc.asyncProperty(folder, async ({ files }) => {
        const written: DocInput[] = [];
        const store = { putDoc: async (input: DocInput) => void written.push(input) } as unknown as MemoryStore;
        // Node's File has no `webkitRelativePath`: set it as a folder pick does.
        const list = Object.entries(files).map(([path, bytes]) =>
          Object.defineProperty(new File([bytes], path.split('/').pop()!), 'webkitRelativePath', { value: `docs/${path}` }),
        );
        const result = await within(10_000, 'importDocFiles', () => importDocFiles(list, { store, counter }));
        expect(result.docs + result.skipped.length).toBe(list.length);
        for (const s of result.skipped) expect(s.reason).not.toBe('failed');
        expect(written).toHaveLength(result.docs);
        expect(written.reduce((n, w) => n + w.texts.length, 0)).toBe(result.chunks);
      }),
      fuzzRuns(30, 120_000),
    );
  }, 120_000);
});
