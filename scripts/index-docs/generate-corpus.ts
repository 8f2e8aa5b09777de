/**
 * A deterministic docs corpus for benchmarks: `pages` Markdown pages (one in five in Chinese), each a `#` title and
 * ten `##` sections of two short paragraphs (~120–200 Qwen tokens), so every section is exactly one chunk and the
 * corpus has 10 chunks per page: 1,000 pages give 10,000 chunks. Some sections carry a code block, a list or front
 * matter, so the splitter's paths are all exercised. Same seed, same bytes.
 *
 *   tsx scripts/index-docs/generate-corpus.ts [--chunks 10000] [--out <dir>]   (default: a new temp dir)
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { prng } from '../../src/shared/prng.ts';

export const SECTIONS_PER_PAGE = 10;

const EN_WORDS = (
  'widget model engine worker prompt token cache index chunk heading anchor vector embedder manifest page folder ' +
  'browser thread memory budget window reply message context retrieval search offline storage quota download ' +
  'tokenizer assistant server request header origin script element attribute theme layout section paragraph ' +
  'install configure update remove enable disable measure compare render stream answer question source link'
).split(' ');
const EN_VERBS = 'loads keeps splits counts writes reads caches finds returns stores shows builds checks sends'.split(' ');
const ZH_WORDS = '小部件 模型 引擎 线程 提示词 缓存 索引 片段 标题 锚点 向量 清单 页面 文件夹 浏览器 内存 预算 窗口 回复 消息 上下文 检索 离线 存储 下载 分词器 助手 请求 脚本 主题'.split(' ');
const ZH_VERBS = '加载 保存 切分 统计 写入 读取 缓存 查找 返回 显示 构建 检查'.split(' ');

type Rand = () => number;
const pick = <T>(rand: Rand, list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

function enSentence(rand: Rand): string {
  const n = 6 + Math.floor(rand() * 8);
  const words = Array.from({ length: n }, (_, i) => (i === 2 ? pick(rand, EN_VERBS) : pick(rand, EN_WORDS)));
  const s = words.join(' ');
  return s[0]!.toUpperCase() + s.slice(1) + '.';
}

function zhSentence(rand: Rand): string {
  const n = 4 + Math.floor(rand() * 6);
  return Array.from({ length: n }, (_, i) => (i === 1 ? pick(rand, ZH_VERBS) : pick(rand, ZH_WORDS))).join('') + '。';
}

function paragraph(rand: Rand, zh: boolean): string {
  const n = 3 + Math.floor(rand() * 3);
  return Array.from({ length: n }, () => (zh ? zhSentence(rand) : enSentence(rand))).join(zh ? '' : ' ');
}

function section(rand: Rand, zh: boolean, page: number, s: number): string {
  const title = zh ? `${pick(rand, ZH_WORDS)}${pick(rand, ZH_VERBS)} ${page}.${s}` : `${pick(rand, EN_VERBS)} the ${pick(rand, EN_WORDS)} ${page}.${s}`;
  const parts = [`## ${title}`, paragraph(rand, zh), paragraph(rand, zh)];
  const extra = rand();
  if (extra < 0.15) parts.push('```ts\n' + `const ${pick(rand, EN_WORDS)} = await load${page}(${s});\n` + '```');
  else if (extra < 0.3) parts.push(Array.from({ length: 3 }, () => `- ${zh ? zhSentence(rand) : enSentence(rand)}`).join('\n'));
  return parts.join('\n\n');
}

export function corpusPage(seed: number, page: number): { path: string; text: string } {
  const rand = prng(seed * 1_000_003 + page);
  const zh = page % 5 === 4;
  const folder = `part-${String(Math.floor(page / 100)).padStart(2, '0')}`;
  const path = `${folder}/page-${String(page).padStart(5, '0')}.md`;
  const title = zh ? `文档第 ${page} 页` : `Docs page ${page}`;
  const front = page % 3 === 0 ? `---\ntitle: "${title}"\ntags:\n  - generated\n---\n` : '';
  const sections = Array.from({ length: SECTIONS_PER_PAGE }, (_, s) => section(rand, zh, page, s));
  return { path, text: `${front}# ${title}\n\n${sections.join('\n\n')}\n` };
}

export interface GeneratedCorpus {
  dir: string;
  pages: number;
  /** Chunks the corpus splits into (sections are sized to be one chunk each). */
  chunks: number;
  bytes: number;
}

/** Writes the corpus into `dir` (a new temp dir when absent). */
export function generateCorpus(options: { chunks?: number; dir?: string; seed?: number } = {}): GeneratedCorpus {
  const pages = Math.ceil((options.chunks ?? 10_000) / SECTIONS_PER_PAGE);
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'docs-corpus-'));
  let bytes = 0;
  for (let i = 0; i < pages; i++) {
    const { path, text } = corpusPage(options.seed ?? 1, i);
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
    bytes += Buffer.byteLength(text);
  }
  return { dir, pages, chunks: pages * SECTIONS_PER_PAGE, bytes };
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (isMain) {
  const { values } = parseArgs({ options: { chunks: { type: 'string', default: '10000' }, out: { type: 'string' } } });
  const corpus = generateCorpus({ chunks: Number(values.chunks), ...(values.out === undefined ? {} : { dir: resolve(values.out) }) });
  console.log(`wrote ${corpus.pages} pages (${corpus.chunks} chunks, ${(corpus.bytes / 1e6).toFixed(2)} MB) to ${corpus.dir}`);
}
