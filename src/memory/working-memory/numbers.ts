/** Numbers as people write them: 3,999 · 1.5万 · 五十万 · 两千 · $5k. */

const ZH_DIGITS: Readonly<Record<string, number>> = {
  零: 0,
  〇: 0,
  一: 1,
  二: 2,
  两: 2,
  三: 3,
  四: 4,
  五: 5,
  六: 6,
  七: 7,
  八: 8,
  九: 9,
};
const ZH_SMALL_UNITS: Readonly<Record<string, number>> = { 十: 10, 百: 100, 千: 1000 };
const ZH_BIG_UNITS: Readonly<Record<string, number>> = { 万: 10_000, 亿: 100_000_000 };

/** The characters a Chinese numeral is made of, for building patterns. */
export const ZH_NUMERAL_CHARS = '零〇一二两三四五六七八九十百千万亿';

/** A Chinese numeral (二十一, 五十万, 一百零五, 两千) or null. */
export function parseZhInteger(s: string): number | null {
  if (s === '') return null;
  let total = 0;
  let section = 0;
  let digit = -1;
  for (const ch of s) {
    if (ch in ZH_DIGITS) {
      digit = ZH_DIGITS[ch]!;
    } else if (ch in ZH_SMALL_UNITS) {
      // 十五 = 15: a unit with no digit before it counts once.
      section += (digit < 0 ? 1 : digit) * ZH_SMALL_UNITS[ch]!;
      digit = -1;
    } else if (ch in ZH_BIG_UNITS) {
      section += Math.max(digit, 0);
      if (section === 0 && total === 0) section = 1; // 万 alone
      // 亿 scales everything before it; 万 only its own section (一亿五千万 = 150,000,000).
      total = ch === '亿' ? (total + section) * ZH_BIG_UNITS[ch]! : total + section * ZH_BIG_UNITS[ch]!;
      section = 0;
      digit = -1;
    } else {
      return null;
    }
  }
  return total + section + Math.max(digit, 0);
}

/** Digits (with thousands commas) or a Chinese numeral. */
export function parseNumber(s: string): number | null {
  const t = s.trim();
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(t)) return Number(t.replace(/,/g, ''));
  if (/^\d+(?:\.\d+)?$/.test(t)) return Number(t);
  if (/^\.\d+$/.test(t)) return Number(t);
  // 1万5千 / 2万5 (the next unit down implied) / 1万5百 / 1千2
  const mixed = /^(\d+)(?:万(\d)([千百]?)|千(\d)百?)$/.exec(t);
  if (mixed !== null) {
    const [, head, wan, unit, qian] = mixed;
    return wan !== undefined ? Number(head) * 10_000 + Number(wan) * (unit === '百' ? 100 : 1000) : Number(head) * 1000 + Number(qian) * 100;
  }
  return parseZhInteger(t);
}

/** A small count in words or digits: "3", "three", "a", "两", "十". */
export function parseCount(s: string, words: Readonly<Record<string, number>>): number | null {
  const t = s.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t);
  if (t in words) return words[t]!;
  return parseZhInteger(t);
}

/** `12000`, `12.5`, `0.99`: no separators, at most two decimals. */
export function formatNumber(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return String(Number(n.toFixed(2)));
}
