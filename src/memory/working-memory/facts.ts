/**
 * Facts: decisions, preferences and statements of setup, one value per subject slot. A value is set when a
 * decision word leads to it (用 / switch to / go with), when a slot word names it (数据库是 MySQL), or by a slot's
 * own rule (budget, deadline, region…). Questions, maybes and hypotheses set nothing.
 */
import { carriedFacts, continuedFacts, correctedFacts, endsOnSetProduct, listedFacts, refinedVersion, type ListFound, type ListTail } from './facts-continued.ts';
import type { Clause } from './clauses.ts';
import { versionMoves } from './facts-version-moves.ts';
import { findDrops, type Found, type UnsetFound } from './drops.ts';
import { findEventFacts, type EventMatchers } from './facts-events.ts';
import { findLanguageFacts, withoutRedundantProhibitions } from './facts-language.ts';
import { selfCorrected } from './facts-self-corrected.ts';
import { qualifies, setFacts } from './facts-set.ts';
import { namedVersionFacts } from './facts-named-versions.ts';
import { refileSides } from './facts-sides.ts';
import { findTripFacts, tripsSpokenOf, type TripMatchers } from './facts-trips.ts';
import { medicalContext } from './facts-medication.ts';
import { findPersonalFacts, type PersonalMatchers } from './facts-personal.ts';
import { findSpecialFacts, type SpecialMatchers } from './facts-special.ts';
import { newSettingsState, settingFacts, type SettingsMatchers } from './facts-settings.ts';
import type { Lexicon, Mark, ProductMark, SubjectMark } from './lexicon.ts';
import type { TopicRules } from './topic.ts';
import type { EntitySpan, Fact } from './types.ts';

/** A question that asks which of the things named: 哪个, which one, 还是. */
const ASKS_WHICH = /哪个|哪一个|哪种|哪家|哪款|\bwhich\b|还是/i;
const MASKING: ReadonlySet<string> = new Set(['url', 'email', 'path', 'hostport', 'ipv4', 'ipv6', 'order_id', 'phone']);
/** What a story of the past does not set: where something ran once, or where the user lived then (读研的时候我住在南京). */
const isPlacement = (subject: string): boolean => subject === 'region' || subject === 'location' || /(?:^|\s)(?:port|address|url)$/.test(subject);

/** The user's own contact details: theirs in a conditional sentence too. */
const CONTACT_SUBJECTS: ReadonlySet<string> = new Set(['phone number', 'email']);

export interface FactMatchers {
  readonly lexicon: Lexicon;
  readonly topics: TopicRules;
  readonly special: SpecialMatchers;
  readonly events: EventMatchers;
  readonly trips: TripMatchers;
  readonly personal: PersonalMatchers;
  readonly settings: SettingsMatchers;
}

export interface FactResult {
  readonly facts: Fact[];
  readonly deprecate: string[];
  /** Events and their time (facts-events.ts): kept apart from the labelled facts. */
  readonly events: Fact[];
}

