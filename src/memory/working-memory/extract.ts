/**
 * One user message → its Extraction: entities, facts, deprecated topics. Rules only, no model call:
 * a typical message takes well under a millisecond. Build an extractor once (it compiles the vocabulary)
 * and reuse it.
 */
import { compileClauseMatchers, quotedSpans, splitClauses, type ClauseMatchers } from './clauses.ts';
import { compileDateMentionMatchers, findDateMentions, findMonths } from './date-mentions.ts';
import { compileEntityMatchers, findEntities, type EntityMatchers } from './entities.ts';
import { withoutPassingToday } from './entities-today.ts';
import { compileEventMatchers } from './facts-events.ts';
import { compilePersonalMatchers } from './facts-personal.ts';
import { compileSettingsMatchers } from './facts-settings.ts';
import { compileSpecialMatchers } from './facts-special.ts';
import { findFacts, type FactMatchers } from './facts.ts';
import { compileTripMatchers } from './facts-trips.ts';
import { mistakenSlotRestated } from './facts-mistaken.ts';
import { toLocalTime } from './instant.ts';
import { compileLexicon } from './lexicon.ts';
import { prepareText } from './text.ts';
import { compileTopicRules } from './topic.ts';
import type { Extraction, Instant } from './types.ts';
import type { DateMention } from '../../shared/date-mention.ts';
import { resolveVocabulary, type VocabularyOverrides, type WmVocabulary } from './vocabulary.ts';
import { AssistantError } from '../../shared/errors.ts';

export interface ExtractorOptions {
  readonly vocabulary?: VocabularyOverrides;
  /** Text beyond this many characters is not read (a pasted log holds no decisions worth the time). */
  readonly maxChars?: number;
}

export interface Extractor {
  readonly vocabulary: WmVocabulary;
  /**
   * Reads one message written at `now` (ISO 8601 with its UTC offset: relative dates resolve in that offset).
   * Never throws on text; throws `invalid_input` only for a `now` that is not a time.
   */
  extract(text: string, now: Instant): Extraction;
  /**
   * The relative times `text` names (yesterday, last Friday, 上周, 去年), resolved in the calendar of `now`, in text
   * order (date-mentions.ts). Same contract for `now` as `extract`.
   */
  dateMentions(text: string, now: Instant): DateMention[];
  /**
   * The months `text` names, `YYYY-MM`: by the calendar (July 2022, 2022年7月) or relative to `now` (last month,
   * 上个月). A question naming one asks about what happened in it.
   */
  monthsNamed(text: string, now: Instant): string[];
  /**
   * The slots a fact's value can fill when it names a known product: its own first, then the others it also fills
   * (Nginx: web server, reverse proxy); [] for any other value. Working memory keeps one role under one name with it.
   */
  rolesOf(value: string): readonly string[];
}

export const DEFAULT_MAX_CHARS = 12_000;

/** What a text naming a month holds: a year, or the word (last month, 上个月). */
const MAY_NAME_A_MONTH = /\d{4}|month|月/i;

