/**
 * What a message drops. A known product it drops is an `unset` of its slot (Redis 不用了 → cache: Redis);
 * a plan, an idea or a question it voids is a deprecated topic, kept as written (Kafka 方案, that plan).
 */
import type { Clause } from './clauses.ts';
import type { Lexicon, Mark, ProductMark } from './lexicon.ts';
import { hasCjk } from '../../shared/cjk.ts';
import { topicPhrase, trimPunctuation, type TopicRules } from './topic.ts';
import type { Fact } from './types.ts';

export interface Found<T> {
  readonly item: T;
  /** Offset in the message, to keep text order. */
  readonly at: number;
}

/** A dropped product, with the other slots it also fills (`ProductGroup.alsoFills`). */
export type UnsetFound = Found<Fact> & { readonly alsoFills: readonly string[] };

export interface DropResult {
  readonly unsets: UnsetFound[];
  /** Products a drop said as not meant keeps ("we're not moving off Nomad", 我没说要放弃 Redis): set, as stated. */
  readonly keeps: Found<Fact>[];
  readonly deprecations: Found<string>[];
  /** Offsets (in the clause) of products dropped, so no rule sets them. */
  readonly consumed: Set<number>;
}

/** Words before a voided topic that only lead in (那就…, ok so…); 那 before a measure word (那个, 那套) points at the topic. */
const LEAD_FILLERS = /^(?:\s|那(?![个些套种条段句样])|那就|好吧|好|嗯|ok|okay|so|and|also|然后|还有|另外|对了|把)+/i;
/** A drop word said as not meant: 我没说要放弃, 这个方案我没放弃, 并没有取消. */
const NOT_DROPPED_BEFORE = /(?:没|没有|并没|并没有|没说要|没说过要|不会|不打算)\s*$/;

