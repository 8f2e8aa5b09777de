/** Mounting the chat app in the test page with its own database, and reaching into its shadow roots. */
import { expect } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import '../../../src/ui/qwen-chat-app.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import { SCRIPTED_ENDLESS_URL, SCRIPTED_MODEL_URL, SCRIPTED_REPLY, createScriptedUiWorker } from '../engine/ui-script.ts';
import { LOOP_MODEL_URL, TINY_MODEL_URL, clientWithWorkers } from '../helpers.ts';
import { createEngineWorker } from '../../../src/engine/client.ts';

export { LOOP_MODEL_URL, SCRIPTED_ENDLESS_URL, SCRIPTED_MODEL_URL, SCRIPTED_REPLY, TINY_MODEL_URL };

const PREFIX = 'qwen-test-app-';

export function freshDbName(): string {
  return `${PREFIX}${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
}

/** Deletes the test databases, what the app keeps in localStorage, and the downloaded test models. */
export async function resetAppStorage(): Promise<void> {
  localStorage.clear();
  const root = await navigator.storage.getDirectory();
  await root.removeEntry('cache', { recursive: true }).catch(() => {});
  for (const db of (await indexedDB.databases()) ?? []) {
    if (db.name?.startsWith(PREFIX)) await deleteTestDatabase(db.name);
  }
}

/**
 * Deletes one database. "blocked" means a connection ignored the versionchange (a leak in the app), and the delete
 * would then wait for it forever: this says so at once instead.
 */
export function deleteTestDatabase(name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error ?? new Error(`deleting ${name} failed`));
    request.onblocked = () => reject(new Error(`deleting ${name} is blocked: a connection to it is still open and ignored the versionchange`));
  });
}

export interface MountOptions {
  /**
   * `wllama` (the default): the real engine worker, on the generated test model (a few seconds per mount: it
   * downloads and loads the model). `scripted`: the real handler and protocol in a worker, with a scripted backend
   * (test/browser/engine/ui-worker.ts) for tests whose subject is the app around the model; its `ggufUrl` is
   * `SCRIPTED_MODEL_URL` (a fixed reply, the default) or `SCRIPTED_ENDLESS_URL` (a reply until stopped).
   */
  engine?: 'wllama' | 'scripted';
  ggufUrl?: string;
  /** The CPU engine's embedding GGUF (for the `engine` embedder setting). */
  embeddingUrl?: string;
  dbName?: string;
  autoload?: boolean;
  width?: string;
  /** Workers of the test's own, in the order the engine asks for them (then the `engine` option's), and the stall limit. */
  workers?: Array<() => Worker>;
  loadStallMs?: number;
}

/** A chat app on the test model (CPU engine) or the scripted one, in a page-sized box. */
export function mountApp(options: MountOptions = {}): { app: QwenChatApp; workers: Worker[]; dbName: string } {
  const scripted = options.engine === 'scripted';
  const queued = [...(options.workers ?? [])];
  const fallback = scripted ? createScriptedUiWorker : createEngineWorker;
  const { client, workers } = clientWithWorkers(5_000, () => (queued.shift() ?? fallback)(), options.loadStallMs);
  const app = document.createElement('qwen-chat-app');
  const dbName = options.dbName ?? freshDbName();
  app.client = client;
  app.dbName = dbName;
  app.source = { ggufUrl: options.ggufUrl ?? (scripted ? SCRIPTED_MODEL_URL : TINY_MODEL_URL), ...(options.embeddingUrl === undefined ? {} : { embeddingGguf: { url: options.embeddingUrl } }) };
  app.backend = 'wasm';
  app.autoload = options.autoload ?? true;
  app.style.height = '700px';
  app.style.width = options.width ?? '1200px';
  app.style.display = 'block';
  document.body.replaceChildren(app);
  return { app, workers, dbName };
}

export async function unmountApp(): Promise<void> {
  const app = document.querySelector('qwen-chat-app');
  app?.client.terminate();
  document.body.replaceChildren();
  // The store closes on disconnect; give it a moment before the database is deleted.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

export const shadow = (el: Element | null | undefined): ShadowRoot => {
  if (!el?.shadowRoot) throw new Error(`no shadow root on ${el?.tagName ?? 'nothing'}`);
  return el.shadowRoot;
};

export const messageList = (app: QwenChatApp) => shadow(app).querySelector('qwen-message-list')!;
export const conversationList = (app: QwenChatApp) => shadow(app).querySelector('qwen-conversation-list')!;

export function messageItems(app: QwenChatApp, role?: 'user' | 'assistant'): HTMLElement[] {
  const root = messageList(app).shadowRoot;
  if (!root) return [];
  return [...root.querySelectorAll<HTMLElement>(role ? `li[data-role="${role}"]` : 'li[data-role]')];
}

/** Titles in the conversation list, in order. */
export function conversationTitles(app: QwenChatApp): string[] {
  const root = conversationList(app).shadowRoot;
  return root ? [...root.querySelectorAll<HTMLElement>('li[data-id] .open')].map((b) => b.textContent!.trim()) : [];
}

/**
 * Waits until the engine is ready. A hang limit, not a speed check: a page's first model load (download, wasm
 * compile, load) once took over 30 s on a loaded 2-core machine, so the limit is 45 s (tests have 60 s).
 */
export async function waitReady(app: QwenChatApp): Promise<void> {
  // What the load went through, so a load that never finishes says where it stopped (once in a full CI run).
  const trail: string[] = [];
  const started = performance.now();
  const note = (): void => {
    const p = app.engine.progress;
    const line = `${app.engine.status} ${p?.phase ?? '-'} ${p?.step ?? '-'} ${p?.text ?? ''} ${p?.loadedBytes ?? 0}/${p?.totalBytes ?? 0}`;
    if (trail.at(-1)?.endsWith(line) !== true) trail.push(`${Math.round(performance.now() - started)} ms: ${line}`);
  };
  try {
    await expect.poll(() => (note(), app.engine.status), { timeout: 45_000 }).toBe('ready');
  } catch (error) {
    const steps = app.engine.timeline.steps.map((s) => `${s.name} ${Math.round(s.startMs)}→${Math.round(s.endMs)}`);
    throw new Error(`the engine was not ready in 45 s; it went: ${trail.slice(-12).join(' | ')}; page steps: ${steps.join(', ')}`, { cause: error });
  }
}

/** Sends a message the way a user does and waits for its reply to finish. */
export async function sendAndWait(app: QwenChatApp, text: string): Promise<void> {
  const before = completeReplies(app);
  await send(text);
  await waitForReply(app, before);
}

/** Types a message and presses Enter, without waiting for anything. */
export async function send(text: string): Promise<void> {
  await page.getByRole('textbox', { name: 'Message' }).fill(text);
  await userEvent.keyboard('{Enter}');
}

/** How many assistant replies have finished. */
export function completeReplies(app: QwenChatApp): number {
  return messageItems(app, 'assistant').filter((li) => li.dataset.status === 'complete').length;
}

/** Waits until one more reply than `before` has finished. */
export async function waitForReply(app: QwenChatApp, before: number): Promise<void> {
  await expect.poll(() => completeReplies(app), { timeout: 30_000 }).toBe(before + 1);
}

/** The text of each message (without its labels and buttons). */
export function messageTexts(app: QwenChatApp, role?: 'user' | 'assistant'): string[] {
  return messageItems(app, role).map((li) => li.querySelector('.content')?.textContent ?? '');
}

/** A desktop-sized page (the layout collapses the sidebar below 900 px) with no data left from earlier tests. */
export async function freshStart(): Promise<void> {
  await page.viewport(1280, 800);
  await resetAppStorage();
}