export function findFacts(
  clauses: readonly Clause[],
  entities: readonly EntitySpan[],
  m: FactMatchers,
  /** Quoted text (`quotedSpans`): facts said inside it are someone else's words. */
  quoted: ReadonlyArray<{ start: number; end: number }> = [],
): FactResult {
  const facts: Array<Found<Fact> | UnsetFound> = [];
  const deprecations: Found<string>[] = [];
  const events: Found<Fact>[] = [];
  /** Facts of the user's own life (facts-personal.ts): they fill only slots no other rule set (below). */
  const personal: Found<Fact>[] = [];
  let lastUnsetSubject: string | null = null;
  /** Products each clause names that no rule set or dropped, for the replacement of a drop (below). */
  const unclaimed: Array<{ product: ProductMark; at: number }> = [];
  /** A slot word that ended its sentence with no value ("The staging queue."): the next sentence may give it one. */
  let pendingSubject: { subject: string; sentence: number } | null = null;
  // A product set at the very end of the clause before: a list or a version may go on in the next one.
  let listTail: ListTail | null = null;
  // What the clause before set, for a clause that only takes a value back ("…3.11, not 3.9").
  let justSet: { sentence: number; facts: Fact[] } = { sentence: -1, facts: [] };
  const lastOfSentence = new Set(clauses.filter((c, i) => clauses[i + 1]?.sentence !== c.sentence));
  const budgetNamed = clauses.some((c) => !c.question && !c.tentative && m.lexicon.has('budgetWords', c.text));
  const trips = tripsSpokenOf(clauses, m.trips);
  // (Once a message: a paste has thousands of clauses.)
  const medical = medicalContext(clauses.map((c) => c.text).join(' '));
  const deadlineNamed = clauses.some((c) => !c.question && !c.tentative && m.lexicon.has('deadlineWords', c.text));
  // Entities by clause and dates by sentence, in one pass each (a pasted log has thousands of both).
  const byClause = new Map<Clause, EntitySpan[]>();
  const datesBySentence = new Map<number, EntitySpan[]>();
  let e = 0;
  for (const clause of clauses) {
    while (e < entities.length && entities[e]!.start < clause.start) e++;
    const inside: EntitySpan[] = [];
    for (let i = e; i < entities.length && entities[i]!.start < clause.end; i++) {
      const entity = entities[i]!;
      if (entity.end > clause.end) continue;
      inside.push(entity);
      if (entity.type !== 'date') continue;
      const dates = datesBySentence.get(clause.sentence);
      if (dates === undefined) datesBySentence.set(clause.sentence, [entity]);
      else dates.push(entity);
    }
    byClause.set(clause, inside);
  }
  /** A clause's entities, at offsets in the clause. */
  const entitiesOf = (clause: Clause): EntitySpan[] =>
    (byClause.get(clause) ?? []).map((x) => ({ ...x, start: x.start - clause.start, end: x.end - clause.start }));
  // Sentences that ask which one ("Redis 和 Memcached 做缓存，哪个更适合…？"): candidates named there are compared, not chosen.
  const asksWhich = new Set(clauses.filter((c) => c.question && ASKS_WHICH.test(c.text)).map((c) => c.sentence));
  let answersNamed = false;
  /** The sentence a setup list began in ("current stack: …"): its later clauses name the user's products. */
  let inventory = -1;
  const settings = newSettingsState();
  // (One test a clause: a message that names no setting is not read for them, qualifiers and all.)
  const namesSettings = clauses.some((c) => m.settings.anyWord.test(c.text));
  for (const [index, clause] of clauses.entries()) {
    const before = clauses[index - 1];
    // The clause before in the same sentence: the words that say whose a number is may stand there (手机号换了，新的是 …).
    const leadIn = before !== undefined && before.sentence === clause.sentence ? before.text : '';
    // Whether a clause before in this sentence names the answers (kept as it goes: a paste is one long sentence).
    answersNamed = leadIn !== '' && (answersNamed || m.lexicon.has('answerLengthContext', leadIn));
    const context = { budgetNamed, deadlineNamed, sentenceDates: datesBySentence.get(clause.sentence) ?? [], leadIn, answersNamed };
    // Settings read every clause (a question may name whose a later setting is); only a statement sets one.
    const stated = namesSettings ? settingFacts(clause, m.settings, settings, !clause.question && !clause.tentative && !clause.narrative && !clause.notOurs) : [];
    if (clause.question) continue;
    facts.push(...stated);
    const local = entitiesOf(clause);
    if (clause.tentative) {
      // "Call me on +44 … if the deploy fails": the condition is when to call; the number is the user's all the same.
      const contact = findSpecialFacts(clause, local, m.special, { ...context, sentenceDates: [] }).filter((f) => CONTACT_SUBJECTS.has(f.item.subject));
      facts.push(...contact);
      continue;
    }
    const masked = local.filter((e) => MASKING.has(e.type));
    const free = (mark: Mark): boolean => !masked.some((e) => mark.start < e.end && e.start < mark.end);
    const products = withoutMakers(m.lexicon.products(clause.text).filter(free), clause.text);
    const subjects = m.lexicon
      .subjects(clause.text)
      .filter(free)
      .filter((s) => !products.some((p) => s.start < p.end && p.start < s.end));
    // A runtime or product moved between versions (从 8 升到了 17) is its version slot's, not a switch away from it.
    const moves = clause.notOurs ? null : versionMoves(clause.text, clause.start, products, m.lexicon);
    const drops = findDrops(clause, m.lexicon, m.topics, moves === null || moves.used.size === 0 ? products : products.filter((p) => !moves.used.has(p.start)));
    for (const start of moves?.used ?? []) drops.consumed.add(start);
    if (clause.notOurs) {
      deprecations.push(...drops.deprecations);
      continue;
    }
    facts.push(...drops.unsets, ...drops.keeps);
    deprecations.push(...drops.deprecations);
    if (drops.unsets.length > 0) lastUnsetSubject = drops.unsets[drops.unsets.length - 1]!.item.subject;
    // A void topic's words are not values either ("forget the idea of moving search to Quickwit").
    const voided = drops.deprecations.map((d) => {
      const start = clause.text.indexOf(d.item);
      return start < 0 ? null : { start, end: start + d.item.length };
    }).filter((x) => x !== null);
    const special = findSpecialFacts(clause, local, m.special, context);
    // "上次 deploy 到 us-east-1 的时候 latency 特别高": where something ran once is not where it runs.
    facts.push(...(clause.narrative ? special.filter((f) => !isPlacement(f.item.subject)) : special));
    facts.push(...findLanguageFacts(clause, m.lexicon, leadIn));
    if (!clause.narrative) events.push(...findEventFacts(clause, local, m.events));
    if (!clause.narrative) {
      const after = clauses[index + 1];
      const next = after !== undefined && after.sentence === clause.sentence && !after.question ? { clause: after, entities: entitiesOf(after) } : null;
      const products = m.lexicon.products(clause.text);
      personal.push(
        ...findPersonalFacts(clause, local, m.personal, next, {
          namesSlot: (words) => m.lexicon.subjects(words).some((s) => s.start === 0 && s.end === words.length),
          productAt: (pos) => products.some((p) => p.start === pos),
        }, medical),
      );
    }
    // Where the user goes, unless the clause voids it ("scrap the trip to Bali") or the trip is for work.
    if (!clause.narrative && !trips.business) {
      const found = findTripFacts(clause, m.trips, m.lexicon, { tripContext: trips.trip, dated: context.sentenceDates.length > 0 });
      // A place set counts only in a decided or changed trip; one the user no longer goes to always does.
      const kept = found.filter((f) => f.item.op === 'unset' || trips.decided);
      facts.push(...kept.filter((f) => !voided.some((v) => f.at - clause.start >= v.start && f.at - clause.start < v.end)));
    }
    // 用 Python 写一个快速排序: a request for one task, not a choice (以后都用 Python 写 is one).
    const task = m.lexicon.has('taskVerbs', clause.text) && !m.lexicon.has('standing', clause.text);
    if (clause.narrative || task) continue;
    if (asksWhich.has(clause.sentence) && products.some((p, i) => products.some((q, j) => j > i && q.subject === p.subject))) continue;
    facts.push(...(moves?.facts ?? []));
    const open = products.filter((p) => !drops.consumed.has(p.start));
    // A dropped product still counts as named: the new slot value cannot be a word next to it. A slot word that
    // ended the sentence before names the slot of this one's value (测试环境的消息队列。现在跑的是 NSQ。).
    const carried = pendingSubject !== null && pendingSubject.sentence === clause.sentence - 1 && subjects.length === 0 ? pendingSubject.subject : null;
    const dropped = products.filter((p) => drops.consumed.has(p.start));
    let set: Array<Found<Fact> | ListFound> = setFacts(clause, open, subjects, local, m.lexicon, products.length === 0 ? (lastUnsetSubject ?? carried) : null, dropped, voided);
    if (carried !== null && subjects.length === 0 && set.every((f) => f.item.op === 'set')) set = carriedFacts(clause.text, clause.start, open, carried, set, m.lexicon);
    if (set.length === 0 && inventory === clause.sentence && drops.unsets.length === 0) {
      const given = new Set(facts.filter((f) => f.item.op === 'set').map((f) => f.item.subject));
      set = listedFacts(open, clause.start, 0, given, m.lexicon);
    }
    const inventoryLead = m.lexicon.words('inventoryLeads', clause.text)[0];
    if (inventoryLead !== undefined) {
      inventory = clause.sentence;
      // "Stack for the new service: Go 1.22, …": the list may begin in the lead's own clause.
      if (set.length === 0) set = listedFacts(open, clause.start, inventoryLead.end, null, m.lexicon);
    }
    if (set.length === 0 && subjects.length === 0) set = continuedFacts(clause.text, clause.start, clause.sentence, open, listTail, m.lexicon);
    if (set.length === 0 && subjects.length === 0) set = correctedFacts(clause.text, clause.start, open, leadIn, m.lexicon);
    if (set.length === 0 && justSet.sentence === clause.sentence) set = refinedVersion(clause.text, clause.start, justSet.facts);
    // Versions of names the product list does not know (kubectl 版本是 v1.30.1; …用 PyTorch，版本锁 2.3.1).
    set.push(...namedVersionFacts(clause, products, leadIn, m.lexicon, new Set([...facts, ...set].filter((f) => f.item.op === 'set').map((f) => f.item.subject))));
    justSet = { sentence: clause.sentence, facts: [...(moves?.facts ?? []), ...set].filter((f) => f.item.op === 'set').map((f) => f.item) };
    facts.push(...set);
    const tail = endsOnSetProduct(clause.text, open, new Set(set.map((f) => f.at - clause.start)));
    const listAt = set.find((f) => 'listAt' in f)?.listAt ?? clause.start;
    listTail = tail === null ? null : { sentence: clause.sentence, product: tail, listAt };
    pendingSubject = set.length === 0 && open.every((p) => qualifies(clause.text, p)) && subjects.length > 0 && lastOfSentence.has(clause) ? { subject: decidedSubject(clause.text, subjects, m.lexicon), sentence: clause.sentence } : null;
    for (const p of open) if (!set.some((f) => f.at === clause.start + p.start)) unclaimed.push({ product: p, at: clause.start + p.start });
  }
  facts.push(...replacements(facts, unclaimed, m.lexicon));
  facts.push(...personalOnly(facts, personal));
  facts.splice(0, facts.length, ...selfCorrected(facts, clauses, entities, m.lexicon));
  refileDrops(facts);
  refileReplacements(facts, m.lexicon);
  refileSides(facts, clauses, m.lexicon.vocabulary.subjects.sidedSubjects);
  facts.sort((a, b) => a.at - b.at);
  deprecations.sort((a, b) => a.at - b.at);
  const own = quoted.length === 0 ? facts : facts.filter((f) => !quoted.some((q) => f.at >= q.start && f.at < q.end));
  return {
    facts: dedupeFacts(withoutRedundantProhibitions(own), clauses),
    deprecate: [...new Set(deprecations.map((d) => d.item))],
    events: dedupeFacts(events, clauses),
  };
}

