/** Which stored turns belong to the conversation the user sees. Tiny on purpose: the page's first chunk needs it. */
import type { TurnRecord } from '../../memory/store/index.ts';

/** The app has one user: this browser profile. */
export const LOCAL_USER = 'local';
/** A turn tagged so was replaced by a regenerate or an edit: kept in the store, never shown or recalled. */
export const HIDDEN_TAG = 'hidden';

export function isVisibleTurn(turn: TurnRecord): boolean {
  return !turn.tags.includes(HIDDEN_TAG) && turn.role !== 'system';
}
