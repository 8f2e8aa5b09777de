/**
 * Calendar arithmetic in a message's own UTC offset. Relative dates (明天, next Friday) mean the writer's
 * calendar, not the machine's, so everything here works on plain Y-M-D numbers and never on the local zone.
 */
import { AssistantError } from '../../shared/errors.ts';
import type { Instant, LocalTime } from './types.ts';
import { DAY_MS } from '../../shared/time.ts';

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

export interface YMD {
  readonly year: number;
  readonly month: number;
  readonly day: number;
}

/** Reads an instant; a string keeps its own offset (none given: UTC), a Date or number is read as UTC. */
export function toLocalTime(instant: Instant, offsetMinutes?: number): LocalTime {
  let epochMs: number;
  let offset = offsetMinutes ?? 0;
  if (typeof instant === 'string') {
    const m = ISO.exec(instant.trim());
    if (m === null)
      throw new AssistantError('invalid_input', `Not an ISO 8601 time: ${JSON.stringify(instant.slice(0, 40))}`);
    const zone = m[7];
    let zoneOffset: number | undefined;
    if (zone !== undefined) {
      const digits = zone.slice(1).replace(':', '');
      zoneOffset =
        zone.toUpperCase() === 'Z'
          ? 0
          : (zone.startsWith('-') ? -1 : 1) * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
    }
    const local = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
    const { year, month, day } = fromDays(Math.floor(local / DAY_MS));
    if (year !== +m[1]! || month !== +m[2]! || day !== +m[3]! || +(m[4] ?? 0) > 23 || +(m[5] ?? 0) > 59) {
      throw new AssistantError('invalid_input', `Not a calendar time: ${JSON.stringify(instant.slice(0, 40))}`);
    }
    // The string's own offset says which instant it is; the caller's offset, if any, only changes the calendar.
    epochMs = local - (zoneOffset ?? offsetMinutes ?? 0) * 60_000;
    offset = offsetMinutes ?? zoneOffset ?? 0;
  } else {
    epochMs = typeof instant === 'number' ? instant : instant.getTime();
  }
  if (!Number.isFinite(epochMs)) throw new AssistantError('invalid_input', 'The time is not a finite instant.');
  if (!Number.isInteger(offset) || Math.abs(offset) > 18 * 60) {
    throw new AssistantError('invalid_input', `UTC offset out of range: ${offset} minutes`);
  }
  const shifted = new Date(epochMs + offset * 60_000);
  const year = shifted.getUTCFullYear();
  const month = shifted.getUTCMonth() + 1;
  const day = shifted.getUTCDate();
  return {
    epochMs,
    offsetMinutes: offset,
    year,
    month,
    day,
    weekday: weekdayOf({ year, month, day }),
    hour: shifted.getUTCHours(),
    minute: shifted.getUTCMinutes(),
  };
}

/** Days since 1970-01-01 of a calendar date. */
export function toDays(d: YMD): number {
  return Math.floor(Date.UTC(d.year, d.month - 1, d.day) / DAY_MS);
}

export function fromDays(days: number): YMD {
  const t = new Date(days * DAY_MS);
  return { year: t.getUTCFullYear(), month: t.getUTCMonth() + 1, day: t.getUTCDate() };
}

export function addDays(d: YMD, n: number): YMD {
  return fromDays(toDays(d) + n);
}

/** 1 = Monday … 7 = Sunday. */
export function weekdayOf(d: YMD): number {
  const w = new Date(Date.UTC(d.year, d.month - 1, d.day)).getUTCDay();
  return w === 0 ? 7 : w;
}

export function isValidDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

export function isoDate(d: YMD): string {
  return `${String(d.year).padStart(4, '0')}-${pad2(d.month)}-${pad2(d.day)}`;
}

export function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/** A month and day without a year: the year that puts it closest to today (Jan 2 said on Dec 30 is next year). */
export function nearestYear(today: YMD, month: number, day: number): YMD | null {
  return closestValid(today, [today.year - 1, today.year, today.year + 1].map((year) => ({ year, month, day })));
}

/** A day of the month without a month (15号): the nearest such date in the previous, this or next month. */
export function nearestMonth(today: YMD, day: number): YMD | null {
  return closestValid(
    today,
    [0, 1, -1].map((delta) => {
      const month0 = today.month - 1 + delta;
      return { year: today.year + Math.floor(month0 / 12), month: (((month0 % 12) + 12) % 12) + 1, day };
    }),
  );
}

/** The valid date nearest to `today` among the candidates (the first one wins a tie). */
function closestValid(today: YMD, candidates: readonly YMD[]): YMD | null {
  let best: YMD | null = null;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (!isValidDate(candidate.year, candidate.month, candidate.day)) continue;
    const distance = Math.abs(toDays(candidate) - toDays(today));
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Shifts a month (下个月5号): the same day `delta` months on, or null when that month has no such day. */
export function shiftMonth(today: YMD, delta: number, day: number): YMD | null {
  const month0 = today.month - 1 + delta;
  const year = today.year + Math.floor(month0 / 12);
  const month = (((month0 % 12) + 12) % 12) + 1;
  return isValidDate(year, month, day) ? { year, month, day } : null;
}

/**
 * A weekday relative to today. `week` 0 = this calendar week (Monday first), 1 = next, -1 = last;
 * `null` = the next one on or after today (a bare 周五 / Friday).
 */
export function weekdayDate(today: YMD, weekday: number, week: number | null): YMD {
  const current = weekdayOf(today);
  if (week === null) return addDays(today, (weekday - current + 7) % 7);
  return addDays(today, 7 * week + weekday - current);
}
