/**
 * Builds each prompt with the layered memory (seed 001): working memory, retrieval over every conversation,
 * the context engine's append-only assembly — and keeps what the inspector shows about it. The memory changes in
 * place when a message is asked again (regenerate, edit), a conversation is deleted, or another tab writes to a
 * conversation (that one is read again); it is rebuilt from the store after an import, a settings change or a
 * wipe. It never holds a turn the user no longer sees.
 */
import type { ChatMessage, Role } from '../../engine/protocol.ts';
import { sessionKey, type DurableWorkingMemory, type Lang, type LayeredMemory, type LayeredReport, type WmItem, type WorkingMemoryPort } from '../../memory/layered/index.ts';
import type { ConversationChunkStore } from './layered-store.ts';
import type { MemoryStore } from '../../memory/store/index.ts';
import { sectionBudgetsOf, type AppSettings } from '../data/settings.ts';
import { LOCAL_USER } from '../data/visible-turns.ts';
import { yieldToPage } from '../../shared/yield.ts';
import type { SnapshotKeeper } from './snapshot-keeper.ts';
import type { PageStepName } from '../../engine/start-steps.ts';
import type { StartTimeline } from './start-timeline.ts';
import type { EngineVectors } from '../../memory/embedders/engine-vectors.ts';

/**
 * The memory pipeline and its vocabularies: loaded beside the engine when the page opens for a returning user
 * (`warm()`), or with the first message. The tokenizer and the code are timed apart (the model panel shows both).
 */
const loadPipeline = (time: <T>(name: PageStepName, run: () => Promise<T>) => Promise<T>) => {
  const code = time('memory-code', () =>
    Promise.all([
      import('../../memory/layered/pipeline.ts'),
      import('../../memory/layered/durable-working-memory.ts'),
      import('../../memory/retrieval/retrieval-index.ts'),
      import('./layered-store.ts'),
      import('./snapshot-keeper.ts'),
      import('../../context/head.ts'),
      import('../../memory/store/index-snapshot.ts'),
    ]),
  );
  const counter = time('tokenizer', () => import('./context-planner.ts').then((m) => m.qwenCounter()));
  return Promise.all([code, counter]);
};

/** How the last memory started: restored from the saved index or built, what it read again, and its steps' ms. */
export interface MemoryStart {
  restored: boolean;
  /** The docs came from their saved record (false: indexed again from the stored docs). */
  docsRestored: boolean;
  /** Conversations read again whole, and those of which only the turns appended since were read. */
  readAgain: readonly string[];
  appended: readonly string[];
  steps: Record<string, number>;
}

export interface PlanRequest {
  sessionId: string;
  /** The user's message as stored. */
  turn: { id: string; text: string; time: number };
  /** The message is already in the memory (regenerate, edit): take it out and ask again. */
  again: boolean;
  /** With `again`: the turns the regenerate or edit hid (the replaced replies, the turns after an edited message). */
  replaced?: readonly string[];
}

export interface HistoryTurn {
  id: string;
  role: Role;
  text: string;
}

export interface PlannedPrompt {
  messages: ChatMessage[];
  report: LayeredReport;
  /** The session's turns before the message, aligned with `report.turns` (the message itself is last there). */
  history: HistoryTurn[];
  /** Working memory as it was read for this prompt, newest first, each with the turn it came from. */
  working: WmItem[];
}

/** What the chat needs from a planner; tests may give their own. */
export interface PromptPlanner {
  plan(request: PlanRequest): Promise<PlannedPrompt>;
  recordReply(sessionId: string, turnId: string, text: string, time: number): Promise<void>;
  /** The stored conversations changed (import, settings, everything deleted): rebuild before the next prompt. */
  invalidate(): void;
  /** A conversation was deleted: the memory lets go of it, without a rebuild. */
  forgetConversation(sessionId: string): void;
}

