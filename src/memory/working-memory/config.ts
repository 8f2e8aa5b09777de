/** How long working memory keeps things and how much of it goes into a prompt. */
import { AssistantError } from '../../shared/errors.ts';
import type { EntityType } from './types.ts';
import { DEFAULT_VOCABULARY, type WmVocabulary } from './vocabulary.ts';

export type RenderLang = 'zh' | 'en';

export interface RenderConfig {
  /** At most this many item lines (the header not counted); the least important go first. */
  readonly maxLines: number;
  /** At most this many tokens in the whole block, as counted by `countTokens`. */
  readonly maxTokens: number;
  /** Counts tokens; the default estimates Qwen's (a digit or a Han character is about one). */
  readonly countTokens: (text: string) => number;
  /** Entity type names per language: 日期, 金额… */
  readonly typeLabels: Readonly<Record<RenderLang, Readonly<Record<EntityType, string>>>>;
  readonly weekdays: Readonly<Record<RenderLang, readonly string[]>>;
}

export interface WorkingMemoryConfig {
  /** An item expires this long after it was last mentioned (pinned ones never do). */
  readonly ttlMs: number;
  /** Replaced values kept per fact slot. */
  readonly historyLimit: number;
  /** Beyond this many items the oldest unpinned ones are dropped. */
  readonly maxItems: number;
  readonly render: RenderConfig;
  /** For the keys that identify deprecated topics. */
  readonly vocabulary: WmVocabulary;
}

export interface WorkingMemoryConfigInput {
  readonly ttlMs?: number;
  readonly historyLimit?: number;
  readonly maxItems?: number;
  readonly render?: Partial<RenderConfig>;
  readonly vocabulary?: WmVocabulary;
}

export const DEFAULT_WORKING_MEMORY_CONFIG: WorkingMemoryConfig = {
  ttlMs: 24 * 60 * 60 * 1000,
  historyLimit: 3,
  maxItems: 200,
  render: {
    maxLines: 8,
    maxTokens: 150,
    countTokens: estimateTokens,
    typeLabels: {
      zh: {
        ipv4: 'IP',
        ipv6: 'IPv6',
        hostport: '地址',
        url: '链接',
        email: '邮箱',
        date: '日期',
        time: '时间',
        order_id: '单号',
        version: '版本',
        path: '路径',
        phone: '电话',
        amount: '金额',
      },
      en: {
        ipv4: 'IP',
        ipv6: 'IPv6',
        hostport: 'host',
        url: 'URL',
        email: 'email',
        date: 'date',
        time: 'time',
        order_id: 'order',
        version: 'version',
        path: 'path',
        phone: 'phone',
        amount: 'amount',
      },
    },
    weekdays: {
      zh: ['周一', '周二', '周三', '周四', '周五', '周六', '周日'],
      en: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'],
    },
  },
  vocabulary: DEFAULT_VOCABULARY,
};

/**
 * A quick upper estimate of Qwen2.5 tokens, so the block can be budgeted without loading the tokenizer: digits
 * and Han characters one each, Latin words one per four letters, other marks one each.
 */
export function estimateTokens(text: string): number {
  let n = 0;
  for (const m of text.matchAll(/[A-Za-z]+|\d|[^\sA-Za-z\d]/gu))
    n += /^[A-Za-z]/.test(m[0]) ? Math.ceil(m[0].length / 4) : 1;
  return Math.ceil(n * 1.1); // Qwen splits some digit runs and marks finer: keep the estimate on the high side
}

function positiveInteger(name: string, value: number, min: number): number {
  if (!Number.isInteger(value) || value < min) {
    throw new AssistantError(
      'invalid_config',
      `Working memory: ${name} must be an integer ≥ ${min}, got ${String(value)}.`,
    );
  }
  return value;
}

export function resolveWorkingMemoryConfig(input: WorkingMemoryConfigInput = {}): WorkingMemoryConfig {
  const d = DEFAULT_WORKING_MEMORY_CONFIG;
  const render: RenderConfig = { ...d.render, ...input.render };
  return {
    ttlMs: positiveInteger('ttlMs', input.ttlMs ?? d.ttlMs, 1),
    historyLimit: positiveInteger('historyLimit', input.historyLimit ?? d.historyLimit, 0),
    maxItems: positiveInteger('maxItems', input.maxItems ?? d.maxItems, 1),
    render: {
      ...render,
      countTokens: typeof render.countTokens === 'function' ? render.countTokens : estimateTokens,
      maxLines: positiveInteger('render.maxLines', render.maxLines, 0),
      maxTokens: positiveInteger('render.maxTokens', render.maxTokens, 0),
    },
    vocabulary: input.vocabulary ?? d.vocabulary,
  };
}