export function createExtractor(options: ExtractorOptions = {}): Extractor {
  const vocabulary = resolveVocabulary(options.vocabulary);
  const maxChars = options.maxChars ?? DEFAULT_MAX_CHARS;
  if (!Number.isInteger(maxChars) || maxChars < 1) {
    throw new AssistantError('invalid_config', `maxChars must be a positive integer, got ${String(maxChars)}.`);
  }
  const entityMatchers: EntityMatchers = compileEntityMatchers(vocabulary);
  const mentionMatchers = compileDateMentionMatchers(vocabulary.dates);
  const clauseMatchers: ClauseMatchers = compileClauseMatchers(vocabulary.triggers);
  const lexicon = compileLexicon(vocabulary);
  const factMatchers: FactMatchers = {
    lexicon,
    topics: compileTopicRules(vocabulary.triggers),
    special: compileSpecialMatchers(lexicon),
    events: compileEventMatchers(vocabulary.subjects),
    trips: compileTripMatchers(vocabulary.subjects),
    personal: compilePersonalMatchers(vocabulary.personal),
    settings: compileSettingsMatchers(vocabulary.settings),
  };
  return {
    vocabulary,
    dateMentions(text, now) {
      const local = toLocalTime(now);
      if (typeof text !== 'string' || text.trim() === '') return [];
      const { norm } = prepareText(text, maxChars);
      return findDateMentions(norm, local, findEntities(norm, local, entityMatchers), mentionMatchers);
    },
    monthsNamed(text, now) {
      const local = toLocalTime(now);
      // Every month it reads names a year (four digits) or says month / 月: most messages name none.
      if (typeof text !== 'string' || !MAY_NAME_A_MONTH.test(text)) return [];
      const { norm } = prepareText(text, maxChars);
      const spans = findEntities(norm, local, entityMatchers);
      return findMonths(norm, spans, findDateMentions(norm, local, spans, mentionMatchers), mentionMatchers);
    },
    rolesOf(value) {
      if (typeof value !== 'string') return [];
      const product = lexicon.products(value).find((p) => p.start === 0 && p.valueEnd >= value.trim().length);
      return product === undefined ? [] : [product.subject, ...product.alsoFills];
    },
    extract(text, now) {
      const local = toLocalTime(now);
      if (typeof text !== 'string' || text.trim() === '') return { entities: [], facts: [], deprecate: [] };
      const { raw, norm } = prepareText(text, maxChars);
      lexicon.scope(norm);
      const spans = findEntities(norm, local, entityMatchers);
      const clauses = splitClauses(raw, norm, clauseMatchers);
      const found = findFacts(clauses, spans, factMatchers, quotedSpans(norm));
      const { deprecate, events } = found;
      let facts = found.facts;
      // 刚才端口说错了，应该是 8444: the slot and its righted value, a clause apart, read as the plain statement.
      const restated = facts.length === 0 ? mistakenSlotRestated(norm, lexicon) : null;
      if (restated !== null) facts = findFacts(splitClauses(restated, restated, clauseMatchers), findEntities(restated, local, entityMatchers), factMatchers).facts;
      const kept = withoutPassingToday(spans, norm, local);
      // (A Set: a pasted log holds thousands of entities.)
      const keptSet = new Set(kept);
      const passingDates = [...new Set(spans.filter((e) => e.type === 'date' && !keptSet.has(e)).map((e) => e.value))];
      const extraction: Extraction = {
        entities: kept.map(({ type, value }) => ({ type, value })),
        facts,
        deprecate,
      };
      const pin = lexicon.has('remember', norm);
      const correction = facts.length === 0 ? bareCorrection(norm) : null;
      // Each product by its name, also of a pair that fills one slot (Prometheus + Grafana).
      const mentions = [...new Set(lexicon.products(norm).sort((a, b) => a.start - b.start).flatMap((p) => p.surface.split(/\s*\+\s*/)))];
      lexicon.scope('');
      return {
        ...extraction,
        ...(pin ? { pin: true as const } : {}),
        ...(correction === null ? {} : { correction }),
        ...(events.length === 0 ? {} : { events }),
        ...(mentions.length === 0 ? {} : { mentions }),
        ...(passingDates.length === 0 ? {} : { passingDates }),
      };
    },
  };
}

let shared: Extractor | null = null;

/** Extracts with the default vocabulary (compiled on first use). */
export function extract(text: string, now: Instant): Extraction {
  shared ??= createExtractor();
  return shared.extract(text, now);
}

/** `Extractor.dateMentions` with the default vocabulary. */
export function dateMentions(text: string, now: Instant): DateMention[] {
  shared ??= createExtractor();
  return shared.dateMentions(text, now);
}

/** `Extractor.monthsNamed` with the default vocabulary. */
export function monthsNamed(text: string, now: Instant): string[] {
  shared ??= createExtractor();
  return shared.monthsNamed(text, now);
}

/** A correction at the start of a message that names no slot: Actually it's 8444, not 8443. / 更正一下，是 9091。 */
const BARE_CORRECTION =
  /^\s*(?:actually|correction|sorry|oops|wait|my bad|更正(?:一下)?|纠正(?:一下)?|其实|不对|说错了|写错了)[\s,，:：!！]*(?:it'?s|it is|that'?s|that is|should be|应该是|应为|是)?\s*([^\s,，。;；!！?？]+?)[.。]?(?:[\s,，]*(?:not|不是|而不是)\s*([^\s,，。;；!！?？]+?))?[\s.。!！]*$/i;
/** What a corrected value looks like: a number, a version, a name (8444, v2.3, eu-west-2, Postgres). */
const VALUE_LIKE = /^(?:v?\d[\w.:-]*|[A-Za-z][\w.+-]*)$/;

function bareCorrection(text: string): { value: string; replaces?: string } | null {
  const m = BARE_CORRECTION.exec(text);
  if (m === null || !VALUE_LIKE.test(m[1]!)) return null;
  return m[2] === undefined ? { value: m[1]! } : { value: m[1]!, replaces: m[2] };
}