/** Remembers the items the pipeline read, so the inspector shows exactly those. */
class RecordingWorkingMemory implements WorkingMemoryPort {
  lastItems: WmItem[] = [];
  constructor(private readonly _inner: WorkingMemoryPort) {}
  extract: WorkingMemoryPort['extract'] = (text, now) => this._inner.extract(text, now);
  observe: WorkingMemoryPort['observe'] = (key, extraction, now, turnId) => this._inner.observe(key, extraction, now, turnId);
  items: WorkingMemoryPort['items'] = (key, now) => (this.lastItems = this._inner.items(key, now));
  deprecated: WorkingMemoryPort['deprecated'] = (key) => this._inner.deprecated(key);
  render: WorkingMemoryPort['render'] = (key, lang, now) => this._inner.render(key, lang, now);
  lines: WorkingMemoryPort['lines'] = (key, lang, now) => this._inner.lines(key, lang, now);
}

export class MemoryPlanner implements PromptPlanner {
  private _memory: LayeredMemory | null = null;
  private _key = '';
  private _stale = true;
  /** Working memory, kept in the store (read per session before its prompt, written after); lives across rebuilds. */
  private _wm: RecordingWorkingMemory | null = null;
  private _durable: DurableWorkingMemory | null = null;
  /** The store the working memory reads and writes (a new one after the app reopened it), and its change feed. */
  private _wmStore: MemoryStore | null = null;
  private _unsubscribe: (() => void) | null = null;
  /** The part of a message the window can hold (set with the memory): all the memory ever sees of it. */
  private _head: (text: string) => string = (text) => text;
  /** The records the memory was built from (it reads a conversation again through them). */
  private _chunkStore: ConversationChunkStore | null = null;
  /** Conversations another tab wrote to since the last prompt: taken in again, in place, before the next one. */
  private readonly _remote = new Set<string>();
  private _headSliced: (text: string) => Promise<string> = (text) => Promise.resolve(text);
  /** Saves the memory's index in the background (and knows what each conversation in it reflects). */
  private _keeper: SnapshotKeeper | null = null;
  private _snapshotKey = '';

  /** Where a build of the memory times its steps (the app's start timeline); none: not timed. */
  timeline: StartTimeline | null = null;
  /**
   * The engine embedding model's vectors, once every indexed text has one (engine-embeddings-controller.ts): the
   * memory then searches with them. Until then, and without them, the built-in hashed vectors serve.
   */
  private _engineVectors: EngineVectors | null = null;
  /** Told after a message or reply went into the memory: new texts may want an engine vector. */
  onIndexed: (() => void) | null = null;

  constructor(private readonly _deps: () => { store: Promise<MemoryStore>; settings: AppSettings }) {}

  private _time<T>(name: PageStepName, run: () => Promise<T>): Promise<T> {
    return this.timeline === null ? run() : this.timeline.time(name, run);
  }

  /** Saves the memory's index now, rather than after the quiet time (tests, benchmarks, a page about to close). */
  async saveIndexNow(): Promise<void> {
    await this._keeper?.saveNow();
  }

  /** Index saves done so far, whether the last memory came from a saved index, and what it read again. */
  get indexStats(): { saves: number } & MemoryStart {
    return { saves: this._keeper?.saves ?? 0, ...this._lastStart };
  }
  private _lastStart: MemoryStart = { restored: false, docsRestored: false, readAgain: [], appended: [], steps: {} };

  /** Builds (or restores) the memory now, before the first message needs it. */
  async warm(): Promise<void> {
    if (this._remote.size > 0 && this._current()) await this._takeRemote();
    await this._ready(null);
  }

  /**
   * The messages the conversation's next prompt will start with (null: a new conversation), for the engine to
   * prefill while the user types (see `LayeredMemory.nextPrefix`); `langHint` is the page's language.
   */
  async nextPrefix(sessionId: string | null, langHint: Lang): Promise<ChatMessage[]> {
    await this.warm();
    return await this._memory!.nextPrefix(LOCAL_USER, sessionId, langHint);
  }

