/**
 * The user's data, in and out: export one or all conversations as a versioned JSON file, import such a file
 * (checked whole first; a failed write is rolled back), and "delete all my data": every IndexedDB database,
 * localStorage, the origin-private files (the CPU model) and every cache (the GPU model, the app shell). Also
 * imports a folder of Markdown files as knowledge (the docs namespace), file by file with progress.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { newId, type MemoryStore, type TokenCount } from '../../memory/store/index.ts';
import type { DocsImportProgress, DocsImportSkip } from '../data/docs-import.ts';
import { clearAllFilesAndCaches } from '../data/model-cache.ts';
import { FORGOTTEN_TAG } from '../data/visible-turns.ts';
import { ImportError, buildExport, exportFileName, exportMemory, exportMessages, readExportFile, type ExportConversation, type ExportFile } from '../data/export-format.ts';
import type { MessageKey, MessageParams } from '../i18n/index.ts';

export interface DataNotice {
  kind: 'ok' | 'error';
  key: MessageKey;
  params?: MessageParams;
}

export interface DataDeps {
  store(): Promise<MemoryStore>;
  /** Closes what holds the databases open and resets the app's state (engine, lists). */
  beforeWipe(): Promise<void>;
  /** Everything is gone: back to a first visit. */
  afterWipe(): Promise<void>;
  /** Conversations were added. */
  imported(firstId: string | null): Promise<void>;
  /** The exact Qwen token counter (loaded on first use). */
  counter(): Promise<TokenCount>;
  /** Docs were added to the docs namespace. */
  docsImported(): void;
}

export class DataController implements ReactiveController {
  notice: DataNotice | null = null;
  busy = false;
  /** Files of the docs import under way (null when none is). */
  docsProgress: DocsImportProgress | null = null;
  /** The files the last docs import skipped, with why. */
  docsSkipped: DocsImportSkip[] = [];

  constructor(
    private readonly _host: ReactiveControllerHost,
    private readonly _deps: DataDeps,
  ) {
    _host.addController(this);
  }

  hostConnected(): void {}

  /** The file for one conversation, or for all when `id` is absent. */
  async exportFile(id?: string): Promise<ExportFile> {
    const store = await this._deps.store();
    const sessions = (await store.listSessions()).filter((s) => id === undefined || s.id === id);
    const conversations: ExportConversation[] = [];
    for (const s of sessions) {
      const turns = await store.listTurns(s.id);
      // What the conversation taught the working memory, pins and the user's corrections included (unexpired).
      const memory = exportMemory(s.id, turns, await store.listWorkingItems(s.id));
      conversations.push({
        id: s.id,
        title: s.title,
        createdAt: s.createdAt,
        updatedAt: s.updatedAt,
        messages: exportMessages(turns),
        ...(memory.length === 0 ? {} : { memory }),
      });
    }
    return buildExport(conversations);
  }

