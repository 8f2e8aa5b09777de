/** Which stored turns belong to the conversation the user sees. Tiny on purpose: the page's first chunk needs it. */
import type { TurnRecord } from '../../memory/store/index.ts';

/** The app has one user: this browser profile. */
export const LOCAL_USER = 'local';
/** A turn tagged so was replaced by a regenerate or an edit: kept in the store, never shown or recalled. */
export const HIDDEN_TAG = 'hidden';

/**
 * A turn tagged so was forgotten by the user ("Forget this message"): still shown in the conversation, marked, but
 * out of the memory — not retrieved, not in the recent turns, and what it taught the working memory removed.
 */
export const FORGOTTEN_TAG = 'forgotten';

export function isForgotten(turn: Pick<TurnRecord, 'tags'>): boolean {
  return turn.tags.includes(FORGOTTEN_TAG);
}

export function isVisibleTurn(turn: TurnRecord): boolean {
  return !turn.tags.includes(HIDDEN_TAG) && turn.role !== 'system';
}
