/**
 * The widget's status line, in its language: what runs and why (WebGPU with its model variant; or WASM CPU, how
 * many threads and why only one, and — when a WebGPU model was configured — why not WebGPU), how many doc pages it
 * answers from, and where loading stands. Pure.
 */
import type { BackendKind } from '../../engine/protocol.ts';
import type { WidgetLang, WidgetPhase, WidgetStatus } from './types.ts';

export interface StatusFacts {
  readonly phase: WidgetPhase;
  readonly lang: WidgetLang;
  /** 0–1 while loading. */
  readonly progress: number | null;
  /** Engine threads once loaded. */
  readonly threads: number | null;
  /** The engine that runs once loaded (null before). */
  readonly backend: BackendKind | null;
  /** The engine's own words for how it runs and why (`LoadResult.reason`), e.g. "WebGPU, q4f32 — no shader-f16
   * (software adapter) (WebGPU adapter available)" or "WASM CPU, single thread (…) (no WebGPU adapter)". */
  readonly reason: string | null;
  /** A WebGPU model (`mlc-model`) is configured, so the CPU engine says why it runs instead. */
  readonly webgpu: boolean;
  /** WebGPU was tried and could not load the model; the CPU engine took over (`LoadResult.fallbackNotice`). */
  readonly fallback: boolean;
  /** Whether the page is cross-origin isolated (threads need it). */
  readonly isolated: boolean;
  /** Doc pages known (null: no docs index configured, or not read yet). */
  readonly pages: number | null;
  /** The docs came from this device because the index could not be fetched (offline). */
  readonly docsOffline: boolean;
  /** What is loading now ("model", "docs", "tokenizer"), for the loading line. */
  readonly step: 'model' | 'docs' | null;
  readonly error: { readonly code: string; readonly message: string } | null;
}

const TEXT = {
  en: {
    engine: (threads: number, isolated: boolean) =>
      threads > 1 ? `WASM CPU, ${threads} threads` : `WASM CPU, single thread${isolated ? '' : ' (this page is not cross-origin isolated)'}`,
    gpu: (how: string) => `WebGPU (web-llm), ${how}`,
    gpuFailed: 'WebGPU could not load the model, so it runs on the CPU',
    gpuUnused: (why: string) => `WebGPU not used: ${why}`,
    why: {} as Record<string, string>,
    pages: (n: number) => `${n} doc page${n === 1 ? '' : 's'}`,
    offline: ' (offline copy)',
    idle: 'Not loaded yet',
    loadingModel: 'Loading the model',
    loadingDocs: 'Reading the docs index',
    answering: 'Answering',
    error: (code: string, message: string) => `Error (${code}): ${message}`,
  },
  zh: {
    engine: (threads: number, isolated: boolean) =>
      threads > 1 ? `WASM CPU，${threads} 个线程` : `WASM CPU，单线程${isolated ? '' : '（此页面未启用跨源隔离）'}`,
    gpu: (how: string) => `WebGPU（web-llm），${how}`,
    gpuFailed: 'WebGPU 无法加载模型，改用 CPU 运行',
    gpuUnused: (why: string) => `未使用 WebGPU：${why}`,
    why: {
      'no WebGPU adapter': '没有 WebGPU 适配器',
      'WebGPU adapter limits too small for web-llm': 'WebGPU 适配器的上限不满足 web-llm 的要求',
      'only a software WebGPU adapter': '只有软件模拟的 WebGPU 适配器',
      'the WebGPU device was lost earlier in this session': '本次访问中 WebGPU 设备已丢失',
    } as Record<string, string>,
    pages: (n: number) => `${n} 个文档页面`,
    offline: '（本机副本）',
    idle: '尚未加载',
    loadingModel: '正在加载模型',
    loadingDocs: '正在读取文档索引',
    answering: '正在回答',
    error: (code: string, message: string) => `出错（${code}）：${message}`,
  },
} as const;

/**
 * The engine's reason split into how it runs and the backend choice's why: the engine writes
 * `${how} (${why})` (engine/handler.ts), e.g. "WASM CPU, single thread (…) (no WebGPU adapter)".
 */
export function splitReason(reason: string): { how: string; why: string } {
  const match = /^(.*\S)\s*\(([^()]*)\)$/.exec(reason.trim());
  return match === null ? { how: reason.trim(), why: '' } : { how: match[1]!, why: match[2]! };
}

/** The engine's why in the widget's language: a known opening is translated, the details after it kept. */
function translateWhy(why: string, known: Record<string, string>): string {
  const key = Object.keys(known).find((k) => why.startsWith(k));
  return key === undefined ? why : known[key]! + why.slice(key.length);
}

function engineText(f: StatusFacts, t: (typeof TEXT)[WidgetLang]): string[] {
  const { how, why } = splitReason(f.reason ?? '');
  if (f.backend === 'webllm') return [t.gpu(how.replace(/^WebGPU,\s*/, ''))];
  if (f.threads === null) return [];
  const cpu = t.engine(f.threads, f.isolated);
  if (!f.webgpu) return [cpu];
  if (f.fallback) return [cpu, t.gpuFailed];
  return why === '' ? [cpu] : [cpu, t.gpuUnused(translateWhy(why, t.why))];
}

export function statusOf(f: StatusFacts): WidgetStatus {
  const t = TEXT[f.lang];
  const parts: string[] = [];
  if (f.phase === 'error' && f.error !== null) {
    parts.push(t.error(f.error.code, f.error.message));
  } else if (f.phase === 'idle') {
    // The docs loaded for search, the model not (yet): how many pages there are to search.
    parts.push(f.pages === null ? t.idle : `${t.pages(f.pages)}${f.docsOffline ? t.offline : ''}`);
  } else if (f.phase === 'loading') {
    const pct = f.progress === null ? '' : ` ${Math.round(f.progress * 100)}%`;
    parts.push(`${f.step === 'docs' ? t.loadingDocs : t.loadingModel}${pct}`);
  } else {
    parts.push(...engineText(f, t));
    if (f.pages !== null) parts.push(`${t.pages(f.pages)}${f.docsOffline ? t.offline : ''}`);
    if (f.phase === 'answering') parts.push(t.answering);
  }
  return {
    phase: f.phase,
    text: parts.join(' · '),
    progress: f.phase === 'loading' ? (f.progress ?? 0) : null,
    threads: f.threads,
    error: f.phase === 'error' ? f.error : null,
  };
}
