/**
 * A returning reader who consented to the model opens the docs widget on the demo site (production build, served
 * as a typical docs host serves it: no COOP/COEP, so one engine thread): panel open → assistant ready (engine,
 * docs and tokenizer), with the model already in wllama's OPFS cache. See start.ts.
 */
import type { BrowserContext, Page } from 'playwright';
import type { StepTimes } from './start-app.ts';

export interface WidgetVisit {
  /** Launcher click → the assistant ready (engine, docs, tokenizer). */
  readyMs: number;
  /** The runtime's start timeline (ms since the page opened), when the build has one. */
  steps: StepTimes[] | null;
}

/** The widget's remembered choice (src/widget/consent.ts). */
const CONSENT_KEY = 'qwen-assistant:model-consent';

async function openAndWait(page: Page, timeout: number): Promise<WidgetVisit> {
  await page.waitForFunction(() => customElements.get('qwen-assistant') !== undefined && document.querySelector('qwen-assistant')?.shadowRoot?.querySelector('.launcher') != null);
  const began = await page.evaluate(() => performance.now());
  await page.locator('qwen-assistant').locator('button[part="launcher"]').click();
  const handle = await page.waitForFunction(
    () => {
      const el = document.querySelector('qwen-assistant') as unknown as { assistant?: { status?: { phase: string; error?: { message: string } | null } | null } } | null;
      const status = el?.assistant?.status;
      if (status?.phase === 'error') return { error: status.error?.message ?? 'widget error' };
      return status?.phase === 'ready' ? { at: performance.now() } : false;
    },
    undefined,
    { timeout, polling: 10 },
  );
  const value = (await handle.jsonValue()) as { at?: number; error?: string };
  if (value.error !== undefined) throw new Error(`the widget failed to get ready: ${value.error}`);
  const steps = await page.evaluate(() => (document.querySelector('qwen-assistant') as unknown as { assistant?: { timeline?: { steps: unknown[] } | null } }).assistant?.timeline?.steps ?? null);
  return { readyMs: value.at! - began, steps: steps as StepTimes[] | null };
}

/** First visit (the model downloads into OPFS), then `runs` reloads: open → ready each time. */
export async function measureWidgetStart(context: BrowserContext, page: Page, options: { origin: string; runs: number; log: (line: string) => void }): Promise<WidgetVisit[]> {
  await context.addInitScript((key: string) => localStorage.setItem(key, 'granted'), CONSENT_KEY);
  await page.goto(`${options.origin}/`);
  await openAndWait(page, 300_000);
  const visits: WidgetVisit[] = [];
  for (let run = 0; run < options.runs; run++) {
    await page.reload();
    const visit = await openAndWait(page, 120_000);
    options.log(`  reload ${run + 1}: open → ready ${Math.round(visit.readyMs)} ms`);
    visits.push(visit);
  }
  return visits;
}
