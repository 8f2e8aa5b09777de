/**
 * The context state kept across page loads, so a conversation's next prompt after a reload appends to the one
 * before it (and the engine can prefill that while the user types) instead of being selected afresh. It is the
 * state without its per-turn report, which grows with the conversation; a restored state rebuilds that report in
 * short (each earlier turn as in the prompt or not), which is what the next request's report starts from.
 */
import type { ChatMessage } from '../shared/chat.ts';
import type { ContextState } from './assemble.ts';
import type { TurnReport } from './report.ts';

export interface KeptContextState extends Omit<ContextState, 'turns'> {
  /** The last input's cut, when it was cut (the one part of the report the next request reads). */
  readonly inputCut?: TurnReport['cut'];
}

export function keptState(state: ContextState): KeptContextState {
  const { turns, ...rest } = state;
  const cut = turns[state.historyLength]?.cut;
  return cut === undefined ? rest : { ...rest, inputCut: cut };
}

const isInt = (n: unknown): n is number => Number.isInteger(n);
const isMessage = (m: unknown): m is ChatMessage =>
  typeof m === 'object' && m !== null && ((m as ChatMessage).role === 'system' || (m as ChatMessage).role === 'user' || (m as ChatMessage).role === 'assistant') && typeof (m as ChatMessage).content === 'string';

/** Whether stored data is a kept state this version can use (anything else is ignored: the next prompt compacts). */
export function isKeptState(data: unknown): data is KeptContextState {
  if (typeof data !== 'object' || data === null) return false;
  const s = data as Partial<KeptContextState>;
  if (s.version !== 1 || typeof s.configKey !== 'string' || !isInt(s.requests) || !isInt(s.compactions) || !isInt(s.historyLength)) return false;
  if (!Array.isArray(s.sent) || !Array.isArray(s.sentTokens) || !Array.isArray(s.sentFrom) || !Array.isArray(s.sourceContent)) return false;
  const n = s.sent.length;
  if (n < 2 || s.sentTokens.length !== n || s.sentFrom.length !== n || s.sourceContent.length !== n) return false;
  return s.sent.every(isMessage) && s.sentTokens.every(isInt) && s.sentFrom.every(isInt) && s.sourceContent.every((c) => typeof c === 'string');
}

/** A kept state as the context engine uses it, for the session's history as it is now. */
export function restoredState(kept: KeptContextState, history: readonly ChatMessage[]): ContextState {
  const { inputCut, ...rest } = kept;
  const sentAt = new Map<number, number>();
  kept.sentFrom.forEach((from, j) => sentAt.set(from, j));
  const turns: TurnReport[] = [];
  for (let i = 0; i < kept.historyLength && i < history.length; i++) {
    const j = sentAt.get(i);
    turns.push(
      j === undefined
        ? { index: i, role: history[i]!.role, included: false, reason: 'outside-window', detail: 'not in the prompt before the page load' }
        : { index: i, role: history[i]!.role, included: true, reason: 'appended', detail: 'kept verbatim across a page load', tokens: kept.sentTokens[j]! },
    );
  }
  const input: TurnReport = { index: kept.historyLength, role: 'user', included: true, reason: 'current-input', detail: 'the message answered before the page load', tokens: kept.sentTokens.at(-1)! };
  turns.push(inputCut === undefined ? input : { ...input, cut: inputCut });
  return { ...rest, turns };
}
