/**
 * The exfiltration corpus through every path of the chat app that shows text: a streamed reply (the real engine
 * protocol and handler in a worker, with a backend that answers each payload by name), the user's own message,
 * the inspector after all of them, an imported conversation (titles and messages), and docs imported into the app
 * and quoted by the next prompt. Each path first proves the payload reached the renderer; then nothing active is in
 * the DOM, the browser saw no request outside the app's origin (page and workers), and no payload code ran.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { EngineClient } from '../../../src/engine/client.ts';
import { EXPORT_FORMAT, type ExportFile } from '../../../src/ui/data/export-format.ts';
import type { QwenChatApp } from '../../../src/ui/qwen-chat-app.ts';
import '../../../src/ui/qwen-chat-app.ts';
import { EXFILTRATION_CORPUS, payloadMarker, payloadTag } from '../../fixtures/exfiltration-corpus.ts';
import { conversationList, freshDbName, freshStart, messageItems, resetAppStorage, sendAndWait, shadow, unmountApp, waitReady } from '../app/app-helpers.ts';
import { TINY_MODEL_URL } from '../helpers.ts';
import { RenderWatch, findActiveContent } from './audit.ts';

/** The chat app on the corpus engine: each message naming a payload is answered with it. */
function mountOnCorpusEngine(): QwenChatApp {
  const app = document.createElement('qwen-chat-app');
  app.client = new EngineClient({ createWorker: () => new Worker(new URL('./corpus-worker.ts', import.meta.url), { type: 'module' }) });
  app.dbName = freshDbName();
  app.source = { ggufUrl: TINY_MODEL_URL };
  app.backend = 'wasm';
  app.autoload = true;
  Object.assign(app.style, { height: '700px', width: '1200px', display: 'block' });
  document.body.replaceChildren(app);
  return app;
}

const inspectorRoot = (app: QwenChatApp): ShadowRoot => shadow(shadow(app).querySelector('qwen-inspector'));
const contents = (app: QwenChatApp, role: 'user' | 'assistant'): HTMLElement[] => messageItems(app, role).map((li) => li.querySelector<HTMLElement>('.content')!);

let watch: RenderWatch;
beforeEach(async () => {
  await freshStart();
  watch = new RenderWatch();
  await watch.start();
});
afterEach(async () => {
  await unmountApp();
  await resetAppStorage();
});