/**
 * Personal facts that say something no other rule said: a slot of their own, and a value no other fact holds ("my
 * budget is $150" is the budget rule's; "my database is PostgreSQL 16" the setup rules').
 */
function personalOnly(facts: ReadonlyArray<Found<Fact>>, personal: readonly Found<Fact>[]): Found<Fact>[] {
  const subjects = new Set(facts.map((f) => f.item.subject.toLowerCase()));
  const values = facts.map((f) => f.item.value.toLowerCase());
  return personal.filter((p) => {
    const value = p.item.value.toLowerCase();
    return !subjects.has(p.item.subject.toLowerCase()) && !values.some((v) => v.includes(value) || value.includes(v));
  });
}

/** Of the slot words of a clause with no value, the one a decision word leads to ("settled on a queue for the pipeline"), else the last. */
function decidedSubject(text: string, subjects: readonly SubjectMark[], lexicon: Lexicon): string {
  const leads = lexicon.words('set', text);
  const led = subjects.find((s) => leads.some((t) => t.end <= s.start && /^\s*(?:a|an|the|our|one|new|一个|个|了)?\s*$/i.test(text.slice(t.end, s.start))));
  return (led ?? subjects[subjects.length - 1]!).subject;
}

/**
 * A drop of a product that also fills the slot the message sets is filed under that slot (反向代理统一用 Caddy，
 * HAProxy 不用了: HAProxy was the reverse proxy, not a load balancer of its own), when nothing sets its own slot.
 */
