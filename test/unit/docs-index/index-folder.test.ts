import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { indexDocsFolder } from '../../../scripts/index-docs/index-folder.ts';
import { loadNodeQwenCounter } from '../../../scripts/prepare-tokenizer.ts';
import type { CachedTokenCounter } from '../../../src/context/tokens.ts';
import { parseDocsManifest, parseDocsPageFile } from '../../../src/docs-index/parse.ts';
import { decodeVector } from '../../../src/docs-index/vector-codec.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';

let counter: CachedTokenCounter;
const dirs: string[] = [];
beforeAll(async () => {
  counter = await loadNodeQwenCounter();
});
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'index-docs-'));
  dirs.push(d);
  return d;
}

function write(root: string, path: string, content: string | Uint8Array): void {
  const full = join(root, path);
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, content);
}

function goodSite(root: string): void {
  write(root, 'index.md', '---\ntitle: "Qwen docs"\ntags:\n  - intro\n---\n# Overview\n\nThe assistant runs in the browser.\n\n## Privacy\n\nNothing leaves the page.\n');
  write(root, 'guide/zh.md', '# 指南\n\n## 安装\n\n运行 npm install 即可。\n');
  write(root, 'api/page.html', '<html><head><title>API</title></head><body><nav>menu</nav><main><h2 id="ask">ask()</h2><p>Asks the model.</p></main></body></html>');
  write(root, 'notes.txt', 'not a docs file');
}

const pageFiles = (out: string): string[] => readdirSync(join(out, 'pages')).sort();
const mtimes = (out: string): Record<string, number> =>
  Object.fromEntries(pageFiles(out).map((f) => [f, statSync(join(out, 'pages', f)).mtimeMs]));
const memoryFiles = (out: string): string[] => readdirSync(join(out, 'memory')).map((f) => `memory/${f}`);

