/**
 * What the layered memory works out from each stored message (the part a prompt can hold, its entities and key
 * terms, the dates it names, its intent tags), kept in the store so a page load does not work it out again for
 * every message: at 10,000 messages that was most of the first reply's wait (the extraction alone runs ~0.3 ms a
 * message). One record per conversation, by turn id. A message's entry is used only while its stamp matches the
 * message as stored now, under the same derivation: a changed text, another window or time zone, or a new version
 * of the rules makes it a miss, worked out again.
 *
 * Bump DERIVATION_VERSION whenever extraction, key terms, intent tags or the head rule change what they return:
 * entries of an older version are then misses and are replaced as they are read.
 * test/unit/layered/derived-turns.test.ts pins the derivation of a set of examples to this version and fails when
 * they change without a bump.
 */
import { hashString } from '../../memory/embedders/index.ts';
import type { WorkingMemoryPort } from '../../memory/layered/index.ts';
import { intentTags, keyTerms, type IntentTag } from '../../memory/retrieval/index.ts';
import { entitiesWithPassingDates } from '../../memory/working-memory/index.ts';

// 3: a host:port before a full stop, "a week before" no date, …; 4: a bare day after a range's first date is in
// its month (6月8号到10号); 5: sums written half in Chinese (1万5千元), a full-width comma never groups thousands,
// an amount after a Chinese comma is found (，1200元), "for the 30th" is a date; 7: a one-numeral minute needs 分
// (8点一开放); 8: a three-part version may end in one letter (17.9.4a). ("Today" said in passing left the entities,
// but is still a date here: `entitiesWithPassingDates`.)
export const DERIVATION_VERSION = 8;

export interface DerivedTurn {
  /** `stampOf` the message's text when this was worked out. */
  stamp: string;
  /** The length of the kept part (`promptHead`): the text itself is the stored message's start. */
  head: number;
  entities: string[];
  dates: string[];
  tags: IntentTag[];
}

/**
 * Identifies a message's text under a derivation setting (`setting`: what else the result depends on, e.g. the
 * window and the time zone). Length and a 32-bit hash: a collision needs the same length and hash, and costs one
 * message's entities, never its text.
 */
export const stampOf = (content: string, setting: string): string => `${DERIVATION_VERSION}|${setting}|${content.length}|${hashString(content).toString(36)}`;

const isStrings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');

/** Only a record of the right shape: a damaged one is a miss. */
export function isDerivedTurn(v: unknown): v is DerivedTurn {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return typeof r['stamp'] === 'string' && Number.isInteger(r['head']) && (r['head'] as number) >= 0 && isStrings(r['entities']) && isStrings(r['dates']) && isStrings(r['tags']);
}

/**
 * What the pipeline works out from a stored message (the same derivation it applies to a new one): `text` is the
 * kept part of the message (`promptHead`), `time` the message's own (dates resolve against it).
 */
export function deriveTurn(text: string, time: number, stamp: string, wm: Pick<WorkingMemoryPort, 'extract'>): DerivedTurn {
  const extraction = wm.extract(text, time);
  const entities = entitiesWithPassingDates(extraction);
  const typed = entities.map((e) => `${e.type}:${e.value.toLowerCase()}`);
  return {
    stamp,
    head: text.length,
    entities: [...new Set([...typed, ...keyTerms(text)])],
    dates: [...new Set(entities.filter((e) => e.type === 'date').map((e) => e.value))],
    tags: intentTags(text),
  };
}
