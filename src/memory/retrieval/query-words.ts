/**
 * Words of a question that say how it asks, not what about. A Chinese question cut into bigrams holds several
 * (叫什, 什么, 到哪, 哪个, 是多, 多少): statements never use them, so they are rare, weigh the most in the share of the
 * query a turn holds (`match`), and pull every answer below the relevance gate. They are left out of the query.
 */

/** Characters that only ask: a query bigram holding one says nothing about the answer. */
const ASKING = /[什么哪谁吗呢怎啥]/;
/** Bigrams that ask for a number or an amount (多少, 几个, 是多). */
const ASKING_BIGRAMS = new Set(['多少', '是多', '少个', '几个', '几次', '几天', '几台', '几号', '多久', '多长', '多大', '第几']);

/** Whether a query term (a CJK bigram is `~` and two characters) only asks. */
export function onlyAsks(term: string): boolean {
  if (!term.startsWith('~') || term.length !== 3) return false;
  const bigram = term.slice(1);
  return ASKING.test(bigram) || ASKING_BIGRAMS.has(bigram);
}
