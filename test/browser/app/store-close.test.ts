/**
 * The CI flake "deleting qwen-test-app-… is blocked: a connection to it is still open": the chat closed its database
 * while one of its writes still ran (the stopped reply being saved, as after a worker crash and Regenerate), and
 * Chromium answers a delete in that window with `blocked`. A slow disk makes the window as wide as we like: here
 * every write to the turns is held open until the test lets it finish.
 */
import { afterEach, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/ui/qwen-chat-app.ts';
import { EngineClient } from '../../../src/engine/client.ts';
import { createLivenessWorker } from '../engine/liveness-script.ts';
import { freshDbName, messageItems, resetAppStorage } from './app-helpers.ts';

/** Holds every read-write transaction on `turns` of database `name` open (it keeps reading) until `release()`. */
function holdTurnWrites(name: string) {
  const proto = IDBDatabase.prototype;
  const create = proto.transaction;
  const close = proto.close;
  const state = { held: 0, closedWhileHeld: 0, released: false };
  let closed!: () => void;
  const closeCalled = new Promise<void>((resolve) => (closed = resolve));
  proto.transaction = function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>): IDBTransaction {
    const tx = create.apply(this, args);
    const stores = typeof args[0] === 'string' ? [args[0]] : [...args[0]];
    if (this.name === name && args[1] === 'readwrite' && stores.includes('turns') && !state.released) {
      state.held += 1;
      const spin = (): void => {
        if (!state.released) tx.objectStore('turns').count().onsuccess = spin;
      };
      spin();
      tx.addEventListener('complete', () => (state.held -= 1));
      tx.addEventListener('abort', () => (state.held -= 1));
    }
    return tx;
  };
  proto.close = function (this: IDBDatabase): void {
    if (this.name === name) {
      if (state.held > 0 && !state.released) state.closedWhileHeld += 1;
      closed();
    }
    close.call(this);
  };
  return {
    state,
    closeCalled,
    release: () => (state.released = true),
    restore: () => {
      proto.transaction = create;
      proto.close = close;
    },
  };
}

/** `success`, or `blocked` when an open connection ignored the versionchange. */
function deleteOutcome(name: string): Promise<'success' | 'blocked'> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve('success');
    request.onblocked = () => resolve('blocked');
    request.onerror = () => reject(request.error);
  });
}

let restore = (): void => {};

afterEach(async () => {
  restore();
  document.querySelector('qwen-chat-app')?.client.terminate();
  document.body.replaceChildren();
  await resetAppStorage();
});

it('the chat taken off the page while a reply is being saved closes its database after that write, so deleting it is not blocked', async () => {
  await resetAppStorage();
  const dbName = freshDbName();
  const app = document.createElement('qwen-chat-app');
  app.client = new EngineClient({ createWorker: createLivenessWorker });
  app.dbName = dbName;
  app.source = { ggufUrl: 'scripted://liveness.gguf' };
  app.backend = 'wasm';
  app.autoload = true;
  document.body.replaceChildren(app);
  await page.getByRole('textbox', { name: 'Message' }).fill('tell me a long story');
  await userEvent.keyboard('{Enter}');
  await expect.poll(() => Number(messageItems(app, 'assistant')[0]?.dataset.chunks ?? 0)).toBeGreaterThan(2);

  const gate = holdTurnWrites(dbName);
  restore = gate.restore;
  app.chat.stop(); // the reply is saved as stopped: a write on the turns, held open
  await expect.poll(() => gate.state.held).toBeGreaterThan(0);
  document.body.replaceChildren(); // the chat leaves the page during that write
  // Before the fix the store closes at once (within milliseconds); after it, only once the write is done.
  await Promise.race([gate.closeCalled, new Promise((resolve) => setTimeout(resolve, 2_000))]);

  // The app may close inside the delete's versionchange (that is how a connection lets go); not before it.
  const closedWhileWriting = gate.state.closedWhileHeld;
  const outcome = deleteOutcome(dbName);
  await new Promise((resolve) => setTimeout(resolve, 200)); // `blocked` comes at once when it comes
  gate.release();
  expect(await outcome).toBe('success');
  expect(closedWhileWriting).toBe(0);
});
