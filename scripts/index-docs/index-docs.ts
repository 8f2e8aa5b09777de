/**
 * `npm run index-docs -- <folder> --out <dir> [--base-url /] [--max-bytes 2097152] [--max-tokens 400] [--no-memory]
 * [--exclude <path>]…` (also the package's `npx qwen-assistant index-docs …`, scripts/package/cli.ts)
 *
 * Indexes a folder of Markdown and HTML docs for the widget (see index-folder.ts and src/docs-index/format.ts).
 * Prints one line per skipped file and a summary; exits 0 when at least one page was indexed, 1 when none was or
 * the folder is missing, 2 on bad arguments.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TokenCount } from '../../src/memory/store/chunking.ts';
import { indexDocsFolder, type IndexDocsStats } from './index-folder.ts';

interface Args {
  folder: string;
  out: string;
  baseUrl: string;
  maxBytes?: number;
  maxTokens?: number;
  /** Ship the widget's docs memory built (`--no-memory`: the widget indexes the pages on a first visit). */
  memory: boolean;
  /** Files or folders below the docs folder that are not docs pages (a built site's `404.html`, `search/`). */
  exclude: string[];
}

const OPTIONS = '<folder> --out <dir> [--base-url /] [--max-bytes N] [--max-tokens N] [--no-memory] [--exclude <path>]…';

function positiveInt(flag: string, value: string | undefined): number {
  const n = Number(value);
  if (value === undefined || !Number.isInteger(n) || n <= 0) throw new Error(`${flag} needs a positive integer, got ${value ?? 'nothing'}`);
  return n;
}

export function parseArgs(argv: readonly string[]): Args {
  let folder: string | undefined;
  let out: string | undefined;
  let baseUrl = '/';
  let maxBytes: number | undefined;
  let maxTokens: number | undefined;
  let memory = true;
  const exclude: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string | undefined => argv[++i];
    if (arg === '--out') out = value();
    else if (arg === '--base-url') baseUrl = value() ?? '';
    else if (arg === '--max-bytes') maxBytes = positiveInt(arg, value());
    else if (arg === '--max-tokens') maxTokens = positiveInt(arg, value());
    else if (arg === '--no-memory') memory = false;
    else if (arg === '--exclude') {
      const path = (value() ?? '').replace(/\\/g, '/').replace(/^\.?\//, '').replace(/\/+$/, '');
      if (path === '') throw new Error('--exclude needs a path below the docs folder');
      exclude.push(path);
    }
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else if (folder === undefined) folder = arg;
    else throw new Error(`unexpected argument ${arg}`);
  }
  if (folder === undefined) throw new Error('no docs folder given');
  if (out === undefined || out === '') throw new Error('no --out folder given');
  const args: Args = { folder, out, baseUrl, memory, exclude };
  if (maxBytes !== undefined) args.maxBytes = maxBytes;
  if (maxTokens !== undefined) args.maxTokens = maxTokens;
  return args;
}

export function summary(stats: IndexDocsStats): string {
  const w = stats.write;
  const files = w === null ? '' : `, page files: ${w.written} written, ${w.kept} unchanged, ${w.deleted} deleted`;
  const memory = w === null || w.memoryBytes === 0 ? '' : `; built docs memory ${(w.memoryBytes / 1024).toFixed(1)} KB in ${stats.memorySeconds.toFixed(2)} s`;
  return (
    `indexed ${stats.pages} pages, ${stats.chunks} chunks, ${(stats.bytes / 1024).toFixed(1)} KB in ${stats.seconds.toFixed(2)} s ` +
    `(${stats.pagesPerS.toFixed(1)} pages/s, ${stats.cpuSeconds.toFixed(2)} s CPU), skipped ${stats.skipped.length}${files}${memory}`
  );
}

/** Whether `path` (below the docs folder) is one of `exclude` or inside one of them. */
export function isExcluded(path: string, exclude: readonly string[]): boolean {
  return exclude.some((x) => path === x || path.startsWith(`${x}/`));
}

export interface IndexDocsCommand {
  /** How the command is run, for its usage line: `npm run index-docs --`, `npx qwen-assistant index-docs`. */
  invocation: string;
  /** The Qwen token counter (default: the one the repository's `prepare-tokenizer` makes). */
  loadCounter?: () => Promise<TokenCount>;
}

/** The command: parses `argv`, indexes, prints; returns the exit code (0 indexed, 1 nothing or no folder, 2 bad arguments). */
export async function runIndexDocs(argv: readonly string[], command: IndexDocsCommand): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(argv);
  } catch (error) {
    console.error(`index-docs: ${(error as Error).message}\nusage: ${command.invocation} ${OPTIONS}`);
    return 2;
  }
  const folder = resolve(args.folder);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    console.error(`index-docs: the docs folder ${folder} does not exist or is not a folder`);
    return 1;
  }
  const options = {
    out: resolve(args.out),
    baseUrl: args.baseUrl,
    memory: args.memory,
    ...(args.exclude.length === 0 ? {} : { include: (path: string) => !isExcluded(path, args.exclude) }),
    ...(command.loadCounter === undefined ? {} : { counter: await command.loadCounter() }),
    onSkip: (s: { path: string; reason: string }) => console.warn(`skipped ${s.path}: ${s.reason}`),
    ...(args.maxBytes === undefined ? {} : { maxBytes: args.maxBytes }),
    ...(args.maxTokens === undefined ? {} : { maxTokens: args.maxTokens }),
  };
  const { stats } = await indexDocsFolder(folder, options);
  if (stats.pages === 0) {
    console.error(`index-docs: nothing indexed in ${folder} (${stats.files} docs files found, ${stats.skipped.length} skipped); nothing written`);
    return 1;
  }
  console.log(summary(stats));
  console.log(`wrote ${options.out}/manifest.json`);
  return 0;
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) process.exitCode = await runIndexDocs(process.argv.slice(2), { invocation: 'npm run index-docs --' });
