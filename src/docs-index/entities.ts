/**
 * HTML character references in text (HTML pages, and entities written in Markdown): numeric ones and the named
 * ones docs actually use. An unknown name is left as written. Pure.
 */

const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', copy: '©', reg: '®', trade: '™',
  hellip: '…', mdash: '—', ndash: '–', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»',
  middot: '·', bull: '•', times: '×', divide: '÷', rarr: '→', larr: '←', uarr: '↑', darr: '↓', harr: '↔',
  rArr: '⇒', lArr: '⇐', le: '≤', ge: '≥', ne: '≠', plusmn: '±', deg: '°', para: '¶', sect: '§', shy: '\u00ad',
  ensp: '\u2002', emsp: '\u2003', thinsp: '\u2009', zwj: '\u200d', zwnj: '\u200c', euro: '€', pound: '£', yen: '¥',
  cent: '¢', check: '✓', hearts: '♥',
};

const REFERENCE = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z][A-Za-z0-9]{1,31}));?/g;

function fromCodePoint(code: number): string {
  return code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff) ? '\ufffd' : String.fromCodePoint(code);
}

export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
    if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
    if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
    const named = name === undefined ? undefined : NAMED[name];
    return named === undefined || !whole.endsWith(';') ? whole : named;
  });
}