  /**
   * The prompt a message would get, with nothing kept: no turn, heat or working memory is written (tests and
   * benchmarks compare memories with it).
   */
  async probe(sessionId: string, text: string, time: number): Promise<ChatMessage[]> {
    await this.warm();
    await this._durable!.load(sessionKey(LOCAL_USER, sessionId));
    const result = await this._memory!.handleUserMessage({ userId: LOCAL_USER, sessionId, text, time }, { commit: false });
    return result.messages;
  }

  /** Searches with the engine model's vectors from the next prompt on (null: back to the setting's own embedder). */
  useEngineVectors(vectors: EngineVectors | null): void {
    if (this._engineVectors === vectors) return;
    this._engineVectors = vectors;
    this._stale = true;
    this._keeper?.cancel();
  }

  /** Every text the memory indexes now (turns of every conversation, imported docs), with its id and scope. */
  async indexedTexts(): Promise<Array<{ id: string; scope: string; text: string }>> {
    await this.warm();
    const index = this._memory!.index;
    const out: Array<{ id: string; scope: string; text: string }> = [];
    for (const shard of [index.user(LOCAL_USER).shard, index.docs]) for (const chunk of shard.chunks.values()) out.push({ id: chunk.id, scope: chunk.scope, text: chunk.text });
    return out;
  }

  /** Whether the memory indexes this id now (a turn or doc chunk): vectors of others are swept from the disk. */
  indexes(id: string): boolean {
    const index = this._memory?.index;
    return index !== undefined && (index.user(LOCAL_USER).shard.chunks.has(id) || index.docs.chunks.has(id));
  }

  /** Gives vectors to indexed texts that had none when they were added (their engine vector came later). */
  fillVectors(): number {
    if (this._memory === null || this._stale) return 0;
    const index = this._memory.index;
    return index.user(LOCAL_USER).shard.fillVectors() + index.docs.fillVectors();
  }

  /** The embedder the memory searches with now: `engine:<model>` once its vectors are complete, else the setting's. */
  get searchEmbedder(): string {
    const { settings } = this._deps();
    if (settings.embedder === 'engine' && this._engineVectors !== null) return this._engineVectors.id;
    return settings.embedder === 'keywords' ? 'keywords' : 'hashed';
  }

  invalidate(): void {
    this._stale = true;
    this._keeper?.cancel();
    // An import or another tab changed what is stored: working memory is read again too.
    this._durable?.forget();
  }

  /**
   * The user corrected a conversation's working memory in the store (the memory panel): this page's copy of it is
   * dropped, so the next prompt reads the store (null: a global item, every conversation's copy).
   */
  workingMemoryChanged(sessionId: string | null): void {
    this._durable?.forget(sessionId ?? undefined);
  }

  /**
   * A conversation's turns changed in the store in a way the memory cannot follow turn by turn (a message forgotten,
   * or taken back): it is read again, in place, before its next prompt, as another tab's writes are.
   */
  conversationChanged(sessionId: string): void {
    this._remote.add(sessionId);
  }

  forgetConversation(sessionId: string): void {
    this._durable?.forget(sessionId);
    // A memory that is rebuilt anyway (stale) reads the store without it.
    if (this._memory !== null && !this._stale) {
      this._memory.forgetSession(LOCAL_USER, sessionId);
      this._keeper?.gone(sessionId);
    }
  }

  async plan(request: PlanRequest): Promise<PlannedPrompt> {
    const memory = await this._prepare(request);
    const wmKey = sessionKey(LOCAL_USER, request.sessionId);
    await this._durable!.load(wmKey);
    // A rebuild and the pipeline are separate tasks: each is bounded, together they could stall the page.
    await yieldToPage();
    // A long paste is stored whole; working memory, the index and the prompt only need the part that can fit,
    // found a slice at a time.
    const text = await this._headSliced(request.turn.text);
    await yieldToPage();
    const result = await memory.handleUserMessage({
      userId: LOCAL_USER,
      sessionId: request.sessionId,
      text,
      time: request.turn.time,
      id: request.turn.id,
    });
    this._keeper?.changed(request.sessionId);
    this.onIndexed?.();
    // What the message taught is stored before the reply starts. A failed write (a full disk) costs this prompt
    // nothing: the state stays in the page and is written with the next message.
    await this._durable!.save(wmKey).catch((error: unknown) => console.warn('[memory] saving working memory failed', error));
    const user = memory.index.user(LOCAL_USER);
    const history: HistoryTurn[] = [];
    for (const id of user.sessions.get(request.sessionId) ?? []) {
      if (id === request.turn.id) break;
      const t = user.turns.get(id);
      if (t !== undefined) history.push({ id, role: t.role, text: t.text });
    }
    return { messages: result.messages, report: result.report, history, working: this._wm?.lastItems ?? [] };
  }

