/**
 * Each reply right after its question (`replyTo`), whatever order the store holds them in. Two tabs that wrote to
 * one conversation at once, before the per-conversation exchange lock existed (or where Web Locks are missing),
 * left them interleaved: Q_B, Q_A, R_A, R_B. The display, the prompt and the export all read turns through
 * `groupExchanges`, so such data reads as whole exchanges everywhere. Pure, no DOM.
 */

export interface ExchangeTurn {
  readonly id: string;
  readonly role: string;
  /** For a reply: the question it answers. */
  readonly replyTo?: string | null | undefined;
}

/** The question a turn answers, when that question is in `questions`; null otherwise. */
function answered(turn: ExchangeTurn, questions: ReadonlySet<string>): string | null {
  return turn.role === 'assistant' && typeof turn.replyTo === 'string' && questions.has(turn.replyTo) ? turn.replyTo : null;
}

/**
 * The turns in question order, each reply moved right after its question (after earlier replies to the same one,
 * in stored order). A reply whose question is not in the list (no `replyTo`, an unknown or hidden one) stays
 * where it is; nothing is dropped or duplicated. Already grouped data comes back in the same order.
 */
export function groupExchanges<T extends ExchangeTurn>(turns: readonly T[]): T[] {
  const questions = new Set<string>();
  for (const t of turns) if (t.role === 'user') questions.add(t.id);
  const replies = new Map<string, T[]>();
  for (const t of turns) {
    const question = answered(t, questions);
    if (question === null) continue;
    const list = replies.get(question);
    if (list === undefined) replies.set(question, [t]);
    else list.push(t);
  }
  const out: T[] = [];
  for (const t of turns) {
    if (answered(t, questions) !== null) continue;
    out.push(t);
    if (t.role === 'user') out.push(...(replies.get(t.id) ?? []));
  }
  return out;
}

/**
 * A list read from the store, plus messages only this tab has (a question waiting for the lock, a reply not stored
 * yet): a reply goes after its question's exchange, anything else at the end, each in its given order.
 */
export function withUnstored<T extends ExchangeTurn>(stored: readonly T[], unstored: readonly T[]): T[] {
  const out = [...stored];
  for (const m of unstored) {
    const question = m.role === 'assistant' && typeof m.replyTo === 'string' ? out.findIndex((s) => s.id === m.replyTo) : -1;
    if (question < 0) {
      out.push(m);
      continue;
    }
    let at = question + 1;
    while (at < out.length && out[at]!.role === 'assistant') at++;
    out.splice(at, 0, m);
  }
  return out;
}