/** "the plan to rewrite billing in Go", "the idea of moving to Azure": what the plan is belongs to it. */
const PLAN_BEFORE = /^\s*(?:[\w'-]+\s+){0,3}?(?:plan|idea|proposal|suggestion|decision|attempt|effort|trip|road trip|vacation|holiday|journey|visit|move|migration)s?\b/i;

/** After a product, words that make it a modifier of what follows: Redis-based, Kafka-backed. */
const MODIFIER_AFTER = /^\s*-?\s*(?:based|backed|powered|driven|based on)\b/i;
/**
 * Material about a product ("skip the GitHub Actions examples", "the bash-only tricks", 别给我 flake8 的配置), a part
 * or an edition of it (其他 AWS region 一律不用, "drop the Terraform Cloud setup", Docker Desktop): dropping it keeps
 * the product.
 */
const MATERIAL_AFTER = /^\s*(?:-?\s*(?:only|specific)\s+)?(?:的\s*)?(?:examples?|configs?|configuration|snippets?|docs|documentation|tutorials?|syntax|answers?|tricks|tips|hacks|regions?\b|zones?\b|cloud\b|desktop\b|配置|示例|例子|文档|教程|写法|代码|区域|地域|可用区)/i;

/** What the answers should no longer give (不要再给 JavaScript 版本了, 别再写长段落): an instruction, not a void topic. */
const GIVEN_IN_ANSWERS = /^\s*(?:再\s*(?:给|写|输出|贴|提供|举)|给我)/;

/** A number or an amount alone: 一万五, 3000 块, $500. */
const AMOUNT_ONLY = /^[\s\d.,，零〇一二两三四五六七八九十百千万亿kKwW$¥€£]+(?:元|块|块钱|美元|欧元|刀|dollars?|bucks|usd|cny|eur)?$/i;

/** Before a product in a dropped object: it names where the thing is (logs from Loki, the index in Elasticsearch). */
// ("not on Heroku anymore": said of the place itself, it is what is left.)
const PLACE_BEFORE = /(?<!\b(?:not|no longer)\s+)\b(?:from|in|on|of|at|inside|within)\s+(?:(?:the|our|my|a|an)\s+)?$/i;
/** Drop words that call off a topic but never a product: "delete the logs" is about data, not a tool. */
// ("Forget what I said about the GraphQL gateway": what the user said is void, not a product dropped.)
const TOPIC_ONLY_DROPS = /^(?:delete|deleted|(?:forget|ignore|disregard)\s+(?:what|everything|all that)\b.*)$/i;
/** Before 把 in a move (打算把 X 迁到 Y): the move is planned, and leaves nothing yet. */
const PLANNED = /打算|计划|准备|想|要|考虑|可能/;
/**
 * After a move's verb: it is done (换成了 Caddy; 换成 Caddy 了), so it drops the old one as 从 X 换成 Y 了 does without 把
 * (the README's drop "with a set for its replacement when one is named").
 */
const DONE_AFTER = /^\s*了|^[^，,。；;！!？?]{1,40}?了\s*(?:[，,。；;！!]|$)/;
/** Before "to" in a dropped object: a move, whose "to" belongs to it ("moving to Mongo"). */
const MOVE_BEFORE = /\b(?:moving|switching|migrating|going|changing|upgrading|porting)\s+(?:[\w-]+\s+){0,2}$/i;

const FOR_WHEN = /^for\s+(?:now|this|that|these|next|today|tomorrow|a\s+while|the\s+(?:moment|time\s+being|rest))\b/i;

function endOfObject(text: string, from: number, lexicon: Lexicon): number {
  let end = text.length;
  for (const stop of lexicon.words('objectStops', text)) {
    if (stop.start <= from || stop.start >= end) continue;
    // ("for this sprint", "for now" say when, not what.)
    const tellsWhatPlan = /^to$/i.test(stop.surface) || (/^for$/i.test(stop.surface) && !FOR_WHEN.test(text.slice(stop.start)));
    if (tellsWhatPlan && PLAN_BEFORE.test(text.slice(from, stop.start))) continue;
    // "what I said about moving to Mongo": a move keeps where it goes.
    if (/^to$/i.test(stop.surface) && MOVE_BEFORE.test(text.slice(from, stop.start))) continue;
    end = stop.start;
  }
  // A long object is cut after 64 characters, at the end of the word there rather than inside it.
  const cap = from + 64;
  return end <= cap ? end : Math.min(end, cap + /^[\w.+#-]*/.exec(text.slice(cap))![0].length);
}

function negatedBefore(clause: string, at: number, lexicon: Lexicon): boolean {
  const window = clause.slice(Math.max(0, at - 12), at);
  return (/(?:don't|do not|never|\bnot|别|不要|不能|千万别)\s*$/i.test(window) || NOT_DROPPED_BEFORE.test(window)) && !lexicon.has('remember', window);
}

/**
 * A switch names what it leaves: 从 NFS 换到 MinIO, "migrated from Jenkins to Buildkite". The value left is an
 * unset of the slot the new one fills (its own product's slot when it is a known product).
 */
const FROM_TO_ZH = /(?:从|由|把)\s*([^\s，,。；;][^，,。；;]{0,23}?)\s*(?:都|全部|全)?\s*(?:换到|换成|迁到|迁移到|迁去|切到|切换到|改到|改成|搬到|转到)/g;
/** "We swapped Celery for Dramatiq": the first is left. */
const SWAPPED_EN = /\bswap(?:ped|ping|s)?\s+(?:out\s+)?([A-Za-z][\w.+#-]*(?:\s+[A-Z0-9][\w.+#-]*){0,2})\s+(?:for|with)\b/gi;
const FROM_TO_EN = /\b(?:switch(?:ed|es|ing)?|migrat(?:e|ed|es|ing)|mov(?:e|ed|es|ing)|chang(?:e|ed|es|ing)|roll(?:ed|s|ing)?\s+[\w\s]{0,24}?back|downgrad(?:e|ed|es|ing))\b[^,;.]{0,24}?\b(?:from|off(?:\s+of)?)\s+([A-Za-z][\w.+#-]*(?:\s+[A-Z0-9][\w.+#-]*){0,2})\s+(?:over\s+)?(?:to|onto|into)\b/gi;

function switchedFrom(clause: Clause, products: readonly ProductMark[], result: DropResult, lexicon: Lexicon): void {
  const text = clause.text;
  for (const m of [...text.matchAll(FROM_TO_ZH), ...text.matchAll(FROM_TO_EN), ...text.matchAll(SWAPPED_EN)]) {
    const start = m.index + m[0].indexOf(m[1]!);
    const end = start + m[1]!.length;
    const left = products.filter((p) => p.start >= start && p.end <= end);
    const next = products.find((p) => p.start >= m.index + m[0].length);
    // 我刚把 Nginx 换成了 Caddy leaves Nginx; a move planned or asked for (打算把…迁到, 把 Redis 换成 Valkey 吧) not yet.
    if (m[0].startsWith('把') && (PLANNED.test(text.slice(0, m.index)) || !DONE_AFTER.test(text.slice(m.index + m[0].length)))) continue;
    // "switched DNS from GoDaddy to Cloudflare": the slot the switch names is the one left.
    const named = lexicon.subjects(text.slice(m.index, start)).at(-1)?.subject;
    if (left.length > 0) {
      for (const p of left) {
        if (result.consumed.has(p.start)) continue;
        // (A slot word that neither product can fill names something else: "moved the frontend build from webpack".)
        const fits = named !== undefined && [p, next].some((q) => q !== undefined && (q.subject === named || q.alsoFills.includes(named)));
        result.unsets.push({ item: { subject: fits ? named! : next !== undefined && p.alsoFills.includes(next.subject) ? next.subject : p.subject, value: p.value, op: 'unset' }, at: clause.start + p.start, alsoFills: p.alsoFills });
        result.consumed.add(p.start);
      }
    } else if (next !== undefined && /^[A-Za-z][\w.+#-]*$/.test(m[1]!.trim()) && /[A-Z0-9]/.test(m[1]!)) {
      // An unknown name left for a known product: NFS → MinIO leaves NFS as the object storage.
      result.unsets.push({ item: { subject: named ?? next.subject, value: m[1]!.trim(), op: 'unset' }, at: clause.start + start, alsoFills: [] });
    }
  }
}

/** Where the last colon of a clause is (not one of a URL or a time: http://, 11:30); -1 when there is none. */
function lastColon(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) {
    if (text[i] === '：') return i;
    if (text[i] === ':' && !/^:(?:\/\/|\d)/.test(text.slice(i, i + 3))) return i;
  }
  return -1;
}

/** A phrase headed by a pronoun ("one at 10.0.0.3", "anything with shrimp…"): it stands for a thing, not a topic. */
const PRONOUN_HEAD = /^(?:one|ones|anything|everything|something|nothing|it|them|those|these)\b/i;

export function findDrops(clause: Clause, lexicon: Lexicon, rules: TopicRules, products: ProductMark[]): DropResult {
  const result: DropResult = { unsets: [], keeps: [], deprecations: [], consumed: new Set() };
  const text = clause.text;
  const strongAt = new Set(lexicon.words('strongDrop', text).map((m) => m.start));
  const classify = (object: Mark, trigger: Mark): void => {
    const phrase = trimPunctuation(object.surface);
    if (phrase === '' || GIVEN_IN_ANSWERS.test(phrase)) return;
    const strong = strongAt.has(trigger.start) || lexicon.has('strongDrop', trigger.surface);
    // "the Redis-based rate limiter": a product that only qualifies the thing dropped is not dropped itself.
    const all = products.filter((p) => p.start >= object.start && p.end <= object.end);
    const qualifying = all.filter((p) => MODIFIER_AFTER.test(clause.text.slice(p.valueEnd)));
    // "the old logs from Loki": a product after a preposition is where the thing is, not the thing (nothing drops).
    const inside = all.filter(
      (p) => !qualifying.includes(p) && !PLACE_BEFORE.test(clause.text.slice(object.start, p.start)) && !MATERIAL_AFTER.test(clause.text.slice(p.valueEnd)),
    );
    const ending = lexicon.words('topicEndings', phrase).find((w) => w.end === phrase.length);
    // TypeORM 那套不要了, Java 那套不用了: a named product with only 那套 after it is the product dropped (blind
    // labellers unset it in every such message); 灰度那套, 滚动更新那套 (a way of working), Helm 那套方案 stay topics.
    const productOnly = ending !== undefined && /套$/.test(ending.surface) && inside.length > 0 && inside.every((p) => /[A-Za-z]/.test(p.surface)) && /^[\s的]*$/.test(inside.reduceRight((t, p) => t.slice(0, p.start - object.start) + t.slice(p.valueEnd - object.start), phrase.slice(0, ending.start)));
    const endsAsTopic = ending !== undefined && !productOnly;
    // A slot word is no topic noun: "our message queue isn't RabbitMQ anymore" drops RabbitMQ, not a "message" topic.
    const slotWords = lexicon.subjects(phrase);
    const bare = slotWords.length === 0 ? phrase : slotWords.reduceRight((t, w) => t.slice(0, w.start) + ' '.repeat(w.end - w.start) + t.slice(w.end), phrase);
    if (lexicon.has('topicNouns', bare) || endsAsTopic || (qualifying.length > 0 && qualifying.length === all.length)) {
      const topic = topicPhrase(phrase, rules);
      if (!PRONOUN_HEAD.test(topic)) result.deprecations.push({ item: topic, at: clause.start + object.start });
      inside.forEach((p) => result.consumed.add(p.start));
    } else if (inside.length > 0 && !TOPIC_ONLY_DROPS.test(trigger.surface)) {
      for (const p of inside) {
        // A runtime dropped at a version drops that version (Node 18 is EOL for us → node version ≠ 18).
        const runtime = lexicon.vocabulary.runtimes[p.surface.toLowerCase()];
        const version = p.value.slice(p.surface.length).trim();
        // 配置中心不用 Nacos 了: the slot word just before the verb says which of the product's slots it leaves.
        const named = lexicon.subjects(text.slice(0, trigger.start)).find((w) => /^[\s的]*(?:也|都|已经|就|现在|以后)?\s*$/.test(text.slice(w.end, trigger.start)));
        const slot = named !== undefined && named.subject !== p.subject && p.alsoFills.includes(named.subject) ? named.subject : p.subject;
        const item: Fact = runtime !== undefined && version !== '' ? { subject: runtime, value: version, op: 'unset' } : { subject: slot, value: p.value, op: 'unset' };
        result.unsets.push({ item, at: clause.start + p.start, alsoFills: p.alsoFills });
        result.consumed.add(p.start);
      }
    } else if (strong) {
      const topic = topicPhrase(phrase, rules);
      // 之前说的一万五不算数了: a value taken back is a correction (its slot says the new one), not a topic.
      // "the old one at 10.0.0.3 is gone", "skip anything with shrimp": a pronoun names no topic.
      if (!AMOUNT_ONLY.test(topic) && !PRONOUN_HEAD.test(topic)) result.deprecations.push({ item: topic, at: clause.start + object.start });
    }
  };

  // "moving CI off Jenkins", "migrated our logs off Splunk": the verb and off around what moves (moved off X is a
  // drop word of its own).
  const movesOff: Mark[] = [...text.matchAll(MOVE_OBJECT_OFF)].map((m) => ({ start: m.index, end: m.index + m[0].length, surface: m[0].trimEnd() }));
  for (const trigger of [...lexicon.words('dropBefore', text), ...movesOff]) {
    if (negatedBefore(text, trigger.start, lexicon)) {
      // "Don't forget to restart Redis" is a reminder, not a choice kept.
      if (!/忘|forget/i.test(trigger.surface)) keep(text.slice(trigger.end, endOfObject(text, trigger.end, lexicon)), trigger.end);
      continue;
    }
    const before = text.slice(0, trigger.start);
    if (/忘/.test(trigger.surface) && lexicon.has('forgetSubjects', before.slice(-2))) continue;
    // An English drop verb is an instruction only at the start of its clause (so not "I forget the syntax").
    if (!hasCjk(trigger.surface) && !isLeadIn(before, lexicon)) continue;
    if (/^forget/i.test(trigger.surface) && /\b(?:i|we|you|they|he|she)\s*$/i.test(before)) continue;
    const from = trigger.end;
    const end = endOfObject(text, from, lexicon);
    const needsLe = lexicon.words('dropBeforeNeedsLe', trigger.surface).some((w) => w.surface === trigger.surface);
    if (needsLe && !/^\s*了/.test(text.slice(end))) continue;
    // scrap 掉 X, cancel 掉那个 X: 掉 completes the verb.
    const complement = /^\s*掉/.exec(text.slice(from, end))?.[0].length ?? 0;
    const surface = text.slice(from + complement, end);
    // 作废吧, drop 了: a particle after the drop word is not what it drops.
    if (/^[\s吧了啊呀嘛呢哦]*$/.test(surface)) continue;
    // 不要再推荐 Warp 了, "stop suggesting Deno", "skip any Heroku suggestions": what to suggest, not what the user drops.
    if (SUGGEST_VERB.test(surface) || SUGGESTIONS_OF.test(surface)) continue;
    const lead = complement + surface.length - surface.trimStart().length;
    classify({ start: from + lead, end: from + surface.trimEnd().length, surface: surface.trim() }, trigger);
  }
  for (const trigger of lexicon.words('dropAfter', text)) {
    // CI 方案改一下：Jenkins 不用了: what is dropped starts after a colon (the words before it announce it).
    const whole = text.slice(0, trigger.start);
    const colon = lastColon(whole);
    const head = colon < 0 ? whole : ' '.repeat(colon + 1) + whole.slice(colon + 1);
    if (NOT_DROPPED_BEFORE.test(head)) continue;
    // 卸了又装, 取消了再订: undone at once, not dropped.
    if (/^\s*(?:又|再|重)/.test(text.slice(trigger.end))) continue;
    // 配置不用改了, 不用担心: no need to change it (it stays as it is), not a drop.
    // (Helm 相关的就不用讲了, 不用解释: no need to talk about it — a wish about the answer, not a drop.)
    if (/^不用$/.test(trigger.surface) && /^\s*(?:改|动|调|修|换|重启|担心|操心|讲|说|解释|介绍|提|展开|细说|回答|教)/.test(text.slice(trigger.end))) continue;
    // 消息队列不用 RabbitMQ 了: the word drops the product after it (a drop before its object), not the words before.
    if (products.some((p) => p.start >= trigger.end && /^\s*$/.test(text.slice(trigger.end, p.start)))) continue;
    // 决定不用 GE 了: the same, for a name the vocabulary does not know — 不用 X 了 drops X (the loop above), and
    // the decision before it is no topic.
    if (lexicon.has('dropBeforeNeedsLe', trigger.surface) && DROPS_WHAT_FOLLOWS.test(text.slice(trigger.end))) continue;
    const lead = head.length - head.replace(LEAD_FILLERS, '').length;
    // 刚才说的都不算, …讨论就当作废吧: adverbs before the drop word belong to it, not to the topic.
    const surface = head
      .slice(lead)
      .trim()
      .replace(/(?:都|也|就|先|全|全部|统统|暂时|还是|再|就先|都先|就当|权当|就算|直接)$/, '')
      .trim();
    if (surface === '') continue;
    // "we don't need Redis anymore": the object is what the clause is about, not its verbs.
    classify({ start: lead, end: lead + surface.length, surface }, trigger);
  }
  switchedFrom(clause, products, result, lexicon);
  return dedupe(result);

  /** The products of a drop said as not meant stay what they are (a plan kept, 灰度方案, is no choice of product). */
  function keep(object: string, from: number): void {
    const phrase = trimPunctuation(object);
    if (lexicon.has('topicNouns', phrase) || lexicon.words('topicEndings', phrase).length > 0) return;
    for (const p of products) {
      if (p.start < from || p.end > from + object.length || result.consumed.has(p.start)) continue;
      result.keeps.push({ item: { subject: p.subject, value: p.value, op: 'set' }, at: clause.start + p.start });
      result.consumed.add(p.start);
    }
  }
}

/** A move off something with what moves between the verb and off (one to three words). */
const MOVE_OBJECT_OFF = /\b(?:mov(?:e|es|ed|ing)|migrat(?:e|es|ed|ing))\s+(?:[\w.+#-]+\s+){1,3}?off\s+/gi;

/**
 * After 不用 / 不要: a name, then 了 (不用 GE 了), or a name's part (ESLint 不用 standard 那套 config 了): what is
 * dropped follows the word (不用管了 drops what is before).
 */
const DROPS_WHAT_FOLLOWS = /^\s*[A-Za-z0-9][\w.+#-]*(?:\s+[A-Za-z0-9][\w.+#-]*)?\s*(?:(?:那套|这套|那个|这个|的)\s*[\w\u4e00-\u9fff]{1,8}?\s*)?了/;

/** A drop of suggestions of a thing ("skip any Heroku suggestions", "drop the Kafka recommendations"): not of the thing. */
const SUGGESTIONS_OF = /^\s*(?:any|all|the)?\s*[\w.+#-]+(?:\s+[\w.+#-]+)?\s+(?:suggestions?|recommendations?|advice|tips)\b/i;
/** A verb of suggesting right after a drop word (再推荐, recommending): the drop is of the suggestion. */
const SUGGEST_VERB = /^\s*(?:再|又)?\s*(?:给我)?\s*(?:推荐|提起|提到|安利|recommend|suggest|mention|bring up)/i;

function isLeadIn(before: string, lexicon: Lexicon): boolean {
  let rest = before.trim();
  for (let guard = 0; rest !== '' && guard < 6; guard++) {
    const words = lexicon.words('dropLeadIns', rest).filter((m) => m.start === 0);
    if (words.length === 0) return false;
    rest = rest.slice(Math.max(...words.map((m) => m.end))).replace(/^[\s,，]+/, '');
  }
  return rest === '';
}

function dedupe(r: DropResult): DropResult {
  const seenUnset = new Set<string>();
  const seenTopic = new Set<string>();
  return {
    consumed: r.consumed,
    keeps: r.keeps,
    unsets: r.unsets.filter((f) => {
      const key = `${f.item.subject}\u0000${f.item.value}`;
      return seenUnset.has(key) ? false : (seenUnset.add(key), true);
    }),
    deprecations: r.deprecations.filter((d) => (seenTopic.has(d.item) ? false : (seenTopic.add(d.item), true))),
  };
}
