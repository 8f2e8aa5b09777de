/**
 * The conversation list: sessions from the memory store (IndexedDB), the open one, and search over titles and
 * messages. The last opened conversation is remembered and reopened on the next visit. Changes made in another
 * tab arrive through the store's subscription: the list refreshes, and `onRemoteTurns` tells the open chat.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { MemoryStore, type SessionRecord } from '../../memory/store/index.ts';
import { AssistantError, toAssistantError } from '../../shared/errors.ts';
import { isVisibleTurn } from '../data/visible-turns.ts';
import { t } from '../i18n/index.ts';

export const LAST_SESSION_KEY = 'qwen.lastSession';
const TITLE_CHARS = 48;
/** Typing pauses this long before the messages are searched. */
const SEARCH_DELAY_MS = 120;

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
}

/** A title from the first message: its first line, shortened at a word where it can be. */
export function titleFrom(text: string): string {
  const line = text.trim().split('\n')[0]!.trim();
  if ([...line].length <= TITLE_CHARS) return line;
  const cut = [...line].slice(0, TITLE_CHARS).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}

function remember(id: string | null): void {
  try {
    if (id === null) localStorage.removeItem(LAST_SESSION_KEY);
    else localStorage.setItem(LAST_SESSION_KEY, id);
  } catch {
    // Private mode: the list still works; only the reopening is lost.
  }
}

export class ConversationsController implements ReactiveController {
  list: ConversationSummary[] = [];
  activeId: string | null = null;
  query = '';
  /** Ids matching `query` (null while not searching). */
  matches: Set<string> | null = null;
  error: AssistantError | null = null;
  /** Called when the open conversation changes (the chat loads it). */
  onActiveChange: ((id: string | null) => void) | null = null;
  /** Called after a conversation was deleted (the memory lets go of it). */
  onRemoved: ((id: string) => void) | null = null;
  /** Called when another tab wrote turns (the open conversation and the prompt's memory read them again). */
  onRemoteTurns: ((sessionId: string) => void) | null = null;

  private _store: Promise<MemoryStore> | null = null;
  private _unsubscribe: (() => void) | null = null;
  private _searchRun = 0;
  /** Taken off the page: the store is closed and work still finishing (a reply's last refresh) must not reopen it. */
  private _detached = false;

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _dbName: () => string | undefined,
  ) {
    _host.addController(this);
  }

  hostConnected(): void {
    this._detached = false;
  }

  hostDisconnected(): void {
    this._detached = true;
    this._unsubscribe?.();
    this._unsubscribe = null;
    const store = this._store;
    this._store = null;
    void store?.then((s) => s.close()).catch(() => {});
  }

  /** The store, opened once. */
  store(): Promise<MemoryStore> {
    if (this._detached) {
      // A connection opened now would never be closed, and would block deleting or upgrading the database.
      return Promise.reject(new AssistantError('internal', 'The chat was removed from the page; its memory store is closed.'));
    }
    if (this._store === null) {
      const name = this._dbName();
      // An old tab blocking the upgrade: say so; the open continues (and the notice goes) once that tab closes.
      const onBlocked = (): void => this._fail(new AssistantError('storage_blocked', t('storage.blocked')));
      this._store = MemoryStore.open(name === undefined ? { onBlocked } : { name, onBlocked });
      this._store.then(
        (store) => {
          if (this.error?.code === 'storage_blocked') this.error = null;
          this._unsubscribe = store.subscribe((change) => {
            // The list alone was refreshed here once; the open conversation never heard of the other tab's turns.
            if (change.origin === 'remote' && change.type === 'turns') this.onRemoteTurns?.(change.sessionId);
            if (change.origin === 'remote' || change.type === 'everything-deleted') void this.refresh();
          });
        },
        (error: unknown) => this._fail(error),
      );
    }
    return this._store;
  }

  /** Loads the list and reopens the last conversation (if it still exists). */
  async start(): Promise<void> {
    await this.refresh();
    let last: string | null = null;
    try {
      last = localStorage.getItem(LAST_SESSION_KEY);
    } catch {
      last = null;
    }
    this.select(last !== null && this.list.some((c) => c.id === last) ? last : null);
  }

  async refresh(): Promise<void> {
    if (this._detached) return;
    try {
      const sessions = await (await this.store()).listSessions();
      this.list = sessions.map((s: SessionRecord) => ({ id: s.id, title: s.title, createdAt: s.createdAt, updatedAt: s.updatedAt }));
      if (this.activeId !== null && !this.list.some((c) => c.id === this.activeId)) this.select(null);
      if (this.query !== '') await this.search(this.query);
    } catch (error) {
      this._fail(error);
    }
    this._host.requestUpdate();
  }

  /** Opens a conversation; null starts a new one (stored with its first message). */
  select(id: string | null): void {
    if (id === this.activeId) return;
    this.activeId = id;
    remember(id);
    this.onActiveChange?.(id);
    this._host.requestUpdate();
  }

  /** Creates the conversation the first message goes into, and opens it (without reloading the chat). */
  async create(title: string): Promise<string> {
    const session = await (await this.store()).createSession({ title });
    this.activeId = session.id;
    remember(session.id);
    await this.refresh();
    return session.id;
  }

  async rename(id: string, title: string): Promise<void> {
    const clean = title.trim();
    if (clean === '') return;
    try {
      await (await this.store()).renameSession(id, clean);
    } catch (error) {
      this._fail(error);
    }
    await this.refresh();
  }

  async remove(id: string): Promise<void> {
    try {
      await (await this.store()).deleteSession(id);
    } catch (error) {
      this._fail(error);
    }
    if (this.activeId === id) this.select(null);
    this.onRemoved?.(id);
    await this.refresh();
  }

  /** Case-insensitive match on titles and on the text of every visible message (after a short pause in typing). */
  async search(query: string): Promise<void> {
    this.query = query;
    const run = ++this._searchRun;
    if (query.trim() !== '') await new Promise((resolve) => setTimeout(resolve, SEARCH_DELAY_MS));
    if (run !== this._searchRun) return;
    const needle = query.trim().toLocaleLowerCase();
    if (needle === '') {
      this.matches = null;
      this._host.requestUpdate();
      return;
    }
    const store = await this.store();
    const found = new Set<string>();
    for (const c of this.list) {
      if (c.title.toLocaleLowerCase().includes(needle)) {
        found.add(c.id);
        continue;
      }
      const turns = await store.listTurns(c.id);
      if (turns.some((t) => isVisibleTurn(t) && t.content.toLocaleLowerCase().includes(needle))) found.add(c.id);
    }
    if (run !== this._searchRun) return; // a newer query started meanwhile
    this.matches = found;
    this._host.requestUpdate();
  }

  /** Forget the open store (after "delete all my data" deleted the database). */
  async reset(): Promise<void> {
    this.hostDisconnected();
    this.list = [];
    this.matches = null;
    this.query = '';
    this.activeId = null;
    remember(null);
    this.onActiveChange?.(null);
    this._host.requestUpdate();
  }

  private _fail(error: unknown): void {
    this.error = toAssistantError(error);
    this._host.requestUpdate();
  }
}
