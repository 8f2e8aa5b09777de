/**
 * "Forget this message": the message stays in the conversation, marked, but leaves the memory — the turn is
 * tagged `forgotten` in the store (so retrieval, the recent turns and a reload's rebuild all leave it out, and other
 * tabs read the conversation again through the store's change feed), and the working-memory items it taught
 * (those whose source it is) and its engine-model vectors are deleted. Until the page closes, Undo takes the tag off and puts those items back.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MemoryStore, WorkingItemRecord } from '../../memory/store/index.ts';
import { toAssistantError, type AssistantError } from '../../shared/errors.ts';
import { FORGOTTEN_TAG, isForgotten } from '../data/visible-turns.ts';

export interface ForgetDeps {
  store: () => Promise<MemoryStore>;
  /** The memory reads the conversation again before its next prompt. */
  conversationChanged: (sessionId: string) => void;
  /** The memory reads the conversation's working memory again. */
  workingMemoryChanged: (sessionId: string) => void;
  /** The message list shows the mark (or takes it off). */
  marked: (messageId: string, forgotten: boolean) => void;
  /** A forget or an Undo could not be written (a full disk, a closed store): the user is told. */
  failed: (error: AssistantError) => void;
}

export class ForgetController implements ReactiveController {
  /** Messages forgotten in this page, with the working-memory items that went with them: what Undo puts back. */
  private readonly _undo = new Map<string, { sessionId: string; items: WorkingItemRecord[] }>();

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _deps: ForgetDeps,
  ) {
    _host.addController(this);
  }

  hostConnected(): void {}

  /**
   * Messages this page can still take back. A new set only when that changes: the message list is handed it on
   * every render of the app, and an unchanged value lets the list skip its own.
   */
  undoable: ReadonlySet<string> = new Set();

  forget(messageId: string): Promise<void> {
    return this._guard(() => this._forget(messageId));
  }

  undo(messageId: string): Promise<void> {
    return this._guard(() => this._undoForget(messageId));
  }

  private async _guard(run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      this._deps.failed(toAssistantError(error));
    }
  }

  private async _forget(messageId: string): Promise<void> {
    const store = await this._deps.store();
    const turn = await store.getTurn(messageId);
    if (turn === undefined || isForgotten(turn)) return;
    await store.updateTurn(messageId, { tags: [...turn.tags, FORGOTTEN_TAG] });
    const items = (await store.listWorkingItems(turn.sessionId, { includeExpired: true })).filter((item) => item.sourceTurnId === messageId);
    for (const item of items) await store.deleteWorkingItem(item.id);
    // Its engine-model vectors leave the disk too (an Undo embeds it again).
    await store.sweepMemoryVectors((id) => id !== messageId);
    this._undo.set(messageId, { sessionId: turn.sessionId, items });
    this._changed(turn.sessionId, messageId, true);
  }

  /** Takes a forget back: the message is in the memory again, with what it taught (unless that was learned anew since). */
  private async _undoForget(messageId: string): Promise<void> {
    const entry = this._undo.get(messageId);
    if (entry === undefined) return;
    const store = await this._deps.store();
    const turn = await store.getTurn(messageId);
    if (turn !== undefined) await store.updateTurn(messageId, { tags: turn.tags.filter((tag) => tag !== FORGOTTEN_TAG) });
    const present = new Set((await store.listWorkingItems(entry.sessionId, { includeExpired: true })).map((item) => item.id));
    for (const item of entry.items) {
      if (present.has(item.id)) continue;
      await store.putWorkingItem(item);
    }
    this._undo.delete(messageId);
    this._changed(entry.sessionId, messageId, false);
  }

  private _changed(sessionId: string, messageId: string, forgotten: boolean): void {
    this.undoable = new Set(this._undo.keys());
    this._deps.conversationChanged(sessionId);
    this._deps.workingMemoryChanged(sessionId);
    this._deps.marked(messageId, forgotten);
    this._host.requestUpdate();
  }
}
