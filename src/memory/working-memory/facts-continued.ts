/**
 * Values a clause continues from the clause before it in the same sentence: an English list cut at its commas
 * ("We use pnpm, Vite and Vitest": the clauses are "We use pnpm" and "Vite and Vitest"), and a version said on its
 * own after the product (database 统一用 PostgreSQL，版本 16.2; 集群是 Kubernetes，version 1.29), and the right value
 * after a wrong one (我们数据库用的不是 MySQL，是 MariaDB).
 */
import type { Found } from './drops.ts';
import type { Lexicon, ProductMark } from './lexicon.ts';
import type { Fact } from './types.ts';

/** A product the clause before set, as the last thing it said. */
export interface ListTail {
  readonly sentence: number;
  readonly product: ProductMark;
  /** Where the list began (in the message): its values are one list, kept whole, like a list in one clause. */
  readonly listAt: number;
}

/** A value that goes on a list begun in an earlier clause. */
export interface ListFound extends Found<Fact> {
  readonly listAt: number;
}

/** Only joiners between products, and at most a role at the end ("for unit tests"). */
const LIST_ONLY = /^[\s,，、&+]*(?:(?:and|or|plus|和|以及|与|及|还有)\s*)?[\s,，、&+]*$/i;
const TRAILING_ROLE = /\s+(?:for|as)\s+[\w\s-]{1,30}$|\s*(?:做|当|用于)[\u4e00-\u9fff\w\s-]{1,12}$/i;
/** A clause that is only a version: 版本 16.2, version 1.29, 版本号是 v1.28.4, 版本锁在 v9.4.0. */
const VERSION_ONLY =
  /^\s*(?:版本号?\s*(?:是|为|:|：|(?:锁|固定|锁定|定)(?:在|为|成|到)?|锁死在)?|version\s*(?:is|:|(?:is\s+)?(?:pinned|locked|fixed)\s+(?:to|at))?)\s*(v?\d+(?:\.\d+)+)\s*$/i;

/** Whether the clause's last product was set with nothing after it but a role or punctuation. */
export function endsOnSetProduct(text: string, products: readonly ProductMark[], setAt: ReadonlySet<number>): ProductMark | null {
  const last = products[products.length - 1];
  if (last === undefined || !setAt.has(last.start)) return null;
  const after = text.slice(last.valueEnd).replace(TRAILING_ROLE, '');
  // 换成 pnpm 了: 了 only says it is done.
  return /^\s*(?:了|吧)?[\s.。!！]*$/.test(after) ? last : null;
}

/** The facts a clause continues from `tail` (a product set at the end of the clause before), or none. */
export function continuedFacts(
  text: string,
  start: number,
  sentence: number,
  products: readonly ProductMark[],
  tail: ListTail | null,
  lexicon: Lexicon,
): ListFound[] {
  if (tail === null || tail.sentence !== sentence) return [];
  const version = products.length === 0 ? VERSION_ONLY.exec(text) : null;
  if (version !== null) {
    const runtime = lexicon.vocabulary.runtimes[tail.product.surface.toLowerCase()];
    const subject = runtime ?? `${tail.product.surface.toLowerCase()} version`;
    return [{ item: { subject, value: version[1]!, op: 'set' }, at: start, listAt: tail.listAt }];
  }
  if (products.length === 0) return [];
  let rest = '';
  let from = 0;
  for (const p of products) {
    rest += text.slice(from, p.start);
    from = p.valueEnd;
  }
  rest += text.slice(from).replace(TRAILING_ROLE, '').replace(/[\s.。!！]+$/, '');
  if (!LIST_ONLY.test(rest)) return [];
  return products.map((p) => ({ item: valueOf(p, 'set', lexicon), at: start + p.start, listAt: tail.listAt }));
}