  /** Saves the export through a download link (nothing leaves the device). */
  async download(id?: string, title?: string): Promise<void> {
    const file = await this.exportFile(id);
    const url = URL.createObjectURL(new Blob([JSON.stringify(file, null, 2)], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = exportFileName(Date.now(), title);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    this._notify({ kind: 'ok', key: 'data.export.done', params: { count: file.conversations.length } });
  }

  /** Imports a file; on any problem nothing is changed and the notice says what was wrong. */
  async importFile(file: Blob): Promise<boolean> {
    this.busy = true;
    this._host.requestUpdate();
    const created: string[] = [];
    const store = await this._deps.store();
    try {
      const parsed = await readExportFile(file);
      const existing = new Set((await store.listSessions()).map((s) => s.id));
      for (const c of parsed.conversations) {
        const session = await store.createSession(existing.has(c.id) ? { title: c.title } : { id: c.id, title: c.title });
        created.push(session.id);
        // With a memory, each message gets its id here, so that an item can name the message it came from (without,
        // the store names them: an import with ids reads the store for each, to skip turns already there).
        const ids = c.memory !== undefined && c.memory.length > 0 ? c.messages.map(() => newId()) : null;
        await store.importTurns(
          session.id,
          c.messages.map((m, i) => ({
            ...(ids === null ? {} : { id: ids[i]! }),
            role: m.role,
            content: m.content,
            createdAt: m.createdAt,
            status: m.status,
            ...(m.sent === undefined ? {} : { sent: m.sent }),
            ...(m.forgotten === true ? { tags: [FORGOTTEN_TAG] } : {}),
          })),
        );
        if (ids !== null && c.memory !== undefined) {
          await store.replaceSessionWorkingItems(
            session.id,
            c.memory.map((item) => ({
              id: `${session.id}|${item.id}`,
              sessionId: session.id,
              kind: item.kind,
              key: item.key,
              ...(item.name === undefined ? {} : { name: item.name }),
              value: item.value,
              sourceTurnId: item.source === null ? null : ids[item.source]!,
              createdAt: item.createdAt,
              updatedAt: item.updatedAt,
              expiresAt: item.expiresAt,
              pinned: item.pinned,
            })),
          );
        }
      }
      this._notify({ kind: 'ok', key: 'data.import.done', params: { count: parsed.conversations.length } });
      await this._deps.imported(created[0] ?? null);
      return true;
    } catch (error) {
      // Half an import is worse than none: take back what was written.
      const left: string[] = [];
      for (const id of created) await store.deleteSession(id).catch(() => left.push(id));
      // The notices below say nothing was imported: true only if the undo went through.
      if (left.length > 0) this._notify({ kind: 'error', key: 'data.import.undoFailed', params: { count: left.length, reason: withCode(error) } });
      else if (error instanceof ImportError) this._notify({ kind: 'error', key: error.key, params: error.params });
      else if (isStorageFull(error)) this._notify({ kind: 'error', key: 'storage.importFull' });
      else this._notify({ kind: 'error', key: 'data.import.failed', params: { reason: withCode(error) } });
      return false;
    } finally {
      this.busy = false;
      this._host.requestUpdate();
    }
  }

  /** Imports Markdown (and HTML) files as docs; malformed ones are skipped and listed, the rest imported. */
  async importDocs(files: readonly File[]): Promise<void> {
    this.busy = true;
    this.docsSkipped = [];
    this.docsProgress = { done: 0, total: 0 };
    this._host.requestUpdate();
    try {
      const [{ importDocFiles }, store, counter] = await Promise.all([import('../data/docs-import.ts'), this._deps.store(), this._deps.counter()]);
      const result = await importDocFiles(files, {
        store,
        counter,
        onProgress: (p) => {
          this.docsProgress = p;
          this._host.requestUpdate();
        },
      });
      this.docsSkipped = result.skipped;
      if (result.docs > 0) this._deps.docsImported();
      this._notify(
        result.docs > 0
          ? { kind: 'ok', key: 'data.docs.done', params: { docs: result.docs, chunks: result.chunks, skipped: result.skipped.length } }
          : { kind: 'error', key: 'data.docs.none', params: { skipped: result.skipped.length, ignored: result.ignored } },
      );
    } catch (error) {
      this._notify({ kind: 'error', key: 'data.docs.failed', params: { reason: error instanceof Error ? error.message : String(error) } });
    } finally {
      this.busy = false;
      this.docsProgress = null;
      this._host.requestUpdate();
    }
  }

  async deleteEverything(): Promise<void> {
    this.busy = true;
    this._host.requestUpdate();
    try {
      await this._deps.beforeWipe();
      await wipeOrigin(() => this._notify({ kind: 'error', key: 'data.wipe.blocked' }));
      await this._deps.afterWipe();
      this._notify({ kind: 'ok', key: 'data.wipe.done' });
    } catch (error) {
      this._notify({ kind: 'error', key: 'data.wipe.failed', params: { reason: error instanceof Error ? error.message : String(error) } });
    } finally {
      this.busy = false;
      this._host.requestUpdate();
    }
  }

  private _notify(notice: DataNotice): void {
    this.notice = notice;
    this._host.requestUpdate();
  }
}

const isStorageFull = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'storage_full';

/** An error's message with its code, so a report can name it. */
function withCode(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return typeof code === 'string' ? `${message} (${code})` : message;
}

function deleteDatabase(name: string, onBlocked?: () => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`Could not delete the database ${name}.`));
    // "blocked": another tab still has it open. Ours close on versionchange; one that does not (an old or frozen
    // tab) holds the delete until it closes, so the user is told to close it; the delete then goes on.
    request.onblocked = () => onBlocked?.();
  });
}

/** Everything this origin stores, gone. `onBlocked`: another tab keeps a database open (see deleteDatabase). */
export async function wipeOrigin(onBlocked?: () => void): Promise<void> {
  const databases = (await indexedDB.databases?.()) ?? [];
  for (const db of databases) if (db.name) await deleteDatabase(db.name, onBlocked);
  try {
    localStorage.clear();
    sessionStorage.clear();
  } catch {
    // Not available: nothing stored there either.
  }
  await clearAllFilesAndCaches();
}
