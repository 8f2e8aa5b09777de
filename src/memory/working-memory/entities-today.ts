/**
 * "Today" said in passing (今天好累, "ssh keeps timing out since this morning") names no date worth keeping: the
 * message's own day is already its time. Labellers write today's date only when a clock time goes with it (今天早上
 * 8点半, "tonight at 10"), when a standing rule starts from it (从今天起, "starting today"), or when it is a due day
 * (今天下班前要交, "due today"). The others leave the entity list; facts still read every date.
 */
import { isoDate } from './instant.ts';
import type { Entity, EntitySpan, Extraction, LocalTime } from './types.ts';

/** How near a clock time must be to the day word to go with it, in its clause (今天的周会推迟到下午4:30). */
const TIME_REACH = 16;
const CLAUSE_BREAK = /[，,。;；!！?？\n]|\.\s/;
/** Just before the day word: a rule that starts from it (从今天起, starting today, as of today). */
const STARTS_FROM = /(?:从|自|由|starting|start|from|as of|effective|beginning)\s*$/i;
/** Just after it: 从今天开始 / 今天起. */
const STARTS_AFTER = /^\s*(?:起|开始|以后|之后|on\b|onwards?\b)/i;
/** Around it: a due day (今天之内要交, due today, by tonight, 截止). */
const DUE = /截止|之前|以前|之内|下班前|前(?:要|得|必须)|要交|得交|\bdue\b|\bby\s*$|\bdeadline\b|\bbefore\b/i;

export function withoutPassingToday(spans: readonly EntitySpan[], text: string, now: LocalTime): EntitySpan[] {
  const today = isoDate(now);
  return spans.filter((s) => {
    if (s.type !== 'date' || s.relative !== true || s.value !== today) return true;
    const near = spans.some((t) => {
      if (t.type !== 'time') return false;
      const between = t.start >= s.end ? text.slice(s.end, t.start) : text.slice(t.end, s.start);
      return between.length <= TIME_REACH && !CLAUSE_BREAK.test(between);
    });
    if (near) return true;
    const before = text.slice(Math.max(0, s.start - 12), s.start);
    const after = text.slice(s.end, s.end + 12);
    return STARTS_FROM.test(before) || STARTS_AFTER.test(after) || DUE.test(before) || DUE.test(after);
  });
}

/**
 * The entities retrieval indexes for a message: its entities and the days it names in passing (an extraction's
 * `passingDates`), so a question about that day still finds a turn that only said "today".
 */
export function entitiesWithPassingDates(extraction: Pick<Extraction, 'entities' | 'passingDates'>): Entity[] {
  const passing = extraction.passingDates ?? [];
  return passing.length === 0 ? [...extraction.entities] : [...extraction.entities, ...passing.map((value) => ({ type: 'date' as const, value }))];
}