/** The clause before says what it is not (用的不是 MySQL, isn't RabbitMQ); this one what it is (是 MariaDB). */
const NOT_BEFORE = /(?:不是|并不是|并非|isn't|is not|wasn't|was not|aren't|are not)\s*[A-Za-z0-9][\w.+# -]{0,30}$/i;
const IS_START = /^\s*(?:而是|是|it's|it is|it was|but|rather)\s*/i;
/** A clause that only says the user misspoke, before the right value: 不对，是 …; 说错了，是 …; "Sorry, it's …". */
const CORRECTION_BEFORE = /^\s*(?:不对|不是这样|说错了|我说错了|写错了|记错了|看错了|搞错了|更正一下|纠正一下|更正|纠正|sorry|correction|my bad|oops|wait|no)[\s!！.。]*$/i;

/** A version said not to be the one: Node 版本不是 18, the Python version isn't 3.9. */
const NOT_VERSION_BEFORE = /([A-Za-z][\w.+#-]*)\s*(?:的)?\s*(?:版本号?|version)\s*(?:不是|并不是|isn't|is not|wasn't)\s*(v?\d+(?:\.\d+)*)\s*$/i;
// (A major version alone is one too when the version taken back was: Java 版本不是 11，是 17.)
const IS_VERSION = /^\s*(?:而是|是|it's|it is)\s*(v?\d+(?:\.\d+)*)[\s.。!！]*$/i;

/**
 * The value a correction names (…不是 X，是 Y): Y set in its slot; or the version (Node 版本不是 18，是 20.11.1). X was
 * said by mistake, not dropped, so nothing is unset: the README's `unset` is for dropping something, and the blind
 * helper labels agree (234 of 247 corrections labelled as the right value's `set` alone; 70 of 78 labellers never unset).
 */
export function correctedFacts(text: string, start: number, products: readonly ProductMark[], leadIn: string, lexicon: Lexicon): Found<Fact>[] {
  const notVersion = NOT_VERSION_BEFORE.exec(leadIn);
  const said = notVersion === null ? null : IS_VERSION.exec(text);
  if (notVersion !== null && said !== null) {
    const name = notVersion[1]!.toLowerCase();
    const subject = lexicon.vocabulary.runtimes[name] ?? `${name} version`;
    return [{ item: { subject, value: said[1]!, op: 'set' }, at: start }];
  }
  const first = products[0];
  const is = IS_START.exec(text);
  // Both sides are names and nothing more: 我不是说 Redis 不好，是 Memcached 更简单 corrects nothing.
  if (first === undefined || is === null || first.start !== is[0].length) return [];
  // 不对，是 Ubuntu 22.04（，不是 20.04）: the clause before only says the user misspoke.
  if (CORRECTION_BEFORE.test(leadIn) && /^[\s.。!！]*$/.test(text.slice(first.valueEnd))) return [{ item: valueOf(first, 'set', lexicon), at: start + first.start }];
  if (!NOT_BEFORE.test(leadIn)) return [];
  if (!/^[\s.。!！]*$/.test(text.slice(first.valueEnd))) return [];
  return [{ item: valueOf(first, 'set', lexicon), at: start + first.start }];
}

/**
 * The products of a clause in a setup list ("current stack: next.js frontend; postgres on rds; …"), from `from` on:
 * one value a slot per clause ("postgres on rds" names the database and where it runs), and none for a slot the list
 * already gave (`given`: "prod runs PostgreSQL 16.2, and staging is still on 14.11"). With `given` null (the lead's own
 * clause, "Stack: Prometheus + Grafana, …") every product after `from` stands, as a list in one clause does.
 */
export function listedFacts(products: readonly ProductMark[], start: number, from: number, given: ReadonlySet<string> | null, lexicon: Lexicon): Array<Found<Fact>> {
  const taken = new Set(given);
  const out: Array<Found<Fact>> = [];
  for (const p of products) {
    if (p.start < from || (given !== null && taken.has(p.subject))) continue;
    taken.add(p.subject);
    out.push({ item: valueOf(p, 'set', lexicon), at: start + p.start });
  }
  return out;
}

/** A product as its slot's value: a runtime with a version is that runtime's version (Python 3.12 → python version). */
function valueOf(p: ProductMark, op: Fact['op'], lexicon: Lexicon): Fact {
  const runtime = lexicon.vocabulary.runtimes[p.surface.toLowerCase()];
  const version = p.value.slice(p.surface.length).trim();
  return runtime !== undefined && version !== '' ? { subject: runtime, value: version, op } : { subject: p.subject, value: p.value, op };
}

/** A clause that only names the value: "It's NATS.", 用 Nacos。, 选的是 Pulsar, or the name alone ("Ruff, with the defaults."). */
const ONLY_NAMES = /^\s*(?:it['’]s going to be|it is going to be|it will be|we['’]re going with|we are going with|it['’]s|it is|it['’]ll be|that['’]s|that is|we picked|we chose|we went with|went with|是|就是|用|用的是|选的是|定的是|选了|定了)?\s*$/i;

/**
 * A slot word that ended the sentence before with no value ("We finally settled on a message broker.", 配置中心最后定下
 * 来了。) names the slot of the next sentence's value ("It's NATS.", 用 Nacos。): the product that clause names is
 * that slot's, when the product can fill it.
 */
export function carriedFacts(
  text: string,
  start: number,
  products: readonly ProductMark[],
  carried: string,
  set: ReadonlyArray<Found<Fact>>,
  lexicon: Lexicon,
): Array<Found<Fact>> {
  const fills = (p: ProductMark): boolean => p.subject === carried || p.alsoFills.includes(carried);
  const only = products.length === 1 ? products[0]! : undefined;
  if (only === undefined || !fills(only) || !ONLY_NAMES.test(text.slice(0, only.start))) return [...set];
  if (!/^[\s.。!！]*$/.test(text.slice(only.valueEnd))) return [...set];
  const value = valueOf(only, 'set', lexicon);
  return [{ item: value.subject === only.subject ? { ...value, subject: carried } : value, at: start + only.start }];
}

/** A clause that only makes the version just set exact: 具体是 17.0.10, "to be exact, 20.11.1". */
const EXACTLY = /^\s*(?:具体(?:是|为|来说是|版本是)|准确(?:地)?(?:说|来说)?是|确切(?:地)?(?:说|来说)?是|精确(?:地)?(?:说|来说)?是|(?:to be (?:exact|precise)|specifically|exactly|precisely)\s*,?\s*(?:it's\s+|it is\s+)?)\s*v?(\d+(?:\.\d+)+)\s*[.。!！]?\s*$/i;

/**
 * JDK 从 8 升到了 17，具体是 17.0.10: the version slot the clause before set takes the exact version, when it begins
 * with the one set.
 */
export function refinedVersion(text: string, start: number, justSet: readonly Fact[]): Found<Fact>[] {
  const exact = EXACTLY.exec(text);
  if (exact === null) return [];
  const value = exact[1]!;
  const last = [...justSet].reverse().find((f) => /version$/i.test(f.subject) && value.startsWith(`${f.value.replace(/^v/i, '')}.`));
  return last === undefined ? [] : [{ item: { subject: last.subject, value, op: 'set' }, at: start + exact.index }];
}