  async recordReply(sessionId: string, turnId: string, text: string, time: number): Promise<void> {
    if (this._memory === null || this._stale || text === '') return;
    await this._memory.recordReply({ userId: LOCAL_USER, sessionId, text, time, id: turnId });
    this._keeper?.changed(sessionId);
    this.onIndexed?.();
  }

  /**
   * The memory for this request. A message asked again (regenerate, edit) leaves the memory in place: it and the
   * turns it replaced are taken out, and the message goes in again as it is now. Only a memory that is stale, or
   * whose settings changed, is rebuilt (without the message, which then goes in as new).
   */
  private async _prepare(request: PlanRequest): Promise<LayeredMemory> {
    if (this._current() && this._remote.size > 0) await this._takeRemote();
    if (!request.again) return this._ready(null);
    if (this._current()) {
      this._memory!.forgetTurns(LOCAL_USER, request.sessionId, [request.turn.id, ...(request.replaced ?? [])]);
      this._keeper?.changed(request.sessionId);
      return this._memory!;
    }
    return this._ready(new Set([request.turn.id]));
  }

  /** Another tab's turns: each conversation it wrote to is read again and replaces its turns in the memory. */
  private async _takeRemote(): Promise<void> {
    const memory = this._memory!;
    const sessionIds = [...this._remote];
    this._remote.clear();
    const store = await this._deps().store;
    const { sessionMarks } = await import('../../memory/store/index-snapshot.ts');
    const marks = sessionMarks(await store.listSessions());
    const records = await this._chunkStore!.sessionRecords(sessionIds);
    // Rebuilt meanwhile: the new memory read the store as it is now.
    if (this._memory !== memory || this._stale) return;
    for (const [sessionId, { turns, heat, gate }] of records) memory.replaceSession(LOCAL_USER, sessionId, turns, heat, gate);
    this._keeper?.readAgain(marks, sessionIds, this._chunkStore!.streamingFrom);
    this.onIndexed?.();
  }

  /** Whether the memory built last still holds for the current settings and data. */
  private _current(): boolean {
    return this._memory !== null && !this._stale && this._settingsKey() === this._key;
  }

  private _settingsKey(): string {
    const { settings } = this._deps();
    return JSON.stringify([settings.systemPrompt, settings.window, settings.budgets, settings.recentExchanges, this.searchEmbedder]);
  }

