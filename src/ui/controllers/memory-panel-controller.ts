/**
 * The memory panel's state and actions: the working-memory items of the open conversation (and the global ones)
 * as the store holds them, and the user's corrections — pin, edit, forget — written to the store. The planner's
 * copy of that conversation's working memory is dropped after each correction, so the next prompt reads the
 * store again (another tab hears the store's change feed and does the same).
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { MemoryStore, WorkingItemRecord } from '../../memory/store/index.ts';

/** Kinds a user sees and corrects; a dropped topic (a deprecation) is the memory's own bookkeeping. */
const SHOWN_KINDS = new Set(['entity', 'fact', 'topic']);
/** An unpinned item lives this long from the unpinning (working memory's own expiry, seed 001). */
export const UNPINNED_TTL_MS = 24 * 60 * 60 * 1000;

export interface MemoryPanelDeps {
  store: () => Promise<MemoryStore>;
  /** The conversation shown (null: none open). */
  sessionId: () => string | null;
  /** A correction was written: the planner reads this conversation's working memory again. */
  changed: (sessionId: string | null) => void;
  now?: () => number;
}

export class MemoryPanelController implements ReactiveController {
  items: WorkingItemRecord[] = [];
  loading = false;
  error: Error | null = null;
  private _unsubscribe: (() => void) | null = null;
  private _open = false;
  private _generation = 0;

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _deps: MemoryPanelDeps,
  ) {
    _host.addController(this);
  }

  hostDisconnected(): void {
    this.close();
  }

  private get _now(): number {
    return this._deps.now?.() ?? Date.now();
  }

  /** The panel opened (or the conversation changed under it): read the items, and follow the store's changes. */
  async open(): Promise<void> {
    this._open = true;
    if (this._unsubscribe === null) {
      const store = await this._deps.store();
      if (!this._open) return;
      this._unsubscribe = store.subscribe((change) => {
        if (change.type === 'working-items' || change.type === 'everything-deleted' || change.type === 'session-deleted') void this.refresh();
      });
    }
    await this.refresh();
  }

  close(): void {
    this._open = false;
    this._unsubscribe?.();
    this._unsubscribe = null;
  }

  async refresh(): Promise<void> {
    const generation = ++this._generation;
    const sessionId = this._deps.sessionId();
    this.loading = true;
    this._host.requestUpdate();
    try {
      const store = await this._deps.store();
      const items = sessionId === null ? await store.listWorkingItems(null) : await store.listWorkingItems(sessionId);
      if (generation !== this._generation) return;
      this.items = items.filter((item) => SHOWN_KINDS.has(item.kind)).sort((a, b) => b.updatedAt - a.updatedAt);
      this.error = null;
    } catch (error) {
      if (generation === this._generation) this.error = error instanceof Error ? error : new Error(String(error));
    } finally {
      if (generation === this._generation) {
        this.loading = false;
        this._host.requestUpdate();
      }
    }
  }

  /** Pinned: never expires (and the memory keeps it whatever the clock says); unpinned: expires a day from now. */
  pin(id: string, pinned: boolean): Promise<void> {
    return this._rewrite(id, (item) => ({ ...item, pinned, expiresAt: pinned ? null : this._now + UNPINNED_TTL_MS }));
  }

  /** The user's own value replaces the remembered one (the item keeps its subject, source and expiry). */
  edit(id: string, value: string): Promise<void> {
    const trimmed = value.trim();
    if (trimmed === '') return Promise.resolve();
    return this._rewrite(id, (item) => ({ ...item, value: trimmed }));
  }

  /** The item is gone from the store, and so from the next prompt. */
  async forget(id: string): Promise<void> {
    const item = this.items.find((i) => i.id === id);
    if (item === undefined) return;
    await this._act(item.sessionId, async (store) => store.deleteWorkingItem(id));
  }

  private async _rewrite(id: string, change: (item: WorkingItemRecord) => WorkingItemRecord): Promise<void> {
    const item = this.items.find((i) => i.id === id);
    if (item === undefined) return;
    const next = change(item);
    await this._act(item.sessionId, async (store) => {
      await store.putWorkingItem({
        id: next.id,
        sessionId: next.sessionId,
        kind: next.kind,
        key: next.key,
        ...(next.name === undefined ? {} : { name: next.name }),
        value: next.value,
        sourceTurnId: next.sourceTurnId,
        createdAt: next.createdAt,
        updatedAt: next.updatedAt,
        expiresAt: next.expiresAt,
        pinned: next.pinned,
      });
    });
  }

  private async _act(sessionId: string | null, write: (store: MemoryStore) => Promise<void>): Promise<void> {
    try {
      await write(await this._deps.store());
      this._deps.changed(sessionId);
      this.error = null;
    } catch (error) {
      this.error = error instanceof Error ? error : new Error(String(error));
    }
    await this.refresh();
  }
}
