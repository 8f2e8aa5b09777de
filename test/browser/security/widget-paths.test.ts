/**
 * The exfiltration corpus through the docs widget: the reader's question, the streamed answer (Markdown, rendered
 * once its lazy chunk arrives) and the sources under it, whose titles, headings and links come from the site's docs
 * index. A scripted runtime delivers them; the shell renders them. Each payload is proven to reach the renderer,
 * then nothing active is in the widget, nothing off-origin was requested, and no payload code ran.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QwenAssistant } from '../../../src/widget/qwen-assistant.ts';
import '../../../src/widget/index.ts';
import { CONSENT_KEY } from '../../../src/widget/consent.ts';
import { EVIL_HOST, EXFIL_FUNCTION, EXFILTRATION_CORPUS, payloadMarker, payloadTag, type Payload } from '../../fixtures/exfiltration-corpus.ts';
import { ScriptedRuntime } from '../widget/scripted-runtime.ts';
import { RenderWatch, findActiveContent } from './audit.ts';

let runtime: ScriptedRuntime | null = null;
let watch: RenderWatch;

function mount(): QwenAssistant {
  const element = document.createElement('qwen-assistant');
  element.assistant.loader = async () => (config) => (runtime = new ScriptedRuntime(config));
  document.body.append(element);
  return element;
}

const root = (element: QwenAssistant): ShadowRoot => element.shadowRoot!;
const messages = (element: QwenAssistant): HTMLElement[] => [...root(element).querySelectorAll<HTMLElement>('[part~="message"]')];

/** Sources as a hostile docs index could describe them: payload titles and headings, links of every scheme. */
function hostileSources(payload: Payload) {
  return [
    { href: `javascript:top.${EXFIL_FUNCTION}('${payload.id}')`, title: payload.text, heading: payload.text },
    { href: `https://${EVIL_HOST}/${payload.id}`, title: `${payload.id} page`, heading: payload.text },
    { href: `data:text/html,<script>top.${EXFIL_FUNCTION}('${payload.id}')</script>`, title: `${payload.id} data`, heading: '' },
    { href: ` java\tscript:top.${EXFIL_FUNCTION}('${payload.id}')`, title: `${payload.id} spaced`, heading: '' },
  ];
}

async function ask(element: QwenAssistant, text: string): Promise<void> {
  const input = root(element).querySelector('textarea')!;
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await element.updateComplete;
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
  await element.updateComplete;
}

beforeEach(async () => {
  localStorage.setItem(CONSENT_KEY, 'granted');
  watch = new RenderWatch();
  await watch.start();
});
afterEach(() => {
  document.querySelectorAll('qwen-assistant').forEach((element) => element.remove());
  runtime = null;
  localStorage.removeItem(CONSENT_KEY);
});

describe('<qwen-assistant> renders every payload inert', () => {
  it(`the question, the answer and its sources, for each of the ${EXFILTRATION_CORPUS.length} payloads`, async () => {
    const element = mount();
    await element.updateComplete;
    root(element).querySelector<HTMLButtonElement>('[part="launcher"]')!.click();
    await expect.poll(() => runtime !== null).toBe(true);
    for (const payload of EXFILTRATION_CORPUS) {
      const third = Math.ceil(payload.text.length / 3);
      runtime!.answers.push({
        deltas: [payload.text.slice(0, third), payload.text.slice(third, 2 * third), payload.text.slice(2 * third)],
        sources: hostileSources(payload),
      });
      // The follow-ups under the answer are headings from the docs index too.
      runtime!.related = hostileSources(payload);
      for (let i = 0; i < 3; i++) runtime!.step();
      const question = `${payloadTag(payload.id)} ${payload.text}`;
      await ask(element, question);
      await expect.poll(() => messages(element).at(-1)?.querySelector('.markdown')?.textContent ?? '').toContain(payloadMarker(payload));
      await expect.poll(() => messages(element).at(-1)?.querySelectorAll('[part="sources"] li').length ?? 0).toBe(4);
      await expect.poll(() => messages(element).at(-1)?.querySelectorAll('[part="follow-ups"] button').length ?? 0).toBe(4);
      watch.expectSanitized(payload);
      const [asked, answered] = messages(element).slice(-2);
      expect(asked!.textContent).toContain(question);
      // Only the http(s) source stays a link; the others show their label as text.
      const links = [...answered!.querySelectorAll<HTMLAnchorElement>('[part="sources"] a')];
      expect(links.map((a) => a.getAttribute('href'))).toEqual([`https://${EVIL_HOST}/${payload.id}`]);
      expect(answered!.querySelector('[part="sources"]')!.textContent).toContain(payloadMarker(payload));
      expect(findActiveContent([asked!, answered!]), payload.id).toEqual([]);
    }
    await watch.finish();
  }, 180_000);

  it(`search results and suggestions (titles, headings, snippets and links from the docs index), for each of the ${EXFILTRATION_CORPUS.length} payloads`, async () => {
    const element = mount();
    element.setAttribute('mode', 'search');
    await element.updateComplete;
    root(element).querySelector<HTMLButtonElement>('[part="launcher"]')!.click();
    await expect.poll(() => runtime !== null).toBe(true);
    const input = root(element).querySelector('textarea')!;
    for (const payload of EXFILTRATION_CORPUS) {
      // An empty panel suggests the docs' page titles.
      runtime!.top = hostileSources(payload);
      // A query typed and cleared: the panel is empty again, and shows its suggestions.
      for (const value of ['x', '']) {
        input.value = value;
        input.dispatchEvent(new Event('input'));
        await element.updateComplete;
      }
      const suggestions = (): HTMLElement | null => root(element).querySelector<HTMLElement>('[part="suggestions"]');
      await expect.poll(() => suggestions()?.textContent ?? '').toContain(payloadMarker(payload));
      expect(findActiveContent([suggestions()!]), payload.id).toEqual([]);
      runtime!.hits = hostileSources(payload).map((source, i) => ({
        ...source,
        id: `${payload.id}#${i}`,
        score: 1,
        snippet: [
          { text: payload.text, mark: false },
          { text: `${payloadMarker(payload)} ${payload.text}`, mark: true },
        ],
      }));
      input.value = payloadTag(payload.id);
      input.dispatchEvent(new Event('input'));
      const section = (): HTMLElement | null => root(element).querySelector<HTMLElement>('[part="search"]');
      await expect.poll(() => section()?.querySelectorAll('[part="result"]').length ?? 0).toBe(4);
      await expect.poll(() => section()!.textContent ?? '').toContain(payloadMarker(payload));
      // Only the http(s) result is a link; the others show as text.
      const links = [...section()!.querySelectorAll<HTMLAnchorElement>('a')].map((a) => a.getAttribute('href'));
      expect(links).toEqual([`https://${EVIL_HOST}/${payload.id}`]);
      expect(findActiveContent([section()!], { ownTags: ['mark'] }), payload.id).toEqual([]);
    }
    await watch.finish();
  }, 180_000);
});