function refileDrops(facts: Array<Found<Fact> | UnsetFound>): void {
  const set = new Set(facts.filter((f) => f.item.op === 'set').map((f) => f.item.subject));
  facts.forEach((f, i) => {
    if (f.item.op !== 'unset' || !('alsoFills' in f) || set.has(f.item.subject)) return;
    const slot = f.alsoFills.find((s) => set.has(s));
    if (slot !== undefined) facts[i] = { ...f, item: { ...f.item, subject: slot } };
  });
}

/**
 * The other way round: a replacement that also fills the dropped one's slot is set in that slot (API gateway 不用 Kong
 * 了，换成 Envoy: Envoy is the gateway now, not a load balancer of its own), when the message sets nothing else there
 * and drops nothing of the replacement's own slot.
 */
function refileReplacements(facts: Array<Found<Fact> | UnsetFound>, lexicon: Lexicon): void {
  const unsetSlots = new Set(facts.filter((f) => f.item.op === 'unset').map((f) => f.item.subject));
  facts.forEach((f, i) => {
    if (f.item.op !== 'set' || unsetSlots.has(f.item.subject)) return;
    const product = lexicon.products(f.item.value)[0];
    if (product === undefined || product.subject !== f.item.subject) return;
    const slot = product.alsoFills.find((s) => unsetSlots.has(s) && !facts.some((g) => g.item.op === 'set' && g.item.subject === s));
    if (slot !== undefined) facts[i] = { ...f, item: { ...f.item, subject: slot } };
  });
}