describe('indexDocsFolder', () => {
  it('indexes Markdown and HTML, publishes x.md as x.html, and writes files that parse back', async () => {
    const root = tempDir();
    const out = tempDir();
    goodSite(root);
    const { stats } = await indexDocsFolder(root, { out, counter, baseUrl: '/docs/' });
    expect(stats).toMatchObject({ files: 3, pages: 3, skipped: [] });
    const manifest = parseDocsManifest(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')));
    expect(manifest.baseUrl).toBe('/docs/');
    expect(manifest.embedder).toEqual({ id: 'hashed-ngram', version: 1, dimensions: 256 });
    expect(manifest.pages.map((p) => [p.url, p.title])).toEqual([
      ['api/page.html', 'API'],
      ['guide/zh.html', '指南'],
      ['index.html', 'Qwen docs'],
    ]);
    const embedder = new HashedNgramEmbedder();
    for (const entry of manifest.pages) {
      const page = parseDocsPageFile(JSON.parse(readFileSync(join(out, entry.file), 'utf8')));
      expect(page).toMatchObject({ url: entry.url, title: entry.title, hash: entry.hash });
      expect(page.chunks).toHaveLength(entry.chunks);
      for (const chunk of page.chunks) {
        // The vector the app itself would compute for this doc chunk (the store embeds the chunk text as a document).
        const own = embedder.embedOne(chunk.text);
        const back = decodeVector(chunk.vector);
        let dot = 0;
        for (let i = 0; i < own.length; i++) dot += own[i]! * back[i]!;
        const norm = Math.hypot(...back);
        expect(dot / norm).toBeGreaterThan(0.99);
        expect(chunk.tokens).toBe(counter.count(chunk.text));
      }
    }
    const index = parseDocsPageFile(JSON.parse(readFileSync(join(out, manifest.pages[2]!.file), 'utf8')));
    expect(index.chunks.map((c) => [c.anchor, c.heading])).toEqual([
      ['overview', 'Overview'],
      ['privacy', 'Overview › Privacy'],
    ]);
    expect(stats.bytes).toBe(
      statSync(join(out, 'manifest.json')).size +
        pageFiles(out).reduce((n, f) => n + statSync(join(out, 'pages', f)).size, 0) +
        statSync(join(out, manifest.memory!.file)).size,
    );
  });

  it('skips each malformed file with its reason and indexes the rest', async () => {
    const root = tempDir();
    goodSite(root);
    write(root, 'broken/unterminated.md', '---\ntitle: Never closed\n# Heading\n\ntext\n');
    write(root, 'broken/bad-yaml.md', '---\ntitle: ok\nthis line is not yaml\n---\n# H\n\ntext\n');
    write(root, 'broken/binary.md', new Uint8Array([0x23, 0x20, 0x48, 0x00, 0x01, 0x02]));
    write(root, 'broken/latin1.md', new Uint8Array([0x23, 0x20, 0x63, 0x61, 0x66, 0xe9, 0x0a]));
    write(root, 'broken/huge.md', `# Huge\n\n${'word '.repeat(5000)}\n`);
    write(root, 'broken/empty.md', '---\ntitle: Empty\n---\n\n');
    write(root, 'broken/blank.html', '<html><body><nav>only a menu</nav><script>x()</script></body></html>');
    const skips: string[] = [];
    const { stats, manifest } = await indexDocsFolder(root, { counter, maxBytes: 20_000, onSkip: (s) => skips.push(s.path) });
    expect(stats.pages).toBe(3);
    expect(manifest.pages.map((p) => p.url)).toEqual(['api/page.html', 'guide/zh.html', 'index.html']);
    const reasons = Object.fromEntries(stats.skipped.map((s) => [s.path, s.reason]));
    expect(reasons).toEqual({
      'broken/bad-yaml.md': 'front matter line 3 is not "key: value": "this line is not yaml"',
      'broken/binary.md': 'binary content (a NUL byte at offset 3)',
      'broken/blank.html': 'empty page (no text)',
      'broken/empty.md': 'empty page (no text)',
      'broken/huge.md': 'too large (0.02 MB, the limit is 0.02 MB)',
      'broken/latin1.md': 'not valid UTF-8 text',
      'broken/unterminated.md': 'front matter is not terminated (no closing "---")',
    });
    expect(skips).toEqual(Object.keys(reasons));
  });

  it('skips a file that would publish to the URL another file already has', async () => {
    const root = tempDir();
    write(root, 'guide.html', '<main><h1>Guide</h1><p>From HTML.</p></main>');
    write(root, 'guide.md', '# Guide\n\nFrom Markdown.\n');
    const { stats, manifest } = await indexDocsFolder(root, { counter });
    expect(manifest.pages.map((p) => p.url)).toEqual(['guide.html']);
    expect(stats.skipped).toEqual([{ path: 'guide.md', reason: 'same page URL guide.html as guide.html' }]);
    expect(() => parseDocsManifest(JSON.parse(JSON.stringify(manifest)))).not.toThrow();
  });

  it('re-indexing rewrites only the files of changed pages and deletes those of removed pages', async () => {
    const root = tempDir();
    const out = tempDir();
    goodSite(root);
    const first = await indexDocsFolder(root, { out, counter });
    expect(first.stats.write).toEqual({ written: 3, kept: 0, deleted: 0, memoryBytes: first.manifest.memory!.bytes, bytes: first.stats.bytes });
    // The built docs memory is the one file the manifest names, and it is gzipped.
    expect(memoryFiles(out)).toEqual([first.manifest.memory!.file]);
    expect([...readFileSync(join(out, first.manifest.memory!.file)).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    const memoryAt = statSync(join(out, first.manifest.memory!.file)).mtimeMs;
    const before = mtimes(out);
    await new Promise((r) => setTimeout(r, 20));

    const same = await indexDocsFolder(root, { out, counter });
    expect(same.stats.write).toMatchObject({ written: 0, kept: 3, deleted: 0 });
    expect(mtimes(out)).toEqual(before);
    expect(same.manifest.pages).toEqual(first.manifest.pages);
    // The same pages build the same memory, kept as it was.
    expect(same.manifest.memory).toEqual(first.manifest.memory);
    expect(statSync(join(out, first.manifest.memory!.file)).mtimeMs).toBe(memoryAt);

    write(root, 'guide/zh.md', '# 指南\n\n## 安装\n\n运行 npm install 即可，然后打开页面。\n');
    rmSync(join(root, 'api/page.html'));
    const changed = await indexDocsFolder(root, { out, counter });
    expect(changed.stats.write).toMatchObject({ written: 1, kept: 1, deleted: 2 });
    const after = mtimes(out);
    const indexFile = `${first.manifest.pages.find((p) => p.url === 'index.html')!.hash}.json`;
    expect(Object.keys(after)).toHaveLength(2);
    expect(after[indexFile]).toBe(before[indexFile]);
    expect(changed.manifest.pages.map((p) => p.url)).toEqual(['guide/zh.html', 'index.html']);
    // A new memory for the new pages; the old one is gone.
    expect(memoryFiles(out)).toEqual([changed.manifest.memory!.file]);
    expect(changed.manifest.memory!.file).not.toBe(first.manifest.memory!.file);
  });

  it('with memory: false (--no-memory) ships no built docs memory', async () => {
    const root = tempDir();
    const out = tempDir();
    goodSite(root);
    const { manifest, stats } = await indexDocsFolder(root, { out, counter, memory: false });
    expect(manifest.memory).toBeUndefined();
    expect(stats.write?.memoryBytes).toBe(0);
    expect(memoryFiles(out)).toEqual([]);
  });
});

describe('npm run index-docs (the CLI)', () => {
  const cli = (args: string[]): { status: number | null; stdout: string; stderr: string } => {
    const r = spawnSync(join('node_modules', '.bin', 'tsx'), ['scripts/index-docs/index-docs.ts', ...args], { encoding: 'utf8' });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it('prints skips and a summary, and exits 0 when something was indexed', () => {
    const root = tempDir();
    const out = tempDir();
    goodSite(root);
    write(root, 'bad.md', '---\ntitle: x\n');
    const r = cli([root, '--out', out, '--base-url', '/site/']);
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('skipped bad.md: front matter is not terminated (no closing "---")');
    expect(r.stdout).toMatch(/indexed 3 pages, \d+ chunks, [\d.]+ KB in [\d.]+ s \([\d.]+ pages\/s, [\d.]+ s CPU\), skipped 1/);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toMatchObject({ baseUrl: '/site/' });
  }, 30_000);

  it('exits non-zero with a message for a missing folder or a folder with nothing to index', () => {
    const out = tempDir();
    const missing = cli([join(out, 'nope'), '--out', out]);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain('does not exist');
    const root = tempDir();
    write(root, 'only.md', new Uint8Array([0, 1, 2]));
    const nothing = cli([root, '--out', out]);
    expect(nothing.status).toBe(1);
    expect(nothing.stderr).toContain('skipped only.md: binary content');
    expect(nothing.stderr).toContain('nothing indexed');
    expect(readdirSync(out)).toEqual([]);
    expect(cli([root]).status).toBe(2);
  }, 30_000);
});
