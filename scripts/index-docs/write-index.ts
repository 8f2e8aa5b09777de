/**
 * Writes an index to `<out>`: `pages/<hash>.json` for each page whose file is not there yet (a file named by its
 * content hash never needs rewriting), the built docs memory as `memory/<hash>.bin` when there is one, then
 * `manifest.json` (after them, so a reader never sees a manifest naming a file not yet written), then the page and
 * memory files nothing names any more are deleted. Each file is written under a temporary name in the
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
  /** Bytes of the built docs memory file (0 without one); counted in `bytes` too. */
  memoryBytes: number;
  /** Bytes of the index: the manifest plus every page file it names. */
  bytes: number;
}

const PAGE_FILE = /^[0-9a-f]{64}\.json$/;
const MEMORY_FILE = /^[0-9a-f]{64}\.bin$/;

/** Writes `path` whole or not at all: to a temporary name beside it, then renamed over it (atomic on one filesystem). */
async function writeAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** `memory`: the file `manifest.memory` names (built docs memory), or null when the manifest names none. */
export async function writeDocsIndex(out: string, manifest: DocsManifest, pages: readonly DocsPageFile[], memory: Uint8Array | null = null): Promise<WriteStats> {
  const dir = join(out, 'pages');
  await mkdir(dir, { recursive: true });
  const existing = new Set((await readdir(dir)).filter((name) => PAGE_FILE.test(name)));
  const stats: WriteStats = { written: 0, kept: 0, deleted: 0, memoryBytes: 0, bytes: 0 };
  const memoryDir = join(out, 'memory');
  await mkdir(memoryDir, { recursive: true });
  const memoryName = manifest.memory?.file.slice('memory/'.length) ?? null;
  if ((memory === null) !== (memoryName === null)) throw new Error('the manifest names a docs memory file exactly when one is given');
  if (memory !== null && memoryName !== null) {
    // Named by its content hash, like a page file: one already there is this one.
    const path = join(memoryDir, memoryName);
    if (!(await stat(path).then((s) => s.size === memory.byteLength, () => false))) await writeAtomic(path, memory);
    stats.memoryBytes = memory.byteLength;
    stats.bytes += memory.byteLength;
  }
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
  for (const name of await readdir(memoryDir)) if (MEMORY_FILE.test(name) && name !== memoryName) await rm(join(memoryDir, name));
  return stats;
}