/**
 * A dropped value's replacement, named in the same message without a decision word of its own: "Memcached is out;
 * sessions are cached in Valkey now", "search 不用 Elasticsearch 了，换 Meilisearch". A product of the dropped one's
 * slot that no rule set, when nothing else sets that slot.
 */
function replacements(facts: readonly Found<Fact>[], unclaimed: ReadonlyArray<{ product: ProductMark; at: number }>, lexicon: Lexicon): Found<Fact>[] {
  const out: Found<Fact>[] = [];
  for (const drop of facts) {
    if (drop.item.op !== 'unset') continue;
    const subject = drop.item.subject;
    if (facts.some((f) => f.item.op === 'set' && f.item.subject === subject) || out.some((f) => f.item.subject === subject)) continue;
    const next = unclaimed.find(({ product }) => product.subject === subject && product.surface.toLowerCase() !== drop.item.value.toLowerCase());
    if (next === undefined) continue;
    const runtime = lexicon.vocabulary.runtimes[next.product.surface.toLowerCase()];
    const version = next.product.value.slice(next.product.surface.length).trim();
    out.push({ item: { subject, value: runtime === undefined ? next.product.value : next.product.surface, op: 'set' }, at: next.at });
    if (runtime !== undefined && version !== '') out.push({ item: { subject: runtime, value: version, op: 'set' }, at: next.at });
  }
  return out;
}

