/**
 * Imports a folder (or a selection) of Markdown files as knowledge: each file is split by heading with the same
 * splitter as `npm run index-docs` and written into the store's docs namespace, one doc per file (re-importing a
 * file replaces it), each chunk with its file path and heading. Files that are not Markdown or HTML are ignored;
 * malformed ones (broken front matter, binary, too large, empty) are skipped with their reason and the rest
 * imported. Loaded with `import()` when the user imports, so the page's first paint carries none of it.
 */
import { checkSize, decodeDocBytes } from '../../docs-index/decode.ts';
import { chunkDoc, docKind } from '../../docs-index/page.ts';
import { DocSkipError, type DocSkipReason } from '../../docs-index/skip.ts';
import type { MemoryStore, TokenCount } from '../../memory/store/index.ts';
import { isAbortError } from '../../shared/errors.ts';

export interface DocsImportSkip {
  path: string;
  /** Why, as a code the UI words in its language ('failed' for an unexpected error). */
  reason: DocSkipReason | 'failed';
  params: Readonly<Record<string, string | number>>;
  /** The English message. */
  message: string;
}

export interface DocsImportProgress {
  done: number;
  total: number;
}

export interface DocsImportResult {
  /** Docs written (one per file), and their chunks. */
  docs: number;
  chunks: number;
  skipped: DocsImportSkip[];
  /** Files that are not docs (images, …), left alone. */
  ignored: number;
}

/** The file's path in the chosen folder (`docs/guide/install.md`), or its name for a plain selection. */
export const docPath = (file: File): string => (file.webkitRelativePath !== '' ? file.webkitRelativePath : file.name);

/** The doc id an imported file is stored under: importing the same path again replaces it. */
export const importedDocId = (path: string): string => `file:${path}`;

async function readText(file: File): Promise<string> {
  checkSize(file.size);
  return decodeDocBytes(new Uint8Array(await file.arrayBuffer()));
}

function skipOf(path: string, error: unknown): DocsImportSkip {
  if (error instanceof DocSkipError) return { path, reason: error.reason, params: error.params, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { path, reason: 'failed', params: { detail: message }, message };
}

export async function importDocFiles(
  files: readonly File[],
  deps: { store: MemoryStore; counter: TokenCount; onProgress?: (p: DocsImportProgress) => void; signal?: AbortSignal },
): Promise<DocsImportResult> {
  const docs = files
    .map((file) => ({ file, path: docPath(file) }))
    .filter((f) => docKind(f.path) !== null)
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const result: DocsImportResult = { docs: 0, chunks: 0, skipped: [], ignored: files.length - docs.length };
  deps.onProgress?.({ done: 0, total: docs.length });
  for (const [i, { file, path }] of docs.entries()) {
    deps.signal?.throwIfAborted();
    try {
      const { title, chunks } = chunkDoc(path, await readText(file), deps.counter);
      await deps.store.putDoc({
        docId: importedDocId(path),
        source: path,
        texts: chunks.map((c) => c.text),
        tokenCounts: chunks.map((c) => c.tokens),
        meta: chunks.map((c) => ({ url: path, anchor: c.anchor, title, heading: c.heading })),
      });
      result.docs += 1;
      result.chunks += chunks.length;
    } catch (error) {
      if (isAbortError(error)) throw error;
      // A store failure (quota) is not the file's fault: it stops the import rather than being skipped.
      if (!(error instanceof DocSkipError) && (error as { code?: unknown } | null)?.code === 'storage_full') throw error;
      result.skipped.push(skipOf(path, error));
    }
    deps.onProgress?.({ done: i + 1, total: docs.length });
  }
  return result;
}
