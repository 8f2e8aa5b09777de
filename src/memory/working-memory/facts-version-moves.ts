/**
 * A runtime or product moved from one version to another: "We moved the notebooks from Python 3.9 to 3.11", 我们的
 * JDK 从 8 升到了 17, "our JDK went from 11 to 21", "upgraded Node 18 to Node 20", 我们把 Spark 从 3.3 升到了 3.5.1. The
 * version slot takes the new version: a runtime's own (`python version`), else the product's (`spark version`, as
 * "Consul 的版本是 1.17.2" sets `consul version`). The old one is not unset: the slot is overwritten, and most
 * labellers write the set alone.
 *
 * Before this rule, "from Python 3.9 to 3.11" read as a switch away from Python (programming language ≠ Python 3.9),
 * and 从 8 升到了 17 set nothing (了 stood between the verb and the version).
 *
 * A range is no move ("the library supports Python from 3.8 to 3.12"): a word of change must be said.
 */
import type { Found } from './drops.ts';
import type { Lexicon, ProductMark } from './lexicon.ts';
import { escapeRegExp } from './text.ts';
import type { Fact } from './types.ts';

// (The version as written, its v kept: "from v18 to v20.11" sets v20.11.)
const VERSION = String.raw`(v?\d+(?:\.\d+)*)(?![\w.])(?!\s*(?:年|个|天|月|周|岁|小时|次|%|years?\b|months?\b|days?\b|weeks?\b|times\b|percent\b))`;
/** Between the two versions: to, 到, 升到了, → . */
const TO = String.raw`\s*(?:都|已经|也)?\s*(?:(?:升级|升|换|切换|切|迁移|迁|改|降级|降|回退|退)\s*)?(?:到|成|至|to|->|→)\s*了?\s*`;
/** A word that says the version changed (not a range a library supports). */
const CHANGE =
  /升|换|迁|切|改|降|回退|\b(?:upgrad(?:e|ed|es|ing)|bump(?:ed|s|ing)?|mov(?:e|ed|es|ing)|migrat(?:e|ed|es|ing)|switch(?:ed|es|ing)?|went|gone|downgrad(?:e|ed|es|ing)|rolled back|roll back|jump(?:ed|s)?|updat(?:e|ed|es|ing))\b/i;
/** Said of what a library or tool supports, not of the user's setup. */
const RANGE = /\b(?:supports?|supported|compatible|works? (?:with|on)|tested (?:on|with)|ranges?)\b|支持|兼容|适配|范围/i;
const FROM = /(?:从|由|\bfrom)\s*$/i;
/** A move planned or asked about is not made yet: 打算把 Python 从 3.9 升到 3.12, "we plan to move Node from 18 to 20". */
const PLANNED = /打算|计划|准备|想要|想把|要把|考虑|可能|是否|能不能|\b(?:plan(?:s|ned|ning)?|going to|gonna|want(?:s|ed)? to|will|'ll|should|thinking|considering|might|may|could|would|if)\b/i;

/** The two patterns a runtime's name is read with, compiled once a name. */
const patterns = new Map<string, { move: RegExp; onward: RegExp }>();
function patternsFor(surface: string): { move: RegExp; onward: RegExp } {
  let p = patterns.get(surface);
  if (p === undefined) {
    const name = escapeRegExp(surface);
    p = {
      // Python 从 3.9 升到了 3.12; "our JDK went from 11 to 21"; "Python version from 3.9 to 3.11".
      move: new RegExp(
        String.raw`^\s*(?:的)?\s*(?:版本号?|version)?\s*(?:(?:has|have|just|also|all|already|都|已经|也|刚|刚刚)\s*)*(?:[a-z]+\s+)?(?:从|由|from)\s*${VERSION}${TO}(?:${name}\s*)?${VERSION}`,
        'i',
      ),
      // "from Python 3.9 to 3.11", 从 Node 18 升到 Node 20.
      onward: new RegExp(String.raw`^${TO}(?:${name}\s*)?${VERSION}`, 'i'),
    };
    patterns.set(surface, p);
  }
  return p;
}

/** The version moves said of the clause's runtimes and products, with the starts of the products they used. */
export function versionMoves(text: string, at: number, products: readonly ProductMark[], lexicon: Lexicon): { facts: Found<Fact>[]; used: Set<number> } {
  const facts: Found<Fact>[] = [];
  const used = new Set<number>();
  if (!CHANGE.test(text) || RANGE.test(text)) return { facts, used };
  const planned = PLANNED.test(text);
  for (const p of products) {
    const subject = lexicon.vocabulary.runtimes[p.surface.toLowerCase()] ?? `${p.surface.toLowerCase()} version`;
    const after = text.slice(p.valueEnd);
    const own = p.value.slice(p.surface.length).trim();
    const { move, onward } = patternsFor(p.surface);
    let value: string | undefined;
    if (own === '') value = move.exec(after)?.[2];
    else if (FROM.test(text.slice(Math.max(0, p.start - 8), p.start))) value = onward.exec(after)?.[1];
    if (value === undefined) continue;
    used.add(p.start);
    if (planned) continue;
    facts.push({ item: { subject, value, op: 'set' }, at: at + p.start });
  }
  return { facts, used };
}
