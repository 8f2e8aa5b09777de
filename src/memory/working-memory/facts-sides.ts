/**
 * Slots said of one side of a system (facts.ts runs it on a message's facts): a programming language said of the
 * backend is `backend language`. The sides and their words are data (`SubjectVocabulary.sidedSubjects`).
 */
import type { Clause } from './clauses.ts';
import type { Found, UnsetFound } from './drops.ts';
import type { Fact } from './types.ts';
import type { SubjectVocabulary } from './vocab-subjects.ts';

/** Words of code examples: the language of the answers' code, not of a side of the system. */
const CODE_EXAMPLES = /示例|例子|样例|代码片段|\b(?:examples?|samples?|snippets?)\b/i;

/**
 * A slot said of one side of a system takes that side's slot (后端统一用 Go 写 → `backend language`; blind labellers
 * named it so in 10 of 12 such messages; one wrote `language`, one spoke of code examples): the side named last
 * before the fact in its sentence, else the only side the message names.
 */
export function refileSides(facts: Array<Found<Fact> | UnsetFound>, clauses: readonly Clause[], sided: SubjectVocabulary['sidedSubjects']): void {
  if (!facts.some((f) => sided[f.item.subject] !== undefined)) return;
  const text = clauses.map((c) => c.text).join('\n').toLowerCase();
  // The sides the whole message names, once per slot.
  const namedSides = new Map<string, string[]>();
  const sidesNamed = (subject: string, sides: Readonly<Record<string, readonly string[]>>): string[] => {
    let named = namedSides.get(subject);
    if (named === undefined) {
      named = Object.entries(sides).filter(([, words]) => words.some((w) => text.includes(w.toLowerCase()))).map(([slot]) => slot);
      namedSides.set(subject, named);
    }
    return named;
  };
  facts.forEach((f, i) => {
    const sides = sided[f.item.subject];
    if (sides === undefined) return;
    const clause = clauses.find((c) => f.at >= c.start && f.at < c.end);
    // 以后前端代码示例统一用 TypeScript: the language of the answers' examples, not of a side of the system.
    if (clause !== undefined && CODE_EXAMPLES.test(clause.text)) return;
    const before = clause === undefined ? '' : clauses.filter((c) => c.sentence === clause.sentence && c.start <= clause.start).map((c) => c.text).join(' ').toLowerCase();
    let best: { slot: string; at: number } | null = null;
    for (const [slot, words] of Object.entries(sides)) {
      for (const w of words) {
        const at = before.lastIndexOf(w.toLowerCase());
        if (at >= 0 && (best === null || at > best.at)) best = { slot, at };
      }
    }
    const named = sidesNamed(f.item.subject, sides);
    const slot = best?.slot ?? (named.length === 1 ? named[0] : undefined);
    if (slot !== undefined) facts[i] = { ...f, item: { ...f.item, subject: slot } };
  });
}

