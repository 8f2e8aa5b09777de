/**
 * Void topics are never retrieved again (seed 001 §4.3). A topic with a name ("forget the Pulsar idea", "Redis
 * 方案不要了") voids every earlier turn of the user that mentions that name; an anaphoric one ("这个问题不算了",
 * "scrap that") voids the thread it ends: the session's turns since the previous void declaration. The message
 * that declares it goes too.
 */
import { terms, type TurnEntry } from '../retrieval/index.ts';

/** Words that name the kind of thing voided, not the thing (`Pulsar idea` → Pulsar). */
const GENERIC_EN = new Set(
  'the a an this that these those it its my our your idea ideas plan plans approach issue issues problem question thing topic solution option proposal design whole all everything stuff one'.split(' '),
);
const GENERIC_ZH = ['这个', '那个', '这些', '那些', '问题', '方案', '想法', '计划', '思路', '话题', '主意', '办法', '上面', '刚才', '之前', '前面', '全部', '一切', '东西', '事情', '的'];

/** The content terms that name a topic; empty for an anaphoric one ("这个问题", "that plan"). */
export function topicTerms(topic: string): string[] {
  let rest = topic;
  for (const w of GENERIC_ZH) rest = rest.split(w).join(' ');
  rest = rest
    .split(/\s+/)
    .filter((w) => !GENERIC_EN.has(w.toLowerCase()))
    .join(' ');
  return [...new Set(terms(rest))];
}

/**
 * Ids of the turns a void declaration removes from retrieval. `turns` are the user's turns; `declaring` is the
 * message that says it; `since` is the time of the session's previous declaration (or 0).
 */
export function voidedTurns(topic: string, declaring: TurnEntry, turns: Iterable<TurnEntry>, since: number): string[] {
  const named = topicTerms(topic);
  const out = [declaring.id];
  for (const turn of turns) {
    if (turn.id === declaring.id || turn.deprecatedAt !== undefined || turn.time > declaring.time) continue;
    if (named.length > 0) {
      const have = new Set(terms(turn.text));
      // Most of the topic's terms (CJK bigrams overlap, so not necessarily all).
      if (named.filter((t) => have.has(t)).length >= Math.ceil(named.length * 0.6)) out.push(turn.id);
    } else if (turn.sessionId === declaring.sessionId && turn.seq < declaring.seq && turn.time >= since) {
      out.push(turn.id);
    }
  }
  return out;
}