/**
 * Each fact once. Of values set for one slot in different clauses the last clause's stand (计划用 Nginx，算了
 * 还是用 Apache); values listed in one clause all stand (Redis 和 Memcached 都用).
 */
function dedupeFacts(facts: ReadonlyArray<Found<Fact> | ListFound>, clauses: readonly Clause[]): Fact[] {
  // A list cut at its commas counts as the clause it began in.
  const clauseOf = (f: Found<Fact> | ListFound): number => {
    const at = 'listAt' in f ? f.listAt : f.at;
    return clauses.findIndex((c) => at >= c.start && at < c.end);
  };
  const lastClause = new Map<string, number>();
  for (const f of facts) if (f.item.op === 'set') lastClause.set(f.item.subject.toLowerCase(), clauseOf(f));
  const seen = new Set<string>();
  return facts
    .filter((f) => f.item.op !== 'set' || lastClause.get(f.item.subject.toLowerCase()) === clauseOf(f))
    .map((f) => f.item)
    .filter((f) => {
      const key = `${f.subject.toLowerCase()}\u0000${f.value.toLowerCase()}\u0000${f.op}`;
      return seen.has(key) ? false : (seen.add(key), true);
    });
}

/**
 * Products named as the maker of the one right after them (Grafana Loki, Grafana Tempo): the second is the
 * product; the first names no slot of its own there ("migrated logs to Grafana Loki" chooses no dashboard). A cloud
 * before its own service (阿里云 SLS, AWS ECR, AWS Lambda) is part of that service's name: blind labellers filed
 * `logging = 阿里云 SLS` and `container registry = AWS ECR`, with no cloud provider, in 10 of 11 such messages.
 */
function withoutMakers<T extends ProductMark>(products: readonly T[], text: string): T[] {
  // In order of position, so the next mark is the one after (a long paste names thousands).
  const sorted = [...products].sort((a, b) => a.start - b.start);
  // The index of the first mark that starts after mark i ends (-1 for none).
  const nextAfter = (marks: readonly T[], i: number): number => {
    for (let j = i + 1; j < marks.length; j++) if (marks[j]!.start >= marks[i]!.end) return j;
    return -1;
  };
  // First the clouds: one before its service joins it; one before an unknown service in capitals names no slot.
  const joined: T[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const p = sorted[i]!;
    if (p.subject !== 'cloud provider') {
      joined.push(p);
      continue;
    }
    const n = nextAfter(sorted, i);
    const next = sorted[n];
    const gap = next === undefined ? '' : text.slice(p.end, next.start);
    if (next !== undefined && next.subject !== p.subject && /^ ?$/.test(gap)) {
      const after = sorted[nextAfter(sorted, n)];
      // 阿里云 RDS MySQL 8.0: a managed service of the product named after it; the product is the value.
      const hosts = after !== undefined && after.subject === next.subject && /^ +$/.test(text.slice(next.end, after.start));
      if (!hosts) joined.push({ ...next, start: p.start, surface: text.slice(p.start, next.end), value: `${p.value}${gap}${next.value}` });
      i = n;
    } else if (!/^ ?[A-Z][A-Za-z0-9]{1,11}\b/.test(text.slice(p.end))) joined.push(p);
  }
  return joined.filter((p, i) => {
    if (p.value !== p.surface) return true;
    const next = joined[nextAfter(joined, i)];
    // (The next must be a proper name: "a Laravel monolith" names the framework and the architecture.)
    return next === undefined || next.subject === p.subject || !/^[A-Z]/.test(next.surface) || !/^ +$/.test(text.slice(p.end, next.start));
  });
}
