/**
 * Words of a question that say how it asks, not what about. A Chinese question cut into bigrams holds several
 * (叫什, 什么, 到哪, 哪个, 是多, 多少): statements never use them, so they are rare, weigh the most in the share of the
 * query a turn holds (`match`), and pull every answer below the relevance gate. They are left out of the query.
 * So are the words a question uses to point at the conversation itself ("which version did I say…", "what did we
 * call…", 你之前提到的): the turn that holds the answer rarely says them, and any turn that does ("should I say
 * sorry") is matched on nothing else.
 */

/** Characters that only ask: a query bigram holding one says nothing about the answer. */
const ASKING = /[什么哪谁吗呢怎啥]/;
/** Bigrams that ask for a number or an amount (多少, 几个, 是多). */
const ASKING_BIGRAMS = new Set(['多少', '是多', '少个', '几个', '几次', '几天', '几台', '几号', '多久', '多长', '多大', '第几']);

/** Bigrams of a question that point at the conversation: 提到, 说过, 你说, 记得. */
const RECALL_BIGRAMS = new Set(['提到', '提过', '说过', '讲过', '聊过', '记得', '你说', '我说']);
/** Stems (text-terms.ts) of the English verbs of recall: say, said, tell, told, mention, remind, recall, remember. */
const RECALL_STEMS = new Set(['say', 'said', 'tell', 'told', 'mention', 'remind', 'recall', 'rememb']);
/** "what did we call it", "what's it called", "what did we name it": call and name only ask there. */
const NAMING_QUESTION = /\b(?:did|do|does|have|had|should|would)\s+(?:we|i|you)\s+(?:call|name)\b|\b(?:what|which)\b[^.?!]*\b(?:called|named)\b[^.!]*\?/i;

/**
 * Words that say which time the question asks about — now, in the end — not what about (value-over-time.ts reads
 * them): "调度现在是几点跑？" otherwise matches every turn that says 现在.
 */
const TIME_FRAME_BIGRAMS = ['现在', '目前', '如今', '眼下', '最后', '最终'];
const TIME_FRAME_STEMS = ['now', 'current', 'nowaday'];

/**
 * Terms of `message` that only ask (beside `onlyAsks`): its verbs of recall, its words of time frame, and call /
 * name in a naming question.
 */
export function askingTerms(message: string): ReadonlySet<string> {
  const out = new Set<string>([...RECALL_STEMS, ...TIME_FRAME_STEMS]);
  for (const b of [...RECALL_BIGRAMS, ...TIME_FRAME_BIGRAMS]) out.add(`~${b}`);
  if (NAMING_QUESTION.test(message)) for (const t of ['call', 'nam']) out.add(t); // stems of call(ed), name(d)
  return out;
}

/** Whether a query term (a CJK bigram is `~` and two characters) only asks. */
export function onlyAsks(term: string): boolean {
  if (!term.startsWith('~') || term.length !== 3) return false;
  const bigram = term.slice(1);
  return ASKING.test(bigram) || ASKING_BIGRAMS.has(bigram);
}
