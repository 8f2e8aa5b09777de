/**
 * The working-memory block for the prompt (labelled 工作记忆 / Working memory): one short line per active item,
 * facts first, then void topics, then entities, newest first; each line ends with the local time it was said.
 * Kept within a token budget (150 by default): lines beyond it are left out, least important first.
 */
import { DEFAULT_WORKING_MEMORY_CONFIG, type RenderLang, type WorkingMemoryConfig } from './config.ts';
import { fromDays, pad2, toLocalTime, weekdayOf } from './instant.ts';
import { activeItems, type FactItem, type WmItem, type WorkingMemoryState } from './state.ts';
import type { Instant } from './types.ts';
import { DAY_MS } from '../../shared/time.ts';

interface Words {
  readonly title: string;
  readonly open: string;
  readonly close: string;
  readonly sep: string;
  readonly colon: string;
  was(value: string): string;
  dropped(value: string): string;
  readonly voided: string;
}

const WORDS: Readonly<Record<RenderLang, Words>> = {
  zh: {
    title: '工作记忆',
    open: '（',
    close: '）',
    sep: '，',
    colon: '：',
    was: (v) => `原为 ${v}`,
    dropped: (v) => `不再用 ${v}`,
    voided: '已作废',
  },
  en: {
    title: 'Working memory',
    open: ' (',
    close: ')',
    sep: '; ',
    colon: ': ',
    was: (v) => `was ${v}`,
    dropped: (v) => `no longer ${v}`,
    voided: 'void',
  },
};

/** When it was said, in the offset it was said in: `HH:MM` today, `MM-DD HH:MM` before (digits cost tokens). */
function stamp(at: number, offsetMinutes: number, nowMs: number): string {
  const t = new Date(at + offsetMinutes * 60_000);
  const today = new Date(nowMs + offsetMinutes * 60_000);
  const time = `${pad2(t.getUTCHours())}:${pad2(t.getUTCMinutes())}`;
  const sameDay = t.toISOString().slice(0, 10) === today.toISOString().slice(0, 10);
  return sameDay ? time : `${pad2(t.getUTCMonth() + 1)}-${pad2(t.getUTCDate())} ${time}`;
}

/** An ISO date gets its weekday (2026-03-11 周三), which a small model cannot work out. */
function withWeekday(value: string, lang: RenderLang, config: WorkingMemoryConfig): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m === null) return value;
  const days = Math.floor(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!) / DAY_MS);
  const weekday = config.render.weekdays[lang][weekdayOf(fromDays(days)) - 1];
  return weekday === undefined ? value : `${value} ${weekday}`;
}

function factLine(item: FactItem, w: Words, lang: RenderLang, config: WorkingMemoryConfig, nowMs: number): string {
  const value = withWeekday(item.value, lang, config);
  const notes = [stamp(item.at, item.offsetMinutes, nowMs)];
  const previous = item.history.find((h) => h.op === 'set' && h.value.toLowerCase() !== item.value.toLowerCase());
  if (item.op === 'set' && previous !== undefined) notes.push(w.was(previous.value));
  const body = item.op === 'set' ? value : w.dropped(value);
  return `- ${item.subject}${w.colon}${body}${w.open}${notes.join(w.sep)}${w.close}`;
}

function itemLine(item: WmItem, lang: RenderLang, config: WorkingMemoryConfig, nowMs: number): string {
  const w = WORDS[lang];
  if (item.type === 'fact') return factLine(item, w, lang, config, nowMs);
  const when = `${w.open}${stamp(item.at, item.offsetMinutes, nowMs)}${w.close}`;
  if (item.type === 'deprecation') return `- ${w.voided}${w.colon}${item.value}${when}`;
  return `- ${config.render.typeLabels[lang][item.type]}${w.colon}${withWeekday(item.value, lang, config)}${when}`;
}

/** The block, or '' when nothing is active. */
export function renderWorkingMemory(
  state: WorkingMemoryState,
  lang: RenderLang,
  now: Instant,
  config: WorkingMemoryConfig = DEFAULT_WORKING_MEMORY_CONFIG,
): string {
  const local = toLocalTime(now);
  const items = activeItems(state, now);
  if (items.length === 0) return '';
  const w = WORDS[lang];
  const today = `${local.year}-${pad2(local.month)}-${pad2(local.day)}`;
  const header = `${w.title}${w.open}${withWeekday(today, lang, config)} ${pad2(local.hour)}:${pad2(local.minute)}${w.close}${w.colon.trim()}`;
  const lines: string[] = [];
  const count = config.render.countTokens;
  let tokens = count(header);
  for (const item of items) {
    if (lines.length >= config.render.maxLines) break;
    const line = itemLine(item, lang, config, local.epochMs);
    const cost = count(line) + 1;
    if (tokens + cost > config.render.maxTokens) continue;
    lines.push(line);
    tokens += cost;
  }
  return lines.length === 0 ? '' : [header, ...lines].join('\n');
}
