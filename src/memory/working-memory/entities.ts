/**
 * Entity extraction: each rule claims its span, and earlier rules win overlaps, so a URL holding an IP is only a
 * url and host:port only a hostport. The order below is the precedence.
 */
import { compileAmountMatchers, scanAmounts, type AmountMatchers } from './entities-amount.ts';
import { compileDateMatchers, scanNumericDates, scanWordDates, type DateMatchers } from './entities-dates.ts';
import {
  compileIdMatchers,
  scanLabelledOrders,
  scanPhones,
  scanStandaloneOrders,
  scanVersions,
  type IdMatchers,
} from './entities-ids.ts';
import { scanEmails, scanHostPorts, scanIpv4, scanIpv6, scanPaths, scanUrls } from './entities-network.ts';
import { compileTimeMatchers, scanTimes, type TimeMatchers } from './entities-times.ts';
import { EntityScan } from './entity-scan.ts';
import type { EntitySpan, LocalTime } from './types.ts';
import type { WmVocabulary } from './vocabulary.ts';

export interface EntityMatchers {
  readonly vocabulary: WmVocabulary;
  readonly ids: IdMatchers;
  readonly amounts: AmountMatchers;
  readonly times: TimeMatchers;
  readonly dates: DateMatchers;
}

export function compileEntityMatchers(vocabulary: WmVocabulary): EntityMatchers {
  return {
    vocabulary,
    ids: compileIdMatchers(vocabulary.entities),
    amounts: compileAmountMatchers(vocabulary.entities),
    times: compileTimeMatchers(vocabulary.dates, vocabulary.entities.ratioWords),
    dates: compileDateMatchers(vocabulary.dates, vocabulary.entities.dayNounFollowers),
  };
}

/** Every entity in `text` (already normalised), in text order, each (type, value) once. */
export function findEntities(text: string, now: LocalTime, m: EntityMatchers): EntitySpan[] {
  const scan = new EntityScan(text, now);
  const vocab = m.vocabulary.entities;
  scanUrls(scan);
  scanEmails(scan);
  scanIpv6(scan);
  scanHostPorts(scan, vocab);
  scanIpv4(scan, vocab);
  scanNumericDates(scan);
  scanPaths(scan);
  scanLabelledOrders(scan, m.ids);
  scanStandaloneOrders(scan, m.ids);
  scanPhones(scan);
  scanAmounts(scan, m.amounts);
  scanTimes(scan, m.times);
  scanWordDates(scan, m.dates);
  scanVersions(scan, m.ids);
  const ordered = [...scan.found].sort((a, b) => a.start - b.start || b.end - a.end);
  const seen = new Set<string>();
  return ordered.filter((e) => {
    const key = `${e.type}\u0000${e.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
