/**
 * The eval's `--embedder` choice, checked before anything is loaded: `hashed` (the default, the memory's built-in
 * hashed n-gram vectors) or `engine` (an embedding GGUF run by the app's engine in Chromium, engine-embedder.ts).
 * A wrong choice is a `UsageError`: the command prints its message and exits with code 2, without a stack trace.
 * Kept apart from engine-embedder.ts so that a default run loads neither Playwright nor Vite.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

/** A mistake on the command line: its message says what to give instead; the exit code is 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode = 2;
}

export type EmbedderKind = 'hashed' | 'engine';

/** Texts per engine request when the stored turns are embedded (the app's indexer sends 8). */
export const DEFAULT_EMBED_BATCH = 8;

export interface EmbedderFlags {
  embedder: string;
  embeddingModel: string | null;
  embedBatch: number;
}

export type EmbedderChoice = { readonly kind: 'hashed' } | { readonly kind: 'engine'; readonly modelPath: string; readonly batch: number };

/** The first four bytes of every GGUF file. */
const GGUF_MAGIC = 'GGUF';

/**
 * The embedder the flags ask for, with the model file checked: it must exist, be a file and start as a GGUF
 * does. `strategy`: the run's; engine vectors serve the pipeline only (`full`).
 */
export function embedderChoice(flags: EmbedderFlags, strategy: string): EmbedderChoice {
  if (flags.embedder !== 'hashed' && flags.embedder !== 'engine') throw new UsageError(`--embedder must be hashed or engine, not ${JSON.stringify(flags.embedder)}`);
  if (flags.embedder === 'hashed') {
    if (flags.embeddingModel !== null) throw new UsageError('--embedding-model goes with --embedder engine');
    return { kind: 'hashed' };
  }
  if (strategy !== 'full') throw new UsageError('--embedder engine applies to the pipeline (--strategy full) only');
  if (flags.embeddingModel === null || flags.embeddingModel.trim() === '') {
    throw new UsageError('--embedder engine needs the embedding model file: --embedding-model <path to a .gguf> (e.g. multilingual-e5-small-q8_0.gguf)');
  }
  if (!Number.isInteger(flags.embedBatch) || flags.embedBatch < 1) throw new UsageError('--embed-batch must be a whole number ≥ 1');
  const modelPath = resolve(flags.embeddingModel);
  let size: number;
  try {
    const stat = statSync(modelPath);
    if (!stat.isFile()) throw new UsageError(`--embedding-model ${flags.embeddingModel}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`--embedding-model ${flags.embeddingModel}: no such file (looked at ${modelPath})`);
  }
  if (size < GGUF_MAGIC.length || readHead(modelPath, GGUF_MAGIC.length) !== GGUF_MAGIC) {
    throw new UsageError(`--embedding-model ${flags.embeddingModel}: not a GGUF file (it does not start with "GGUF")`);
  }
  return { kind: 'engine', modelPath, batch: flags.embedBatch };
}

function readHead(path: string, bytes: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const read = readSync(fd, buffer, 0, bytes, 0);
    return buffer.subarray(0, read).toString('latin1');
  } finally {
    closeSync(fd);
  }
}
