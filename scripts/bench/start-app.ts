/**
 * A returning user's start of the chat app, measured in real Chromium on a production build (see start.ts): the
 * page reloaded with the model already in wllama's OPFS cache, reload → engine ready, each step the app timed
 * (its start timeline; absent from builds older than it), and optionally the first reply of the visit against a
 * later one, and the time to read the model file from OPFS into memory (the floor under any load).
 */
import type { Page } from 'playwright';

export interface StepTimes {
  name: string;
  startMs: number;
  endMs: number;
  readBytes?: number;
  readMs?: number;
}

export interface AppVisit {
  /** Reload → `engine.status === 'ready'`, seen from the page (polled every 10 ms, the same for every build). */
  readyMs: number;
  /** The app's own start timeline, when the build has one. */
  steps: StepTimes[] | null;
  /** Enter → reply complete for the visit's first message and for the one after it. */
  firstReplyMs?: number;
  laterReplyMs?: number;
  /** The model file read whole from OPFS into one ArrayBuffer, on the page. */
  readFloorMs?: number;
}

/** Waits for the engine and returns the page's clock at that moment (ms since navigation start). */
async function readyAt(page: Page, timeout: number): Promise<number> {
  const handle = await page.waitForFunction(
    () => {
      const app = document.querySelector('qwen-chat-app') as unknown as { engine?: { status: string; error?: { message: string } | null } } | null;
      const engine = app?.engine;
      if (engine?.status === 'error') return { error: engine.error?.message ?? 'engine error' };
      return engine?.status === 'ready' ? { at: performance.now() } : false;
    },
    undefined,
    { timeout, polling: 10 },
  );
  const value = (await handle.jsonValue()) as { at?: number; error?: string };
  if (value.error !== undefined) throw new Error(`the engine failed to load: ${value.error}`);
  return value.at!;
}

/** Sends a message the way the composer does and times it until its reply is complete. */
function timeReply(page: Page, text: string): Promise<number> {
  return page.evaluate(async (message) => {
    const app = document.querySelector('qwen-chat-app') as unknown as { chat: { send(text: string): Promise<void>; messages: Array<{ role: string; status: string }> } };
    const began = performance.now();
    await app.chat.send(message);
    const last = app.chat.messages.at(-1);
    if (last?.role !== 'assistant' || last.status !== 'complete') throw new Error(`the reply ended ${last?.status ?? 'missing'}`);
    return performance.now() - began;
  }, text);
}

/** Reads the cached GGUF whose name ends with `fileName` from OPFS into memory, as fast as the page can. */
function readFloor(page: Page, fileName: string): Promise<number> {
  return page.evaluate(async (name) => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle('cache');
    for await (const handle of (dir as unknown as { values(): AsyncIterable<FileSystemHandle> }).values()) {
      if (handle.kind !== 'file' || !handle.name.endsWith(name) || handle.name.startsWith('__metadata__')) continue;
      const file = await (handle as FileSystemFileHandle).getFile();
      const began = performance.now();
      const bytes = await file.arrayBuffer();
      const ms = performance.now() - began;
      if (bytes.byteLength !== file.size) throw new Error('short read');
      return ms;
    }
    throw new Error(`${name} is not in OPFS`);
  }, fileName);
}

export interface AppStartOptions {
  origin: string;
  /** Model URL path on the served app, e.g. /models/test/qwen2-tiny.gguf. */
  model: string;
  runs: number;
  replies: boolean;
  floor: boolean;
  log: (line: string) => void;
}

/** First visit (downloads the model into OPFS), then `runs` reloads, each measured. */
export async function measureAppStart(page: Page, options: AppStartOptions): Promise<AppVisit[]> {
  const url = `${options.origin}/?${new URLSearchParams({ model: options.model, autoload: '1' })}`;
  await page.goto(url);
  await readyAt(page, 300_000);
  // A returning user has talked before: one exchange, so the memory and its saved index exist.
  if (options.replies) await timeReply(page, 'Hello! I am setting up the deploy pipeline for our docs site.');
  const visits: AppVisit[] = [];
  for (let run = 0; run < options.runs; run++) {
    await page.reload();
    const readyMs = await readyAt(page, 120_000);
    const steps = await page.evaluate(() => (document.querySelector('qwen-chat-app') as unknown as { timeline?: { steps: unknown[] } }).timeline?.steps ?? null);
    const visit: AppVisit = { readyMs, steps: steps as StepTimes[] | null };
    if (options.replies) {
      visit.firstReplyMs = await timeReply(page, `Which branch deploys the docs, visit ${run}?`);
      visit.laterReplyMs = await timeReply(page, `And who reviews it, visit ${run}?`);
    }
    if (options.floor) visit.readFloorMs = await readFloor(page, options.model.split('/').at(-1)!);
    options.log(
      `  reload ${run + 1}: ready ${Math.round(readyMs)} ms` +
        (visit.firstReplyMs !== undefined ? `, first reply ${Math.round(visit.firstReplyMs)} ms, later ${Math.round(visit.laterReplyMs!)} ms` : '') +
        (visit.readFloorMs !== undefined ? `, OPFS read ${Math.round(visit.readFloorMs)} ms` : ''),
    );
    visits.push(visit);
  }
  return visits;
}
