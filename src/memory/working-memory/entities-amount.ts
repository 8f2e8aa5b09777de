/** Sums of money as `<number> <ISO currency>`: ¥12,000 → 12000 CNY, 3千元 → 3000 CNY, $5k → 5000 USD. */
import type { EntityScan } from './entity-scan.ts';
import { formatNumber, parseNumber, ZH_NUMERAL_CHARS } from './numbers.ts';
import { alternation, escapeRegExp } from './text.ts';
import type { EntityVocabulary } from './vocab-entities.ts';

/** Digits with Chinese units between them: 1万5千, 2万5 (colloquial: 25,000), 1万5百 (10,500), 1千2; no unit may follow. */
const MIXED = `(?:\\d+万\\d[千百]?|\\d+千\\d百?)(?![\\d百千万亿])`;
const NUMBER = `(?:${MIXED}|\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?|[${ZH_NUMERAL_CHARS}]+)`;
const DIGITS = `(?:${MIXED}|\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?|\\d+(?:\\.\\d+)?)`;

export interface AmountMatchers {
  readonly prefixed: RegExp;
  readonly suffixed: RegExp;
  readonly bare: RegExp;
  readonly moneyContext: RegExp;
  readonly symbols: Readonly<Record<string, string>>;
  readonly words: ReadonlyMap<string, string>;
  readonly multipliers: Readonly<Record<string, number>>;
  readonly kuaiFollowers: string;
}

export function compileAmountMatchers(vocab: EntityVocabulary): AmountMatchers {
  const symbols = Object.keys(vocab.currencySymbols)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  const codes = Object.keys(vocab.currencyWords).filter((w) => /^[A-Z]{3}$/.test(w));
  const mult = Object.keys(vocab.multipliers)
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|');
  // A multiplier letter must end the number (5k, not 5km); a Chinese one may be followed by anything.
  const multiplier = `(?:\\s?(${mult})(?![A-Za-z]))?`;
  const wordAlt = alternation(Object.keys(vocab.currencyWords));
  return {
    prefixed: new RegExp(`(?<![A-Za-z0-9])(${symbols}|${codes.join('|')})\\s?(${DIGITS})${multiplier}`, 'g'),
    // (A comma before the number stops a match only after a digit: "1,234" is one number, "预算，6000 元" holds one.)
    suffixed: new RegExp(`(?<![\\d.${ZH_NUMERAL_CHARS}])(?<!\\d,)(${NUMBER})${multiplier}\\s?(${wordAlt})`, 'g'),
    bare: new RegExp(`(?<![\\d.])(?<!\\d,)(?:(${MIXED})|(${DIGITS})\\s?(万|千|亿))(?![\\d元块美欧英日港])`, 'g'),
    moneyContext: new RegExp(alternation(vocab.moneyContext), 'i'),
    symbols: vocab.currencySymbols,
    words: new Map(Object.entries(vocab.currencyWords).map(([w, c]) => [w.toLowerCase(), c])),
    multipliers: vocab.multipliers,
    kuaiFollowers: vocab.kuaiFollowers,
  };
}

/**
 * The amount as labelled: cents kept as written (£74.50, ¥3,280.50 → 3280.50), thousands separators dropped; a sum
 * with a multiplier or in Chinese numerals as its number.
 */
function written(numberText: string, multiplier: string | undefined, n: number): string {
  const plain = numberText.replace(/[,，\s]/g, '');
  return multiplier === undefined && /^\d+\.\d{1,2}$/.test(plain) ? plain : formatNumber(n);
}

function value(numberText: string, multiplier: string | undefined, m: AmountMatchers): number | null {
  const n = parseNumber(numberText);
  if (n === null) return null;
  return multiplier === undefined ? n : n * (m.multipliers[multiplier] ?? 1);
}

export function scanAmounts(scan: EntityScan, m: AmountMatchers): void {
  const text = scan.text;
  for (const match of text.matchAll(m.prefixed)) {
    const currency = m.symbols[match[1]!] ?? m.words.get(match[1]!.toLowerCase());
    const n = value(match[2]!, match[3], m);
    if (currency === undefined || n === null) continue;
    scan.add('amount', `${written(match[2]!, match[3], n)} ${currency}`, match.index, match.index + match[0].length);
  }
  for (const match of text.matchAll(m.suffixed)) {
    const word = match[3]!;
    const end = match.index + match[0].length;
    // 3块硬盘 counts disks; 200块钱, 200块的, 200块。 are yuan.
    if (word === '块') {
      const next = text[end] ?? '';
      if (next !== '' && /[\u4e00-\u9fff]/.test(next) && !m.kuaiFollowers.includes(next)) continue;
    }
    // "550.54 won't load": a contraction, not the Korean won.
    if (/^[A-Za-z]/.test(word) && /^['’][a-z]/i.test(text.slice(end))) continue;
    // A Chinese numeral needs a Chinese currency word (三千元), not "one dollar" spelled half in Chinese.
    if (!/\d/.test(match[1]!) && !/[\u4e00-\u9fff]/.test(word)) continue;
    const currency = m.words.get(word.toLowerCase()) ?? m.words.get(word);
    const n = value(match[1]!, match[2], m);
    if (currency === undefined || n === null || n === 0) continue;
    scan.add('amount', `${written(match[1]!, match[2], n)} ${currency}`, match.index, end);
  }
  scanBareYuan(scan, m);
}

/** 预算50万 with no currency word is yuan when the clause is about money. */
function scanBareYuan(scan: EntityScan, m: AmountMatchers): void {
  const text = scan.text;
  for (const match of text.matchAll(m.bare)) {
    const clauseStart = Math.max(
      text.lastIndexOf('，', match.index),
      text.lastIndexOf(',', match.index),
      text.lastIndexOf('。', match.index),
      0,
    );
    if (!m.moneyContext.test(text.slice(clauseStart, match.index))) continue;
    const n = match[1] !== undefined ? parseNumber(match[1]) : value(match[2]!, match[3], m);
    if (n === null) continue;
    scan.add('amount', `${formatNumber(n)} CNY`, match.index, match.index + match[0].length);
  }
}
