/** Order and ticket numbers, phone numbers, versions. */
import type { EntityScan } from './entity-scan.ts';
import { alternation, escapeRegExp } from './text.ts';
import type { EntityVocabulary } from './vocab-entities.ts';

const ORDER_TOKEN = /#?[A-Za-z0-9](?:[A-Za-z0-9_]|-(?=[A-Za-z0-9])|\/(?=[A-Za-z0-9]))*/y;
const ORDER_FILLER = /\s*(?:号码|编号|号|ID|Id|id|number|No\.?|no\.?|num|#(?![A-Za-z0-9]))?\s*(?:是|为|:|=|is|：)?\s*/y;
const PHONE_PATTERNS: readonly RegExp[] = [
  // Chinese mobile, optionally +86, grouped 3-4-4 by spaces or dashes.
  /(?<![\w+\-])(?:\+?86[\s-]?)?1[3-9]\d(?:[\s-]?\d{4}){2}(?![\w-])/g,
  // Chinese landline with area code: 010-12345678, (0755) 8601 3388.
  /(?<![\w+\-])(?:\(0\d{2,3}\)\s?|0\d{2,3}-)\d{3,4}[\s-]?\d{4}(?:-\d{1,5})?(?![\w-])/g,
  // 400 / 800 service numbers.
  /(?<![\w+\-])[48]00-?\d{3}-?\d{4}(?![\w-])/g,
  // International: +44 20 7946 0958, +1 (415) 555-0132, +44 7700 900123 (a UK mobile's last group has six digits).
  /(?<![\w+])\+\d{1,3}[\s-]?(?:\(\d{1,4}\)[\s-]?)?\d{1,4}(?:[\s-]\d{2,8}){1,4}(?![\w-])/g,
  // North American: (415) 555-0132, 415-555-0132, 415.555.0132.
  /(?<![\w+\-(.])(?:\(\d{3}\)\s?|\d{3}[-.])\d{3}[-.]\d{4}(?![\w-]|\.\d)/g,
];
const STANDALONE_HASH = /(?<![\w#&])#(?:\d{3,}|(?=[A-Z0-9-]*\d)[A-Z][A-Z0-9]*-[A-Z0-9-]*\d)(?![\w-])/g;
const STANDALONE_CODE = /(?<![\w-])([A-Z][A-Z0-9]{1,9})-\d{3,}(?:-[A-Z0-9]+)*(?![\w-])/g;
const STANDALONE_LONG = /(?<![\w-])([A-Z]{2,4})\d{8,}(?![\w])/g;
// (Three parts may end in one letter, as firmware and OpenSSL releases do: 17.9.4a, 1.1.1w.)
const DOTTED = /(?<![\w.\-/])\d+(?:(?:\.\d+){2,}[a-wyz]|(?:\.\d+)+)(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\d)/g;
const V_PREFIXED = /(?<![\w.\-/])(?:v\d+(?:\.\d+)*|V\d+(?:\.\d+)+)(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?(?![\w]|\.\d)/g;

export interface IdMatchers {
  readonly orderLabel: RegExp;
  readonly stoplist: ReadonlySet<string>;
  readonly unitAfter: RegExp;
}

export function compileIdMatchers(vocab: EntityVocabulary): IdMatchers {
  // A one-character Chinese unit counts only where no word goes on (3.5分, not 3.9 升级).
  const units = [...vocab.quantityUnits]
    .sort((a, b) => b.length - a.length)
    .map((u) =>
      /^[\u4e00-\u9fff]$/.test(u) ? `${escapeRegExp(u)}(?![\u4e00-\u9fff](?<![的左右多了以上下内]))` : escapeRegExp(u),
    )
    .join('|');
  return {
    orderLabel: new RegExp(alternation(vocab.orderLabels), 'gi'),
    stoplist: new Set(vocab.orderPrefixStoplist.map((s) => s.toUpperCase())),
    unitAfter: new RegExp(`^\\s?(?:${units})(?![A-Za-z])`, 'i'),
  };
}

/** A number after a label (订单 ORD-1, ticket #45821, Order ID 是 77KQ21): the label and filler words are dropped. */
export function scanLabelledOrders(scan: EntityScan, m: IdMatchers): void {
  for (const label of scan.text.matchAll(m.orderLabel)) {
    ORDER_FILLER.lastIndex = label.index + label[0].length;
    ORDER_FILLER.exec(scan.text);
    ORDER_TOKEN.lastIndex = ORDER_FILLER.lastIndex;
    const token = ORDER_TOKEN.exec(scan.text);
    if (token === null) continue;
    const value = token[0];
    if (!/\d/.test(value) || value.replace('#', '').length < (value.startsWith('#') ? 2 : 4)) continue;
    scan.add('order_id', value, token.index, token.index + value.length);
  }
}

/** Ticket-shaped codes without a label: #45821, INC-2231, SF1234567890. */
export function scanStandaloneOrders(scan: EntityScan, m: IdMatchers): void {
  for (const re of [STANDALONE_HASH, STANDALONE_CODE, STANDALONE_LONG]) {
    for (const match of scan.text.matchAll(re)) {
      const prefix = match[1];
      if (prefix !== undefined && m.stoplist.has(prefix.toUpperCase())) continue;
      scan.add('order_id', match[0], match.index, match.index + match[0].length);
    }
  }
}

export function scanPhones(scan: EntityScan): void {
  for (const re of PHONE_PATTERNS) {
    for (const match of scan.text.matchAll(re)) {
      const value = match[0].trim();
      const digits = value.replace(/\D/g, '').length;
      if (digits < 7 || digits > 15) continue;
      scan.add('phone', value, match.index, match.index + value.length);
    }
  }
}

/** A dot or a leading v makes a version (3.12, v1.29.2); a unit or a currency after it makes a quantity. */
export function scanVersions(scan: EntityScan, m: IdMatchers): void {
  for (const match of scan.text.matchAll(V_PREFIXED)) {
    scan.add('version', match[0], match.index, match.index + match[0].length);
  }
  for (const match of scan.text.matchAll(DOTTED)) {
    const end = match.index + match[0].length;
    const before = scan.text.slice(Math.max(0, match.index - 2), match.index);
    if (m.unitAfter.test(scan.text.slice(end, end + 12))) continue;
    if (/[$¥￥€£]\s?$/.test(before)) continue;
    scan.add('version', match[0], match.index, end);
  }
}
