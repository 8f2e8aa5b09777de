/**
 * A second page on the same origin for the multi-tab tests, loaded in an iframe: its own document, its own
 * IndexedDB connection, BroadcastChannel and Web Locks. Removing the iframe kills it like closing a tab.
 * Commands arrive by postMessage; each reply carries the command's id.
 */
import '../app/tab-shim.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import type { ReplyWriter } from '../../../src/memory/store/reply-writer.ts';
import { MemoryPlanner } from '../../../src/ui/controllers/memory-planner.ts';
import { DEFAULT_SETTINGS } from '../../../src/ui/data/settings.ts';

export type PeerCommand =
  | { op: 'open'; name: string }
  | { op: 'append'; sessionId: string; contents: string[]; idPrefix?: string }
  | { op: 'start-reply'; sessionId: string; replyTo?: string }
  | { op: 'stream'; text: string }
  | { op: 'flush' }
  | { op: 'search'; query: string; k: number }
  | { op: 'index-size' }
  | { op: 'save-index' }
  | { op: 'close' };

let store: MemoryStore | null = null;
let writer: ReplyWriter | null = null;

async function run(command: PeerCommand): Promise<unknown> {
  switch (command.op) {
    case 'open':
      store = await MemoryStore.open({ name: command.name, logger: { warn: () => {} } });
      await store.whenIdle();
      return true;
    case 'append': {
      const ids: string[] = [];
      // All at once: the appends race each other and the other page's.
      await Promise.all(
        command.contents.map(async (content, i) => {
          const id = command.idPrefix === undefined ? undefined : `${command.idPrefix}${i}`;
          const turn = await store!.appendTurn({ sessionId: command.sessionId, role: 'user', content, ...(id === undefined ? {} : { id }) });
          ids.push(turn.id);
        }),
      );
      return ids;
    }
    case 'start-reply':
      writer = await store!.startReply(command.sessionId, command.replyTo === undefined ? {} : { replyTo: command.replyTo });
      return writer.turnId;
    case 'stream':
      writer!.append(command.text);
      return true;
    case 'flush':
      await writer!.flush();
      return true;
    case 'search':
      return (await store!.search(command.query, { k: command.k, wait: true })).map((h) => h.chunk.id);
    case 'index-size':
      await store!.index.ready;
      return store!.index.size('conversation');
    case 'save-index': {
      // Builds the memory as the app would, then starts saving its index and tells the test the moment the record
      // is handed to IndexedDB (its transaction still open): the test kills this page then.
      const planner = new MemoryPlanner(() => ({ store: Promise.resolve(store!), settings: DEFAULT_SETTINGS }));
      await planner.warm();
      const put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function (this: IDBObjectStore, value: unknown, key?: IDBValidKey) {
        const request = put.call(this, value, key);
        if ((value as { key?: unknown } | null)?.key === 'layered:snapshot:index') parent.postMessage({ snapshotPut: true }, '*');
        return request;
      };
      void planner.saveIndexNow();
      return true;
    }
    case 'close':
      await store?.close();
      return true;
  }
}

window.addEventListener('message', (event: MessageEvent<{ id: number; command: PeerCommand }>) => {
  const { id, command } = event.data;
  run(command).then(
    (result) => parent.postMessage({ id, result }, '*'),
    (error: unknown) => parent.postMessage({ id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }, '*'),
  );
});
parent.postMessage({ ready: true }, '*');
