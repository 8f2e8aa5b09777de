import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as fsp from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeDocsIndex } from '../../../scripts/index-docs/write-index.ts';
import { DOCS_INDEX_VERSION, type DocsManifest, type DocsPageFile } from '../../../src/docs-index/format.ts';

/** When set, the next write of more than a few bytes stops halfway, as a killed process or a full disk would leave it. */
let interrupt = false;
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof fsp>();
  const writeFile = (async (path: Parameters<typeof real.writeFile>[0], data: string, options?: Parameters<typeof real.writeFile>[2]) => {
    if (interrupt && typeof data === 'string' && data.length > 10) {
      interrupt = false;
      await real.writeFile(path, data.slice(0, data.length >> 1), options);
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    return real.writeFile(path, data, options);
  }) as typeof real.writeFile;
  return { ...real, writeFile };
});

const dirs: string[] = [];
afterEach(() => {
  interrupt = false;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function page(n: number): DocsPageFile {
  return {
    version: DOCS_INDEX_VERSION,
    url: `p${n}.html`,
    title: `Page ${n}`,
    hash: String(n).repeat(64),
    chunks: [{ anchor: '', heading: '', text: `Page ${n}\n\nSome text of page ${n}.`, tokens: 9, vector: { scale: 0.01, q: 'AQID' } }],
  };
}

function manifestOf(pages: DocsPageFile[]): DocsManifest {
  return {
    version: DOCS_INDEX_VERSION,
    createdAt: '2024-01-01T00:00:00.000Z',
    embedder: { id: 'hashed-ngram', version: 1, dimensions: 256 },
    baseUrl: '/',
    pages: pages.map((p) => ({ url: p.url, title: p.title, hash: p.hash, file: `pages/${p.hash}.json`, chunks: p.chunks.length })),
  };
}

describe('writeDocsIndex', () => {
  it('never leaves a page file cut short by an interrupted write: the next run writes it whole', async () => {
    const out = mkdtempSync(join(tmpdir(), 'write-index-'));
    dirs.push(out);
    const pages = [page(1), page(2)];
    interrupt = true;
    await expect(writeDocsIndex(out, manifestOf(pages), pages)).rejects.toThrow(/ENOSPC/);
    // Whatever the failed run left behind is not a page file a later run would keep as it is.
    for (const name of readdirSync(join(out, 'pages'))) {
      if (/^[0-9a-f]{64}\.json$/.test(name)) expect(() => JSON.parse(readFileSync(join(out, 'pages', name), 'utf8'))).not.toThrow();
    }

    const stats = await writeDocsIndex(out, manifestOf(pages), pages);
    expect(stats).toMatchObject({ written: 2, kept: 0, deleted: 0 });
    for (const p of pages) expect(JSON.parse(readFileSync(join(out, 'pages', `${p.hash}.json`), 'utf8'))).toEqual(p);
    expect(readdirSync(join(out, 'pages')).sort()).toEqual(pages.map((p) => `${p.hash}.json`));
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'))).toEqual(manifestOf(pages));

    const again = await writeDocsIndex(out, manifestOf(pages), pages);
    expect(again).toMatchObject({ written: 0, kept: 2, deleted: 0 });
  });
});
