/**
 * Names and identifiers in a text — the "entities" that decide when an older session's history opens (warm
 * start) and that the reranker counts in common with a query. Working memory's typed entities (IPs, order
 * numbers, dates, versions…) come from its extractor; these rules add what it leaves out: proper names
 * (Ravi, Nginx, WASM), identifiers with digits (k8s, A1234), CamelCase, and Latin words inside Chinese
 * text (排查 Nginx 的 502). Keys are lower-case with a kind prefix. Pure, no DOM.
 */
import { hasCjk, isCjkCodePoint } from '../../shared/cjk.ts';
import { isStopword } from './text-terms.ts';

/** Capitalised words that start sentences or fill chat and name nothing. */
const NOT_NAMES = new Set(
  (
    'i im ive ill id ok okay hey hi hello yes yeah no oh wow thanks thank please sorry sure well so and but or ' +
    'the a an this that these those it its my your our their his her we you he she they me us them what when ' +
    'where why how who which monday tuesday wednesday thursday friday saturday sunday january february march ' +
    'april may june july august september october november december today tomorrow yesterday mr mrs ms dr'
  ).split(' '),
);

const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}_.\-+#]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu;

/** Entity keys of a text: `n:` names, `i:` identifiers. */
export function keyTerms(text: string): string[] {
  const out = new Set<string>();
  const cjk = hasCjk(text);
  TOKEN.lastIndex = 0;
  for (const m of text.matchAll(TOKEN)) {
    const word = m[0];
    const lower = word.toLowerCase();
    if (/^\d+$/.test(word) || isCjkCodePoint(word.codePointAt(0)!)) continue;
    const before = text.slice(Math.max(0, m.index - 3), m.index);
    const sentenceStart = m.index === 0 || /[.!?。！？\n]\s*$|^\s*$/.test(before) || /["“(]\s*$/.test(before);
    if (/\d/.test(word) && /\p{L}/u.test(word) && word.length >= 3) out.add(`i:${lower}`);
    else if (/^[A-Z][A-Z0-9]{1,}$/.test(word) && !NOT_NAMES.has(lower)) out.add(`n:${lower}`);
    else if (/^[a-z]+[A-Z]\w*$|^[A-Z][a-z]+[A-Z]\w*$/.test(word)) out.add(`n:${lower}`);
    else if (cjk && /^[A-Za-z][A-Za-z.\-+#]{2,}$/.test(word) && !isStopword(lower)) out.add(`n:${lower}`);
    else if (/^\p{Lu}\p{Ll}+$/u.test(word) && !sentenceStart && !NOT_NAMES.has(lower) && !isStopword(lower)) {
      out.add(`n:${lower}`);
    }
  }
  return [...out];
}

/** The key of a typed working-memory entity (`ipv4`, `order_id`, `date`…). */
export function entityKey(type: string, value: string): string {
  return `${type}:${value.toLowerCase()}`;
}
