/**
 * Versions the product list cannot name: any tool's version said with the word version (kubectl 版本是 v1.30.1, "the
 * Bazel version is 7.1.2") sets `<name> version`, and a clause that gives only a version (…用 PyTorch，版本锁 2.3.1)
 * takes the name the clause before it ended on. Known products keep their own rules (facts-set.ts); a version needs a
 * dot (1.22, v1.30.1), so "API 版本 v2" or "version 3 of the doc" set nothing.
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import type { Lexicon, ProductMark } from './lexicon.ts';
import { FUNCTION_WORD } from './text.ts';
import type { Fact } from './types.ts';

/** The word version, a link, and the version (one dot at least). */
const LINK = String.raw`\s*(?:号)?\s*(?:是|为|用的是|统一用|统一是|都用|都是|用|锁在|pin\s*在|pin\s*到|锁死在|锁死|锁定在|锁定为|锁定|锁|固定在|固定为|固定|定在|定为|定成|统一为|统一成|升到|升级到|改成|改为|:|：|=|is pinned to|is pinned at|is locked to|is locked at|is now|is|will be|pinned to|pinned at|locked to|locked at|set to|stays at)?\s*`;
const VERSION = String.raw`(v?\d+(?:\.\d+)+)(?![\w.])(?!\s*(?:%|倍|x\b))`;
/** A Latin name just before the word version: kubectl 版本, the Bazel version, PyTorch 的版本号. */
const NAME_THEN_VERSION = new RegExp(String.raw`(?<![\w.+-])([A-Za-z][\w.+-]*[A-Za-z0-9+])\s*(?:的)?\s*(?:版本|version)(?![\w])${LINK}${VERSION}`, 'gi');
/** A clause that opens on its version: 版本锁 2.3.1, version pinned to 1.7.5. */
const VERSION_ONLY = new RegExp(String.raw`^\s*(?:(?:the|its)\s+)?(?:版本|version)(?![\w])${LINK}${VERSION}`, 'i');
/** A Latin name at the end of the clause before, once its trailing verb or noun is set aside (用 Go 写, on Bazel builds). */
const LAST_NAME = /(?<![\w.+-])([A-Za-z][\w.+-]*[A-Za-z0-9+])\s*(?:写|开发|训练|做|来做|跑|实现|构建|for\s+\w+|builds?|)\s*$/;

/**
 * Words that stand where a name would and name no tool, beside the function words (`FUNCTION_WORD`): the version, and
 * kinds of thing (the driver, firmware, an engine, self-hosted) whose version a reader files under the thing they
 * belong to.
 */
const NOT_A_NAME =
  /^(?:new|old|latest|current|same|v|api|app|apps|sdk|driver|drivers|firmware|engine|model|server|client|cluster|image|plugin|schema|protocol|package|library|tool|system|service|build|release|doc|docs|document|self-hosted|hosted|cloud|version)$/i;
/** A name that is part of an address (team@corp.example.com, docs.example.dev): no tool. */
const ADDRESS_LIKE = /\.[a-z]{2,}$|^www\./i;

/** The slot of a name's version: a runtime's own (python → `python version`), else `<name> version` in lower case. */
function versionSubject(name: string, lexicon: Lexicon): string {
  return lexicon.vocabulary.runtimes[name.toLowerCase()] ?? `${name.toLowerCase()} version`;
}

/**
 * The versions a clause sets that the product rules left: `products` are the clause's product marks (their versions
 * are facts-set.ts's), `leadIn` the clause before in the same sentence ('' when none), `taken` the subjects the
 * message already sets (a version slot set there is not set twice).
 */
export function namedVersionFacts(clause: Clause, products: readonly ProductMark[], leadIn: string, lexicon: Lexicon, taken: ReadonlySet<string>): Found<Fact>[] {
  const text = clause.text;
  const out: Found<Fact>[] = [];
  const emit = (name: string, value: string, at: number): void => {
    if (NOT_A_NAME.test(name) || FUNCTION_WORD.test(name) || ADDRESS_LIKE.test(name)) return;
    const subject = versionSubject(name, lexicon);
    if (taken.has(subject) || out.some((f) => f.item.subject === subject)) return;
    out.push({ item: { subject, value, op: 'set' }, at: clause.start + at });
  };
  for (const hit of text.matchAll(NAME_THEN_VERSION)) {
    const name = hit[1]!;
    // A product the list knows is facts-set.ts's (Consul 的版本是 1.17.2 → consul version already).
    if (products.some((p) => p.start <= hit.index && hit.index < p.valueEnd) || text[hit.index - 1] === '@') continue;
    emit(name, hit[2]!, hit.index);
  }
  const only = VERSION_ONLY.exec(text);
  if (only !== null && leadIn !== '') {
    const last = LAST_NAME.exec(leadIn);
    const name = last?.[1];
    const at = last === null ? -1 : last.index + last[0].indexOf(name!);
    // A product the list knows: a runtime's version is its slot's (用 Go 写，版本定在 1.22); any other's goes with the
    // product's own value (…is ActiveMQ Artemis, version 2.31), which this rule does not rewrite.
    // (A known name just before it is the same product's: ActiveMQ Artemis.)
    const known = lexicon.products(leadIn).find((p) => p.start <= at && at <= p.valueEnd + 1);
    if (name !== undefined && leadIn[at - 1] !== '@' && (known === undefined || lexicon.vocabulary.runtimes[known.surface.toLowerCase()] !== undefined)) {
      emit(known?.surface ?? name, only[1]!, only.index);
    } else if (name === undefined) {
      // 生产的 k8s 集群在阿里云杭州，版本 1.29: the clause before ends on no name, but names one runtime, and the
      // version is that runtime's.
      const runtimes = lexicon.products(leadIn).filter((p) => lexicon.vocabulary.runtimes[p.surface.toLowerCase()] !== undefined && p.value === p.surface);
      if (runtimes.length === 1) emit(runtimes[0]!.surface, only[1]!, only.index);
    }
  }
  return out;
}
