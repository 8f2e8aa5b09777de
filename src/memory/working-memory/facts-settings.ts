/**
 * Numeric settings: a word that names the setting, a link, and its value — "line length 设成 100", "cap the line
 * length at 100", 覆盖率要求不低于80%, 日志…保留30天, "we keep them for 30 days", "the cache TTL is 300 seconds". A
 * setting of something (a retention, a TTL, a timeout) takes its slot from the nearest word before it that says
 * whose it is (日志 → log retention), in its clause or an earlier one. A value changed in place (从 300s 改成 600s)
 * is the new one; the clause after a setting word with no value may lead to it (cache TTL 改一下，从 300s 改成 600s;
 * 日志保留时间重新算了一下。最后定成 30 天).
 * Values are kept as written (30 天, 14 days), a count without its unit (100 characters → 100). The words are data
 * (vocab-settings.ts).
 */
import type { Clause } from './clauses.ts';
import type { Found } from './drops.ts';
import { alternation } from './text.ts';
import type { Fact } from './types.ts';
import type { SettingSlot, SettingsVocabulary } from './vocab-settings.ts';

interface CompiledSetting {
  readonly slot: SettingSlot;
  readonly word: RegExp;
  readonly qualifier: RegExp | null;
  readonly qualifierOf: ReadonlyMap<string, string>;
  /** The value at the start of a text: group 1 the value as written (with its unit), group 2 the count alone. */
  readonly value: RegExp;
  /** A value changed in place, before the new one: 从 300s 改成, "from 300s to". */
  readonly changedFrom: RegExp;
}

export interface SettingsMatchers {
  readonly settings: readonly CompiledSetting[];
  /** Any setting's word: a message without one is not read for settings at all (most messages). */
  readonly anyWord: RegExp;
  /** Fillers and a link after the setting's word, up to the value. */
  readonly lead: RegExp;
}

export function compileSettingsMatchers(v: SettingsVocabulary): SettingsMatchers {
  const fillers = `(?:${alternation(v.linkFillers)}\\s*)*`;
  const lead = new RegExp(`^\\s*${fillers}(?:${alternation(v.links)}\\s*)?${fillers}`, 'i');
  const durationUnits = [...v.durationUnits].sort((a, b) => b.length - a.length).map((u) => u.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const countUnits = alternation(v.countUnits);
  const valueOf = (slot: SettingSlot): RegExp => {
    if (slot.value === 'percent') return /^((\d{1,3}(?:\.\d+)?)\s*[%％])/;
    if (slot.value === 'count') return new RegExp(`^((\\d{2,4})(?:\\s*${countUnits})?)(?![\\d.%％:])`, 'i');
    const unit = `(?:${durationUnits})(?![A-Za-z])`;
    return new RegExp(`^((\\d+(?:\\.\\d+)?)\\s*${slot.bareNumber === true ? `(?:${unit})?(?![\\d.%％:])` : unit})`, 'i');
  };
  return {
    settings: v.slots.map((slot) => {
      const qualifiers = Object.keys(slot.qualifiers ?? {});
      const value = valueOf(slot);
      return {
        slot,
        word: new RegExp(alternation(slot.words), 'gi'),
        qualifier: qualifiers.length === 0 ? null : new RegExp(alternation(qualifiers), 'gi'),
        qualifierOf: new Map(Object.entries(slot.qualifiers ?? {}).map(([k, s]) => [k.toLowerCase(), s])),
        value,
        changedFrom: new RegExp(`^\\s*(?:从|由|\\bfrom\\b)\\s*${value.source.slice(1)}\\s*(?:改成|改为|改到|调到|调成|升到|降到|到|\\bto\\b)\\s*`, 'i'),
      };
    }),
    lead,
    anyWord: new RegExp(alternation(v.slots.flatMap((slot) => slot.words)), 'i'),
  };
}

/** The settings read so far in a message: the last qualifier of each, and a setting word still waiting for its value. */
export interface SettingsState {
  readonly lastQualifier: Map<number, string>;
  pending: { setting: number; subject: string; sentence: number } | null;
}

export const newSettingsState = (): SettingsState => ({ lastQualifier: new Map(), pending: null });

/** The value at `pos`: after the lead, and after a value it changes from. */
function valueAt(text: string, pos: number, setting: CompiledSetting, m: SettingsMatchers, linked = false): { value: string; at: number } | null {
  let at = pos + (m.lead.exec(text.slice(pos))?.[0].length ?? 0);
  const from = setting.changedFrom.exec(text.slice(at));
  if (from !== null) at += from[0].length;
  // A value for a setting named in the clause before must be led to (最后定成 30 天), not just stand there.
  if (linked && at === pos) return null;
  const found = setting.value.exec(text.slice(at));
  if (found === null) return null;
  // A count keeps only its number (100 characters → 100); a share and a span of time are kept as written.
  return { value: setting.slot.value === 'count' ? found[2]! : found[1]!.trim(), at };
}

/**
 * The settings `clause` states. `state` carries over the message's clauses (call for every clause in order,
 * questions included, so that the qualifiers they name count).
 */
export function settingFacts(clause: Clause, m: SettingsMatchers, state: SettingsState, states: boolean): Found<Fact>[] {
  const text = clause.text;
  const out: Found<Fact>[] = [];
  const pending = state.pending;
  state.pending = null;
  if (states && pending !== null && clause.sentence - pending.sentence <= 1) {
    const found = valueAt(text, 0, m.settings[pending.setting]!, m, true);
    if (found !== null) out.push({ item: { subject: pending.subject, value: found.value, op: 'set' }, at: clause.start + found.at });
  }
  m.settings.forEach((setting, index) => {
    const qualifiers = setting.qualifier === null ? [] : [...text.matchAll(setting.qualifier)];
    let taken = false;
    for (const word of text.matchAll(setting.word)) {
      // Whose setting: the nearest qualifier before the word in this clause, else the last an earlier clause named.
      const before = qualifiers.filter((q) => q.index + q[0].length <= word.index).at(-1);
      const qualifier = before?.[0].toLowerCase() ?? state.lastQualifier.get(index);
      const subject = qualifier === undefined ? setting.slot.subject : (setting.qualifierOf.get(qualifier) ?? setting.slot.subject);
      if (subject === '' || taken || !states) continue;
      const end = word.index + word[0].length;
      const found = valueAt(text, end, setting, m);
      if (found === null) {
        // No value here: the next clause may lead to it (cache TTL 改一下，从 300s 改成 600s; 日志保留时间重新算了一下。最后定成 30 天).
        state.pending = { setting: index, subject, sentence: clause.sentence };
        continue;
      }
      // One value a setting a clause: the first said.
      taken = true;
      out.push({ item: { subject, value: found.value, op: 'set' }, at: clause.start + found.at });
    }
    const last = qualifiers.at(-1);
    if (last !== undefined) state.lastQualifier.set(index, last[0].toLowerCase());
  });
  return out;
}
