/**
 * Intent tags (seed 001 §4.4, "answer-type retrieval"): what kind of exchange a chunk is — troubleshooting,
 * concept, procedure — and whether the problem it is about was resolved. Tagged by word lists when a turn is
 * stored; a query gets the same tags, and the reranker prefers chunks whose tags fit (a "how do I fix it"
 * question wants procedure and resolved exchanges). Data-driven: change the lists, not the code. Pure, no DOM.
 */
import { escapeRegExp } from '../../shared/regexp.ts';

export type IntentTag = 'troubleshooting' | 'concept' | 'procedure' | 'resolved' | 'unresolved';

export const INTENT_TAGS: readonly IntentTag[] = ['troubleshooting', 'concept', 'procedure', 'resolved', 'unresolved'];

/** Chinese entries match as substrings, English ones as whole words (case-insensitive, any suffix after a '*'). */
export const INTENT_WORDS: Readonly<Record<IntentTag, { readonly zh: readonly string[]; readonly en: readonly string[] }>> = {
  troubleshooting: {
    zh: ['报错', '错误', '失败', '异常', '排查', '故障', '崩溃', '超时', '挂了', '打不开', '连不上', '不工作', '无法'],
    en: ['error*', 'fail*', 'crash*', 'broken', 'bug*', 'exception*', 'timeout*', 'debug*', 'troubleshoot*', "doesn't work", 'not working', 'issue*', '502', '500', '404'],
  },
  concept: {
    zh: ['什么是', '是什么', '为什么', '原理', '区别', '概念', '含义', '意思', '影响'],
    en: ['what is', "what's", 'why', 'explain*', 'difference', 'meaning', 'concept*', 'impact*', 'effect*'],
  },
  procedure: {
    zh: ['怎么', '如何', '步骤', '配置', '安装', '设置', '命令', '操作', '修复', '部署'],
    en: ['how to', 'how do', 'how can', 'step*', 'configur*', 'install*', 'setup', 'set up', 'command*', 'fix*', 'deploy*'],
  },
  resolved: {
    zh: ['解决了', '搞定', '好了', '已修复', '恢复正常', '可以了', '成功了'],
    en: ['fixed', 'solved', 'resolved', 'works now', 'working now', 'that worked', 'it worked'],
  },
  unresolved: {
    zh: ['还是不行', '仍然', '依然', '没解决', '还没好', '又出现'],
    en: ['still', 'not fixed', 'again', 'keeps failing', 'no luck'],
  },
};


interface Matcher {
  readonly zh: readonly string[];
  readonly en: RegExp | null;
}

const matchers = new Map<IntentTag, Matcher>();
for (const tag of INTENT_TAGS) {
  const words = INTENT_WORDS[tag];
  const en = words.en.map((w) => (w.endsWith('*') ? `${escapeRegExp(w.slice(0, -1))}\\w*` : escapeRegExp(w)));
  matchers.set(tag, { zh: words.zh, en: en.length === 0 ? null : new RegExp(`\\b(?:${en.join('|')})\\b`, 'i') });
}

/** The tags a text carries. */
export function intentTags(text: string): IntentTag[] {
  const out: IntentTag[] = [];
  for (const tag of INTENT_TAGS) {
    const m = matchers.get(tag)!;
    if (m.zh.some((w) => text.includes(w)) || (m.en !== null && m.en.test(text))) out.push(tag);
  }
  // "Still broken" outranks a stray "fixed" in the same message.
  if (out.includes('resolved') && out.includes('unresolved')) out.splice(out.indexOf('resolved'), 1);
  return out;
}

/**
 * How well a chunk's tags fit a query's, in [0, 1]: shared kinds count; for a troubleshooting or procedure
 * question, a resolved exchange is worth more than an unresolved one (it holds the fix).
 */
export function intentFit(query: readonly IntentTag[], chunk: readonly IntentTag[]): number {
  if (query.length === 0 || chunk.length === 0) return 0;
  let fit = 0;
  for (const kind of ['troubleshooting', 'concept', 'procedure'] as const) {
    if (query.includes(kind) && chunk.includes(kind)) fit += 0.5;
  }
  const wantsFix = query.includes('troubleshooting') || query.includes('procedure');
  if (wantsFix && chunk.includes('resolved')) fit += 0.5;
  if (wantsFix && chunk.includes('unresolved')) fit -= 0.25;
  return Math.max(0, Math.min(1, fit));
}