describe('the chat app renders every payload inert', () => {
  it(`streams each of the ${EXFILTRATION_CORPUS.length} payloads as a reply, shows the user's copy as text, and the inspector after them`, async () => {
    const app = mountOnCorpusEngine();
    await waitReady(app);
    for (const payload of EXFILTRATION_CORPUS) {
      const typed = `${payloadTag(payload.id)} ${payload.text}`;
      await sendAndWait(app, typed);
      watch.expectSanitized(payload);
      // The user's message is shown exactly as typed, as text.
      expect(contents(app, 'user').at(-1)!.textContent).toBe(typed);
      // The reply was rendered as Markdown: its marker sentence is there, and nothing active.
      const reply = contents(app, 'assistant').at(-1)!;
      expect(reply.textContent, payload.id).toContain(payloadMarker(payload));
      expect(findActiveContent([reply]), payload.id).toEqual([]);
    }
    expect(findActiveContent(contents(app, 'user'))).toEqual([]);
    // Control strings the user typed never became turn boundaries in what the engine was sent.
    for (const message of app.chat.lastSnapshot!.messages) expect(message.content).not.toMatch(/<\|(im_start|im_end|endoftext)\|>/);

    await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    await expect.element(page.getByRole('heading', { name: 'Context inspector' })).toBeVisible();
    const inspector = inspectorRoot(app);
    // The inspector lists the recalled payload turns (as text) among the memory it considered.
    expect(inspector.textContent).toContain('[[payload:');
    expect(findActiveContent([inspector], { ownTags: ['details'] })).toEqual([]);
    await watch.finish();
  }, 240_000);

  it('an imported conversation: payload titles in the list, payload messages when opened', async () => {
    const app = mountOnCorpusEngine();
    await waitReady(app);
    const now = Date.now();
    const file: ExportFile = {
      format: EXPORT_FORMAT,
      version: 1,
      exportedAt: new Date(now).toISOString(),
      conversations: EXFILTRATION_CORPUS.map((payload, i) => ({
        id: `payload-${payload.id}`,
        title: payload.text,
        createdAt: now - i * 1000,
        updatedAt: now - i * 1000,
        messages: [
          { role: 'user', content: payload.text, createdAt: now - i * 1000, status: 'complete' },
          { role: 'assistant', content: payload.text, createdAt: now - i * 1000 + 1, status: 'complete' },
        ],
      })),
    };
    await userEvent.click(page.getByRole('button', { name: 'Data' }));
    await userEvent.upload(page.getByLabelText('Choose a file'), new File([JSON.stringify(file)], 'export.json', { type: 'application/json' }));
    await expect.element(page.getByText(`Imported ${EXFILTRATION_CORPUS.length} conversations.`)).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Data', exact: true }));

    const list = shadow(conversationList(app));
    await expect.poll(() => list.querySelectorAll('li[data-id] .open').length).toBe(EXFILTRATION_CORPUS.length);
    const titles = [...list.querySelectorAll<HTMLElement>('li[data-id] .open')].map((button) => button.textContent!.trim());
    for (const payload of EXFILTRATION_CORPUS) expect(titles).toContain(payload.text.trim());
    expect(findActiveContent([list], { ownTags: ['input'] })).toEqual([]);

    for (const payload of EXFILTRATION_CORPUS) {
      await userEvent.click(list.querySelector<HTMLElement>(`li[data-id="payload-${payload.id}"] .open`)!);
      await expect.poll(() => contents(app, 'assistant').at(-1)?.textContent ?? '', { timeout: 5_000 }).toContain(payloadMarker(payload));
      watch.expectSanitized(payload);
      expect(contents(app, 'user').at(-1)!.textContent).toBe(payload.text);
      expect(findActiveContent([...contents(app, 'user'), ...contents(app, 'assistant')]), payload.id).toEqual([]);
    }
    await watch.finish();
  }, 120_000);

  it('docs imported into the app: payload files, quoted in the prompt and shown in the inspector', async () => {
    const app = mountOnCorpusEngine();
    await waitReady(app);
    const files = EXFILTRATION_CORPUS.map(
      (payload) => new File([`# Setting ${payload.id}\n\nThe zephyr option ${payload.id} reads:\n\n${payload.text}\n`], `${payload.id}.md`, { type: 'text/markdown' }),
    );
    await userEvent.click(page.getByRole('button', { name: 'Data' }));
    await userEvent.upload(page.getByLabelText('Choose Markdown files'), files);
    await expect.element(page.getByText(new RegExp(`^Imported ${EXFILTRATION_CORPUS.length} docs`))).toBeVisible();
    await userEvent.click(page.getByRole('button', { name: 'Data', exact: true }));

    const quoted = new Set<string>();
    for (const kind of new Set(EXFILTRATION_CORPUS.map((payload) => payload.kind))) {
      const payload = EXFILTRATION_CORPUS.find((p) => p.kind === kind)!;
      // The question names the payload: the engine answers with it, and retrieval quotes its doc.
      await sendAndWait(app, `${payloadTag(payload.id)} What does the zephyr option ${payload.id} read?`);
      const prompt = app.chat.lastSnapshot!.messages.map((m) => m.content).join('\n');
      if (prompt.includes(`option ${payload.id} reads`)) quoted.add(payload.id);
      watch.expectSanitized(payload);
      await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
      await expect.element(page.getByRole('heading', { name: 'Context inspector' })).toBeVisible();
      expect(findActiveContent([inspectorRoot(app)], { ownTags: ['details'] }), payload.id).toEqual([]);
      await userEvent.click(page.getByRole('button', { name: 'Inspector' }));
    }
    // Retrieval really handed the docs to the prompt (and so to the inspector), not just the file names.
    expect(quoted.size).toBeGreaterThan(0);
    expect(findActiveContent(contents(app, 'assistant'))).toEqual([]);
    await watch.finish();
  });
});
