/**
 * Whose name a question says, when turns carry roles, not names (the app's own turns, a transcript replayed as
 * user and assistant). People address each other by name — "Thanks, Maya!", "Hey Maya", "Maya, that's great" — so
 * a name said to someone belongs to the other side. Among the candidate turns of one search, a name the question
 * says that is addressed (nearly) always by one role is the other role's: "What did Maya plant?" then weighs Maya's
 * own turns as a transcript's speaker names would. Pure, no DOM; nothing is kept between searches.
 */
import type { TurnEntry, TurnRole } from './records.ts';

/** A capitalised word of the question, the way a name is written (not the first word: What, When, Did). */
const QUESTION_NAME = /(?<=\S\s+)[A-Z][a-z]{1,15}\b/g;
/** Before a name said to someone: a greeting or thanks, or a comma ("That's great, Maya!"). */
const LEAD = String.raw`(?:\b(?:hey|hi|hello|thanks|thank you|wow|woah|whoa|oh|aw+|yeah|yes|congrats|congratulations|sorry|haha|omg|good luck|welcome back)[,!]?\s+|,\s*)`;
/** After it: the end of the address. */
const TAIL = String.raw`(?=\s*[!,.?;:—–-]|\s*$)`;
/** At least this many addresses, and this share of them by one role, to say whose a name is. */
const MIN_ADDRESSES = 2;
const MIN_SHARE = 0.8;

const patterns = new Map<string, RegExp>();
function addressOf(name: string): RegExp {
  let re = patterns.get(name);
  if (re === undefined) {
    // (A long chat asks about many words that look like names: the cache stays small.)
    if (patterns.size >= 256) patterns.clear();
    patterns.set(name, (re = new RegExp(`(?:${LEAD}|^\\s*)${name}${TAIL}`, 'i')));
  }
  return re;
}

/** The roles whose names the question says, worked out from how the candidate turns address them. */
export function rolesNamedBy(question: string, turns: Iterable<TurnEntry>): ReadonlySet<TurnRole> {
  const names = [...new Set(question.match(QUESTION_NAME) ?? [])];
  const out = new Set<TurnRole>();
  if (names.length === 0) return out;
  const list = [...turns].filter((t) => t.speaker === undefined);
  for (const name of names) {
    const by: Record<TurnRole, number> = { user: 0, assistant: 0 };
    const re = addressOf(name);
    for (const turn of list) if (turn.text.includes(name) && re.test(turn.text)) by[turn.role]++;
    const total = by.user + by.assistant;
    if (total < MIN_ADDRESSES) continue;
    if (by.assistant >= MIN_SHARE * total) out.add('user');
    else if (by.user >= MIN_SHARE * total) out.add('assistant');
  }
  return out;
}
