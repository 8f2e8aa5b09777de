/**
 * Writes an index to `<out>`: `pages/<hash>.json` for each page whose file is not there yet (a file named by its
 * content hash never needs rewriting), page files no page uses any more deleted, then `manifest.json` (last, so a
 * reader never sees a manifest naming a file not yet written). Each file is written under a temporary name in the
 * same folder and renamed into place, so an interrupted run never leaves a cut-short file under a name a later run
 * would keep as it is.
 */
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DocsManifest, DocsPageFile } from '../../src/docs-index/format.ts';

export interface WriteStats {
  /** Page files written (new or changed pages). */
  written: number;
  /** Page files already there and kept as they were. */
  kept: number;
  /** Page files of pages no longer present, deleted. */
  deleted: number;
  /** Bytes of the index: the manifest plus every page file it names. */
  bytes: number;
}

const PAGE_FILE = /^[0-9a-f]{64}\.json$/;

/** Writes `path` whole or not at all: to a temporary name beside it, then renamed over it (atomic on one filesystem). */
async function writeAtomic(path: string, data: string): Promise<void> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

export async function writeDocsIndex(out: string, manifest: DocsManifest, pages: readonly DocsPageFile[]): Promise<WriteStats> {
  const dir = join(out, 'pages');
  await mkdir(dir, { recursive: true });
  const existing = new Set((await readdir(dir)).filter((name) => PAGE_FILE.test(name)));
  const stats: WriteStats = { written: 0, kept: 0, deleted: 0, bytes: 0 };
  const wanted = new Set<string>();
  for (const page of pages) {
    const name = `${page.hash}.json`;
    if (wanted.has(name)) continue;
    wanted.add(name);
    const path = join(dir, name);
    if (existing.has(name)) {
      stats.kept += 1;
      stats.bytes += (await stat(path)).size;
      continue;
    }
    const json = JSON.stringify(page);
    await writeAtomic(path, json);
    stats.written += 1;
    stats.bytes += Buffer.byteLength(json);
  }
  const manifestJson = JSON.stringify(manifest, null, 1);
  await writeAtomic(join(out, 'manifest.json'), manifestJson);
  stats.bytes += Buffer.byteLength(manifestJson);
  for (const name of existing) {
    if (wanted.has(name)) continue;
    await rm(join(dir, name));
    stats.deleted += 1;
  }
  return stats;
}