  /** The memory, rebuilt when stale, when settings that shape it changed, or without `exclude` (asked again). */
  private async _ready(exclude: ReadonlySet<string> | null): Promise<LayeredMemory> {
    const { store: storePromise, settings } = this._deps();
    const key = this._settingsKey();
    if (this._current() && exclude === null) return this._memory!;
    const [store, [[{ LayeredMemory }, { DurableWorkingMemory }, { RetrievalIndex }, { ConversationChunkStore }, { SnapshotKeeper, restoreMemory, appSnapshotKey, coveredAll }, { promptHead, promptHeadSliced }, snapshots], counter]] =
      await Promise.all([this._time('memory-open', () => storePromise), loadPipeline((name, run) => this._time(name, run))]);
    if (this._durable === null || this._wmStore !== store) {
      this._unsubscribe?.();
      this._wmStore = store;
      const durable = new DurableWorkingMemory(store, { offsetMinutes: -new Date().getTimezoneOffset() });
      this._durable = durable;
      this._wm = new RecordingWorkingMemory(durable);
      // Another tab's message changed a session's working memory: read it again. A conversation deleted in
      // another tab leaves the memory as one deleted here does.
      this._unsubscribe = store.subscribe((change) => {
        // A closed store takes no save (a new one is opened for the next page or settings).
        if (change.type === 'closed') this._keeper?.stop();
        if (change.origin !== 'remote') return;
        if (change.type === 'working-items') durable.forget(change.sessionId ?? undefined);
        else if (change.type === 'session-deleted') this.forgetConversation(change.sessionId);
        // Turns written there reach this memory in place, before the next prompt (a build under way clears the set
        // before it reads, so a write during its read is taken in after it); a wipe there is a rebuild here.
        else if (change.type === 'turns') this._remote.add(change.sessionId);
        else if (change.type === 'everything-deleted') this.invalidate();
      });
    }
    const wm = this._wm!;
    const base = settings.systemPrompt.trim();
    const window = settings.window;
    this._head = (text) => promptHead(text, window, counter);
    this._headSliced = (text) => promptHeadSliced(text, window, counter, yieldToPage);
    const offsetMinutes = -new Date().getTimezoneOffset();
    const setting = `${window}|${offsetMinutes}`;
    const chunkStore = new ConversationChunkStore(store, wm, exclude ?? new Set(), this._head, setting);
    // keywords: BM25 only, no vectors; engine: the engine model's vectors, once complete (the hashed ones until then).
    const engineVectors = settings.embedder === 'engine' ? this._engineVectors : null;
    const indexOptions = settings.embedder === 'keywords' ? { createEmbedder: () => null } : engineVectors !== null ? { createEmbedder: () => engineVectors } : {};
    const make = (index: InstanceType<typeof RetrievalIndex>): LayeredMemory =>
      new LayeredMemory({
        store: chunkStore,
        counter,
        window: settings.window,
        budgets: sectionBudgetsOf(settings),
        workingMemory: wm,
        index,
        ...(base === '' ? {} : { systemPrompt: { zh: base, en: base } }),
        offsetMinutes,
        context: { recentExchanges: settings.recentExchanges },
        ...(engineVectors === null ? {} : { prepareQuery: (text: string) => engineVectors.prepareQuery(text) }),
      });
    // Read as stored now: what another tab wrote before is in it (the stamps first: a write after them is read
    // again at the next load).
    this._remote.clear();
    const snapshotKey = appSnapshotKey(`${key}|${setting}`);
    const begun = performance.now();
    const [marks, docs] = await Promise.all([store.listSessions().then(snapshots.sessionMarks), snapshots.docsStamp(store)]);
    const stampsMs = Math.round(performance.now() - begun);
    const built = performance.now();
    const { restored, memory } = await this._time('index-restore', async () => {
      const restored = await restoreMemory({ store, chunkStore, key: snapshotKey, marks, docs, indexOptions, make, exclude: exclude ?? new Set() });
      if (restored !== null) return { restored, memory: restored.memory };
      const memory = make(new RetrievalIndex(indexOptions));
      await memory.loadUser(LOCAL_USER);
      // Imported docs (the store's docs namespace) are searched with the conversation, under their own label.
      for (const doc of await chunkStore.listDocs()) memory.index.addDoc(doc);
      return { restored, memory };
    });
    this._lastStart = { restored: restored !== null, docsRestored: restored?.docsKept ?? false, readAgain: restored?.readAgain ?? [], appended: restored?.appended ?? [], steps: { stamps: stampsMs, ...(restored?.steps ?? { build: Math.round(performance.now() - built) }) } };
    this._keeper ??= new SnapshotKeeper(() => (this._memory === null || this._stale || this._chunkStore === null ? null : { memory: this._memory, store: this._wmStore!, chunkStore: this._chunkStore, key: this._snapshotKey }));
    this._snapshotKey = snapshotKey;
    this._keeper.reset(restored?.covered ?? coveredAll(marks, chunkStore.streamingFrom), docs, restored === null || restored.updated, restored?.docsKept ?? false);
    this._memory = memory;
    this._chunkStore = chunkStore;
    this._key = key;
    this._stale = false;
    return memory;
  }
}
