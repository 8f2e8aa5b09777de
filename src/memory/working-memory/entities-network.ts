/** URLs, e-mails, IP addresses, host:port and file paths. The earlier a rule runs, the more it wins an overlap. */
import type { EntityVocabulary } from './vocab-entities.ts';
import type { EntityScan } from './entity-scan.ts';
import { escapeRegExp, trimTrailing } from './text.ts';

const URL_RE =
  /(?<![A-Za-z0-9_])(?:(?:https?|ftp|wss?|file|ssh|git|s3|redis|postgres(?:ql)?|mysql|mongodb(?:\+srv)?|amqp|jdbc:[a-z]+):\/\/|www\.)[^\s<>"'`\u3000-\u303f\u4e00-\u9fff\uff01-\uff65\u2018-\u201d]+/gi;
const EMAIL_RE =
  /(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,}(?![A-Za-z0-9-])/g;
const IPV6_CANDIDATE = /(?<![\w:.])[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(?:%[A-Za-z0-9_.]+)?/g;
const BRACKET_HOSTPORT = /\[([0-9A-Fa-f:.]+)\]:(\d{1,5})(?![\d.:\w])/g;
const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const IPV4_RE = new RegExp(`(?<![\\w.])${IPV4}(?![\\w]|\\.\\d)`, 'g');
// A sentence's full stop may follow the port (at 10.0.0.5:8080.); a dot before more of a name may not.
const IP_HOSTPORT = new RegExp(`(?<![\\w.])(${IPV4}):(\\d{1,5})(?![\\w:-]|\\.\\w)`, 'g');
const DOMAIN_HOSTPORT =
  /(?<![\w.@/-])((?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}):(\d{1,5})(?![\w:-]|\.\w)/g;
const BARE_HOSTPORT = /(?<![\w.@/:-])([a-z][a-z0-9_-]{1,62}):(\d{2,5})(?![\w:-]|\.\w)/g;
// A glob's star belongs to the path (~/logs/worker-*.log, /var/log/*); markdown's ** around it does not.
const UNIX_PATH = /(?<![\w.:/~\\<>)\]-])(?:~\/|\/)[A-Za-z0-9._@+%=~*-][A-Za-z0-9._@+%=~*\-/]*/g;
const WINDOWS_PATH = /(?<![A-Za-z0-9_])[A-Za-z]:[\\/](?:[^\\/\s:*?"<>|，。；、,;）)]+[\\/]?)*/g;
/** `main.py:42` is a file and a line, not a host and a port. */
const FILE_EXTENSIONS =
  /\.(?:py|js|mjs|cjs|ts|tsx|jsx|go|rs|rb|java|kt|c|h|cc|cpp|hpp|cs|php|swift|txt|md|json|ya?ml|toml|ini|cfg|conf|log|sh|bash|html?|css|scss|vue|svelte|sql|xml|lock|env|gradle|properties|lua|pl|r|scala|dart|ex|exs|erl|zig)$/i;
/** A comma, then a plain word to the end of the match (no more path, query or fragment). */
const WORD_AFTER_COMMA = /,(?=[A-Za-z][A-Za-z-]*$)/;
const URL_TRAILING = '.,;:!?)]}\'"…';
const PATH_TRAILING = '.,;:!?)]}\'"…-';

export function scanUrls(scan: EntityScan): void {
  for (const m of scan.text.matchAll(URL_RE)) {
    // "…/v2，health check…": a comma (a folded full-width one, mostly) before a plain word ends the URL.
    const cut = WORD_AFTER_COMMA.exec(m[0]);
    let value = trimTrailing(cut === null ? m[0] : m[0].slice(0, cut.index), URL_TRAILING);
    // A closing bracket that the URL opened belongs to it (wiki links); otherwise it is the sentence's.
    const full = m[0];
    if (full.length > value.length && full[value.length] === ')' && value.includes('('))
      value = full.slice(0, value.length + 1);
    if (/^www\.$/i.test(value) || value.length < 8) continue;
    scan.add('url', value, m.index, m.index + value.length);
  }
}

export function scanEmails(scan: EntityScan): void {
  for (const m of scan.text.matchAll(EMAIL_RE)) scan.add('email', m[0].toLowerCase(), m.index, m.index + m[0].length);
}

export function scanIpv6(scan: EntityScan): void {
  for (const m of scan.text.matchAll(BRACKET_HOSTPORT)) {
    const address = compressIpv6(m[1]!);
    if (address !== null && Number(m[2]) <= 65535)
      scan.add('hostport', `[${address}]:${m[2]}`, m.index, m.index + m[0].length);
  }
  for (const m of scan.text.matchAll(IPV6_CANDIDATE)) {
    let candidate = m[0];
    // A sentence may end right after the address ("fe80::1."), and a single colon after it is punctuation.
    candidate = candidate.replace(/\.+$/, '');
    if (candidate.endsWith(':') && !candidate.endsWith('::')) candidate = candidate.slice(0, -1);
    const zone = candidate.indexOf('%');
    const address = compressIpv6(zone >= 0 ? candidate.slice(0, zone) : candidate);
    if (address === null) continue;
    const next = scan.text[m.index + candidate.length] ?? '';
    if (/[G-Zg-z_]/.test(next)) continue;
    scan.add('ipv6', address, m.index, m.index + candidate.length);
  }
}

export function scanHostPorts(scan: EntityScan, vocab: EntityVocabulary): void {
  const stop = new Set(vocab.hostStoplist.map((w) => w.toLowerCase()));
  for (const re of [IP_HOSTPORT, DOMAIN_HOSTPORT, BARE_HOSTPORT]) {
    for (const m of scan.text.matchAll(re)) {
      const host = m[1]!;
      const port = Number(m[2]);
      if (port < 1 || port > 65535 || m[2]!.startsWith('0')) continue;
      if (re === BARE_HOSTPORT && (stop.has(host) || (port < 100 && host !== 'localhost'))) continue;
      if (re === DOMAIN_HOSTPORT && FILE_EXTENSIONS.test(host)) continue;
      scan.add('hostport', m[0], m.index, m.index + m[0].length);
    }
  }
}

/** A dotted quad is an address unless the words just before or after it say version (version 7.1.0.4). */
export function scanIpv4(scan: EntityScan, vocab: EntityVocabulary): void {
  const words = vocab.versionWords.map((w) => escapeRegExp(w)).join('|');
  const before = new RegExp(`(?:^|[^A-Za-z])(?:${words})\\s*(?:号|number|no\\.?)?\\s*(?:是|为|:|=|is)?\\s*$`, 'i');
  const after = new RegExp(`^\\s*(?:${words})`, 'i');
  for (const m of scan.text.matchAll(IPV4_RE)) {
    const start = m.index;
    const end = start + m[0].length;
    const isVersion =
      before.test(scan.text.slice(Math.max(0, start - 16), start)) || after.test(scan.text.slice(end, end + 8));
    scan.add(isVersion ? 'version' : 'ipv4', m[0], start, end);
  }
}

export function scanPaths(scan: EntityScan): void {
  for (const re of [UNIX_PATH, WINDOWS_PATH]) {
    for (const m of scan.text.matchAll(re)) {
      const value = trimTrailing(m[0].replace(/\*\*+$/, ''), PATH_TRAILING);
      if (re === UNIX_PATH && (!/[A-Za-z]/.test(value) || value.length < 3)) continue;
      if (re === WINDOWS_PATH && value.length < 3) continue;
      scan.add('path', value, m.index, m.index + value.length);
    }
  }
}

/** Parses an IPv6 address into its 8 groups, or null when it is not one (times, MACs, ratios are not). */
export function parseIpv6(input: string): number[] | null {
  let s = input.toLowerCase();
  if (!/[0-9a-f]/.test(s) || s.length > 45) return null;
  const tail: number[] = [];
  const v4 = /(?:^|:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (v4 !== null) {
    const octets = v4.slice(1, 5).map(Number);
    if (octets.some((o, i) => o > 255 || (v4[i + 1]!.length > 1 && v4[i + 1]!.startsWith('0')))) return null;
    tail.push((octets[0]! << 8) | octets[1]!, (octets[2]! << 8) | octets[3]!);
    s = s.slice(0, s.length - v4[0].length + (v4[0].startsWith(':') ? 1 : 0));
    if (!s.endsWith(':')) return null;
    if (s.endsWith(':') && !s.endsWith('::')) s = s.slice(0, -1);
  }
  if (s.includes('.')) return null;
  const halves = s.split('::');
  if (halves.length > 2) return null;
  const parse = (part: string): number[] | null => {
    if (part === '') return [];
    const groups = part.split(':');
    if (groups.some((g) => !/^[0-9a-f]{1,4}$/.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  if (head === null || rest === null) return null;
  const known = head.length + rest.length + tail.length;
  if (halves.length === 1) return known === 8 ? [...head, ...tail] : null;
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest, ...tail];
}

/** RFC 5952 text: lower case, no leading zeros, the longest run of two or more zero groups as `::`. */
export function compressIpv6(input: string): string | null {
  const groups = parseIpv6(input);
  if (groups === null) return null;
  // An IPv4-mapped address keeps its dotted tail (RFC 5952 §5).
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `::ffff:${groups[6]! >> 8}.${groups[6]! & 255}.${groups[7]! >> 8}.${groups[7]! & 255}`;
  }
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}
