/**
 * A small docs index in the index format (src/docs-index/format.ts), written by the test into a folder the browser
 * project's Vite server serves (`.cache/widget-runtime/<id>/`): page files named by content hash, vectors from the
 * default embedder (int8, base64), exact Qwen token counts, and (when asked) the built docs memory.
 */
import { commands } from 'vitest/browser';
import { DOCS_INDEX_VERSION, type DocsChunk, type DocsManifest, type DocsPageFile } from '../../../src/docs-index/format.ts';
import { encodeVector } from '../../../src/docs-index/vector-codec.ts';
import { embedderKey } from '../../../src/memory/embedders/embedder.ts';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { qwenCounter } from '../../../src/ui/controllers/context-planner.ts';
import { SHIPPED_DOCS_KEY, buildShippedDocsFile } from '../../../src/widget/runtime/shipped-docs.ts';

export interface FixtureSection {
  anchor: string;
  heading: string;
  text: string;
}

export interface FixturePage {
  url: string;
  title: string;
  sections: FixtureSection[];
}

const embedder = new HashedNgramEmbedder();
const written = new Set<string>();

async function write(path: string, content: string): Promise<void> {
  await commands.writeFile(path, content);
  written.add(path);
}

/** Deletes every fixture file written so far (call in `afterAll`). */
export async function removeFixtures(): Promise<void> {
  for (const path of written) await commands.removeFile(path).catch(() => undefined);
  written.clear();
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export async function pageFile(page: FixturePage, key = embedderKey(embedder)): Promise<DocsPageFile> {
  const counter = await qwenCounter();
  const chunks: DocsChunk[] = page.sections.map((s) => ({
    anchor: s.anchor,
    heading: s.heading,
    text: s.text,
    tokens: counter.count(s.text),
    vector: encodeVector(embedder.embedOne(s.text)),
  }));
  const hash = await sha256(JSON.stringify([key, page.title, chunks.map((c) => [c.anchor, c.heading, c.text])]));
  return { version: DOCS_INDEX_VERSION, url: page.url, title: page.title, hash, chunks };
}

/** A fresh folder id for one test's index. */
export function fixtureDir(label: string): string {
  return `.cache/widget-runtime/${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/**
 * Writes the page files and the manifest; returns the manifest's URL (served by the test server). `memory`: also
 * the built docs memory, as `index-docs` ships it (`memory: 'stale'`: one built from other pages than these).
 */
export async function writeDocsIndex(
  dir: string,
  pages: FixturePage[],
  options: { baseUrl?: string; memory?: boolean | { builtFrom: FixturePage[] } } = {},
): Promise<{ manifestUrl: string; manifest: DocsManifest; files: DocsPageFile[] }> {
  const files = await Promise.all(pages.map((p) => pageFile(p)));
  for (const file of files) await write(`${dir}/pages/${file.hash}.json`, JSON.stringify(file));
  const manifest: DocsManifest = {
    version: DOCS_INDEX_VERSION,
    createdAt: new Date().toISOString(),
    embedder: { id: embedder.id, version: embedder.version, dimensions: embedder.dimensions },
    baseUrl: options.baseUrl ?? '/docs-site/',
    pages: files.map((f) => ({ url: f.url, title: f.title, hash: f.hash, file: `pages/${f.hash}.json`, chunks: f.chunks.length })),
  };
  if (options.memory !== undefined && options.memory !== false) {
    const from = options.memory === true ? { manifest, files } : await writeDocsIndex(`${dir}/stale`, options.memory.builtFrom);
    const bytes = await buildShippedDocsFile(from.manifest, from.files);
    const hash = [...new Uint8Array(await crypto.subtle.digest('SHA-256', bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    await commands.writeFile(`${dir}/memory/${hash}.bin`, btoa(binary), { encoding: 'base64' });
    written.add(`${dir}/memory/${hash}.bin`);
    manifest.memory = { file: `memory/${hash}.bin`, key: SHIPPED_DOCS_KEY, bytes: bytes.byteLength };
  }
  await write(`${dir}/manifest.json`, JSON.stringify(manifest));
  return { manifestUrl: `/${dir}/manifest.json`, manifest, files };
}

export function writeRaw(path: string, content: string): Promise<void> {
  return write(path, content);
}

/** Fetches of URLs under `prefix` since the last `clearRequests()` (the page's resource timings). */
export function requestsUnder(prefix: string): string[] {
  return performance
    .getEntriesByType('resource')
    .map((e) => new URL(e.name).pathname)
    .filter((p) => p.startsWith(prefix));
}

export function clearRequests(): void {
  performance.setResourceTimingBufferSize(100_000);
  performance.clearResourceTimings();
}
