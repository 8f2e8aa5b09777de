/**
 * Deprecated topics: how a phrase is cut from the text (上回聊的 Consul 方案 → Consul 方案) and which of its words
 * identify it later (consul), so retrieval can leave out chunks about it.
 */
import { alternation } from './text.ts';
import type { TriggerVocabulary } from './vocab-triggers.ts';

const EDGE_PUNCTUATION =
  /^[\s"'“”‘’「」『』《》()（）\[\]【】,，。.;；:：!！?？、~…-]+|[\s"'“”‘’「」『』《》()（）\[\]【】,，。.;；:：!！?？、~…-]+$/g;

export interface TopicRules {
  readonly qualifiers: readonly RegExp[];
  readonly pointers: RegExp;
  readonly topicNoun: RegExp;
  readonly onlyGeneric: RegExp;
}

export function compileTopicRules(t: TriggerVocabulary): TopicRules {
  const generic = [...t.topicNouns, '的', 'it', 'that', 'this', '这', '那', '这个', '那个'];
  return {
    qualifiers: t.topicQualifiers.map((source) => new RegExp(source, 'i')),
    pointers: new RegExp(alternation(t.topicPointers), 'gi'),
    topicNoun: new RegExp(alternation(t.topicNouns), 'i'),
    onlyGeneric: new RegExp(`^(?:\\s|${alternation(generic)})*$`, 'i'),
  };
}

export function trimPunctuation(s: string): string {
  return s.replace(EDGE_PUNCTUATION, '');
}

/** A time word just before a pointing word: 刚才 in 刚才那个问题. */
const TIME_BEFORE_POINTER = /(?:刚才|刚刚|之前|前面|上面|先前|上次)$/;

/**
 * The topic as written, without the words that only point at it (之前说的, that, the). When nothing but a generic
 * noun would remain (这个问题 → 问题) the pointing word stays, since it is what identifies it, with a time word right
 * before it (刚才那个问题), and what came before them goes (前面讨论的那个方案 → 那个方案).
 */
export function topicPhrase(object: string, rules: TopicRules): string {
  const written = trimPunctuation(object).replace(/^(?:the|a|an)\s+/i, '');
  let stripped = written;
  for (let changed = true; changed;) {
    changed = false;
    for (const re of rules.qualifiers) {
      const next = trimPunctuation(stripped.replace(re, '').trim());
      if (next !== stripped) {
        stripped = next;
        changed = true;
      }
    }
  }
  stripped = trimPunctuation(stripped);
  if (stripped !== '' && (!rules.onlyGeneric.test(stripped) || namesTwoNouns(stripped, rules))) return stripped;
  const pointer = [...written.matchAll(rules.pointers)].at(-1);
  if (pointer === undefined) return written;
  // 刚才那个问题 stays whole, as every helper labeller wrote it (and the shared set keeps 这个问题): a time word right
  // before the pointer is part of what names a generic topic.
  const when = TIME_BEFORE_POINTER.exec(written.slice(0, pointer.index));
  return written.slice(when === null ? pointer.index : when.index);
}

/** Two topic nouns together name a kind of topic (migration plan, 迁移计划), as a name would: no pointer needed. */
function namesTwoNouns(phrase: string, rules: TopicRules): boolean {
  return (phrase.match(new RegExp(rules.topicNoun.source, 'gi')) ?? []).length >= 2;
}

/** Words that identify a topic: Latin words and Han runs, minus generic nouns and pointing words. */
export function topicKeys(phrase: string, rules: TopicRules): string[] {
  const keys: string[] = [];
  for (const m of phrase.toLowerCase().matchAll(/[a-z0-9][a-z0-9.+#_-]*|[\u4e00-\u9fff]+/g)) {
    let word = m[0];
    if (/[\u4e00-\u9fff]/.test(word)) {
      for (const re of rules.qualifiers) word = word.replace(re, '');
      word = word.replace(new RegExp(rules.topicNoun.source, 'gi'), '').replace(/的/g, '');
      if (word.length < 2) continue;
    } else if (
      word.length < 2 ||
      rules.onlyGeneric.test(word) ||
      /^(?:the|a|an|my|our|your|old|previous|earlier|whole|entire)$/.test(word)
    ) {
      continue;
    }
    keys.push(word);
  }
  return [...new Set(keys)];
}
