/**
 * The exfiltration corpus in the production build, as a user's browser meets it: the service worker controls the
 * page, the real engine runs the generated model, and every request of the page, its workers and its service
 * worker is intercepted. The corpus arrives as an imported export (titles and messages) and as imported docs that
 * the next prompts quote; every title is listed, one conversation of each kind opened, and the inspector shown. Nothing may be requested outside
 * the app's origin (which here is also the model's host), no payload code may run, and the page's Content-Security-
 * Policy must report nothing it had to block.
 */
import { describe, expect, it } from 'vitest';
import { EXFIL_FUNCTION, EXFILTRATION_CORPUS, payloadMarker } from '../fixtures/exfiltration-corpus.ts';
import { guardedContext, sendAndWait, useBuiltApp, waitForReady } from './harness.ts';

const built = useBuiltApp('exfiltration');
/** Importing 104 conversations and embedding 104 docs takes seconds alone, and far longer on a loaded machine. */
const SLOW = 120_000;

const EXPORT = JSON.stringify({
  format: 'qwen-local-assistant/conversations',
  version: 1,
  exportedAt: '2026-12-01T00:00:00.000Z',
  conversations: EXFILTRATION_CORPUS.map((payload, i) => ({
    id: `payload-${payload.id}`,
    title: payload.text,
    createdAt: 1_796_000_000_000 + i,
    updatedAt: 1_796_000_000_000 + i,
    messages: [
      { role: 'user', content: payload.text, createdAt: 1_796_000_000_000 + i, status: 'complete' },
      { role: 'assistant', content: payload.text, createdAt: 1_796_000_000_001 + i, status: 'complete' },
    ],
  })),
});

describe('the built app with the corpus', () => {
  it('imports every payload, opens and quotes them: 0 requests off the origin, 0 executions, 0 policy violations', async () => {
    const { browser, origin } = built();
    const { context, requests, blocked } = await guardedContext(browser, [origin]);
    await context.addInitScript((exfil: string) => {
      const w = window as unknown as Record<string, unknown>;
      const ran: string[] = [];
      const violations: string[] = [];
      w[exfil] = (id: string) => ran.push(String(id));
      w['__ran'] = ran;
      w['__violations'] = violations;
      document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    }, EXFIL_FUNCTION);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => void (dialogs.push(dialog.message()), dialog.dismiss()));
    await page.goto(`${origin}/?model=test&autoload=1`);
    await waitForReady(page);
    // From here the service worker answers the page's requests (it claims the page once active).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 20_000 });

    await page.getByRole('button', { name: 'Data' }).click();
    await page.getByLabel('Choose a file').setInputFiles({ name: 'export.json', mimeType: 'application/json', buffer: Buffer.from(EXPORT) });
    await page.getByText(`Imported ${EXFILTRATION_CORPUS.length} conversations.`).waitFor({ timeout: SLOW });
    await page
      .getByLabel('Choose Markdown files')
      .setInputFiles(EXFILTRATION_CORPUS.map((p) => ({ name: `${p.id}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`# The ${p.id} option\n\n${p.text}\n`) })));
    await page.getByText(new RegExp(`^Imported ${EXFILTRATION_CORPUS.length} docs`)).waitFor({ timeout: SLOW });
    await page.getByRole('button', { name: 'Data', exact: true }).click();

    // Every title is in the list; one conversation of each kind is opened (the browser tests open them all).
    await page.locator('qwen-conversation-list li[data-id] .open').nth(EXFILTRATION_CORPUS.length - 1).waitFor();
    const oneOfEachKind = [...new Map(EXFILTRATION_CORPUS.map((p) => [p.kind, p])).values()];
    for (const payload of oneOfEachKind) {
      await page.locator(`qwen-conversation-list li[data-id="payload-${payload.id}"] .open`).click();
      await page.locator('qwen-message-list li[data-role="assistant"] .content', { hasText: payloadMarker(payload) }).waitFor();
    }
    // Ask about a few docs: the real engine answers, the prompt quotes payload docs, the inspector lists them.
    for (const payload of EXFILTRATION_CORPUS.filter((_, i) => i % 25 === 0)) await sendAndWait(page, `What does the ${payload.id} option say?`);
    await page.getByRole('button', { name: 'Inspector' }).click();
    await page.getByRole('heading', { name: 'Context inspector' }).waitFor();
    await page.waitForTimeout(500);

    const ran = await page.evaluate(() => (window as unknown as { __ran: string[] }).__ran);
    const violations = await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations);
    expect(blocked, 'requests outside the app origin (page, workers, service worker)').toEqual([]);
    expect(ran, 'payload code that ran').toEqual([]);
    expect(dialogs).toEqual([]);
    expect(violations, 'requests the Content-Security-Policy had to block').toEqual([]);
    // The watch was real: the page and its workers did make requests, all to the app.
    expect(requests.some((r) => r.url.endsWith('/models/test/qwen2-tiny.gguf'))).toBe(true);
    await context.close();
  }, 240_000);
});
