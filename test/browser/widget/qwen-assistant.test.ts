/**
 * `<qwen-assistant>` in real Chromium with a scripted runtime: streaming into the message list, Markdown rendered
 * sanitised once its lazy chunk arrives, sources as links, Stop, errors with code and Retry, a new conversation,
 * and the runtime created only on first open with the validated configuration.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CONSENT_KEY } from '../../../src/widget/consent.ts';
import type { QwenAssistant } from '../../../src/widget/qwen-assistant.ts';
import '../../../src/widget/index.ts';
import { ScriptedRuntime } from './scripted-runtime.ts';

let runtimes: ScriptedRuntime[] = [];

function mount(attributes: Record<string, string> = {}): QwenAssistant {
  const element = document.createElement('qwen-assistant');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.assistant.loader = async () => (config) => {
    const runtime = new ScriptedRuntime(config);
    runtimes.push(runtime);
    return runtime;
  };
  document.body.append(element);
  return element;
}

const shadow = (element: QwenAssistant): ShadowRoot => element.shadowRoot!;
const $ = (element: QwenAssistant, selector: string): HTMLElement | null => shadow(element).querySelector<HTMLElement>(selector);
const messages = (element: QwenAssistant): HTMLElement[] => [...shadow(element).querySelectorAll<HTMLElement>('[part~="message"]')];
const statusText = (element: QwenAssistant): string => $(element, '[part="status"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '';

async function ask(element: QwenAssistant, text: string): Promise<void> {
  const input = $(element, 'textarea') as HTMLTextAreaElement;
  input.value = text;
  input.dispatchEvent(new Event('input'));
  await element.updateComplete;
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
  await element.updateComplete;
}

// The reader consented to the model on this site earlier (search-first.test.ts covers the steps before that).
beforeEach(() => localStorage.setItem(CONSENT_KEY, 'granted'));

afterEach(() => {
  document.querySelectorAll('qwen-assistant').forEach((element) => element.remove());
  runtimes = [];
  localStorage.removeItem(CONSENT_KEY);
});

describe('<qwen-assistant> with a scripted runtime', () => {
  it('creates the runtime on first open only, with the validated configuration and its own base URL', async () => {
    const element = mount({ 'docs-index': '/docs-index/manifest.json', window: '2048', lang: 'zh', model: 'models/x.gguf' });
    await element.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runtimes).toHaveLength(0);
    ($(element, '[part="launcher"]') as HTMLButtonElement).click();
    await expect.poll(() => runtimes.length).toBe(1);
    const config = runtimes[0]!.config;
    expect(config).toMatchObject({ model: 'models/x.gguf', docsIndex: `${location.origin}/docs-index/manifest.json`, lang: 'zh', window: 2048 });
    // Where the shell's module was loaded from (here the dev server's /src/widget/).
    expect(config.base).toBe(`${location.origin}/src/widget/`);
    expect(config.storeName).toContain(`${location.origin}/docs-index/manifest.json`);
    await expect.poll(() => statusText(element)).toContain('WASM CPU, single thread');
    // A new configuration drops the runtime; the next question creates a new one with it.
    element.setAttribute('window', '4096');
    await expect.poll(() => runtimes[0]!.disposed).toBe(true);
  });

  it('shows loading progress, then streams the answer and renders it as sanitised Markdown with its sources', async () => {
    const element = mount();
    element.show();
    await expect.poll(() => runtimes.length).toBe(1);
    const runtime = runtimes[0]!;
    runtime.answers.push({
      deltas: ['**Install** it', ' with `npm i`.', '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>'],
      sources: [
        { href: 'https://docs.example/guide/install.html#from-npm', title: 'Install', heading: 'Install › From npm' },
        { href: 'https://docs.example/index.html', title: 'Home', heading: 'Home' },
        // Two chunks of one section make one link.
        { href: 'https://docs.example/guide/install.html#from-npm', title: 'Install', heading: 'From npm' },
      ],
    });
    await ask(element, 'How do I install it?');
    expect(messages(element).map((m) => m.getAttribute('part'))).toEqual(['message user', 'message assistant']);
    expect(messages(element)[0]!.textContent).toBe('How do I install it?');
    expect(($(element, '[part="send"]') as HTMLButtonElement).textContent?.trim()).toBe('Stop');

    runtime.step();
    await expect.poll(() => messages(element)[1]!.querySelector('strong')?.textContent).toBe('Install');
    expect(messages(element)[1]!.getAttribute('aria-busy')).toBe('true');
    runtime.step();
    runtime.step();
    await expect.poll(() => messages(element)[1]!.dataset.state).toBe('complete');
    const reply = messages(element)[1]!;
    expect(reply.querySelector('code')?.textContent).toBe('npm i');
    expect(reply.querySelector('img, script, [onerror]')).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
    const links = [...reply.querySelectorAll<HTMLAnchorElement>('[part="sources"] a')].map((a) => [a.textContent, a.href]);
    expect(links).toEqual([
      ['Install › From npm', 'https://docs.example/guide/install.html#from-npm'],
      ['Home', 'https://docs.example/index.html'],
    ]);
    expect(($(element, '[part="send"]') as HTMLButtonElement).textContent?.trim()).toBe('Send');
  });

  it('stops an answer, keeping what was written, and sends nothing on Shift+Enter', async () => {
    const element = mount();
    element.show();
    await expect.poll(() => runtimes.length).toBe(1);
    const runtime = runtimes[0]!;
    runtime.answers.push({ deltas: ['Partial', ' never'] });
    await ask(element, 'Question');
    runtime.step();
    await expect.poll(() => messages(element)[1]?.textContent).toContain('Partial');
    ($(element, '[part="send"]') as HTMLButtonElement).click();
    await expect.poll(() => messages(element)[1]!.dataset.state).toBe('stopped');
    expect(messages(element)[1]!.textContent).toContain('Partial');
    expect(messages(element)[1]!.textContent).toContain('Stopped.');

    const input = $(element, 'textarea') as HTMLTextAreaElement;
    input.value = 'draft';
    input.dispatchEvent(new Event('input'));
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', shiftKey: true, bubbles: true, cancelable: true }));
    // Chinese input: Enter that confirms an IME composition does not send.
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', isComposing: true, bubbles: true, cancelable: true }));
    await element.updateComplete;
    expect(runtime.questions).toEqual(['Question']);
  });

  it('shows an answer’s error with its code; Retry asks the question again', async () => {
    const element = mount();
    element.show();
    await expect.poll(() => runtimes.length).toBe(1);
    const runtime = runtimes[0]!;
    runtime.answers.push({ deltas: [], error: { code: 'engine_crashed', message: 'The engine stopped.' } }, { deltas: ['Fine now.'] });
    await ask(element, 'Why?');
    await expect.poll(() => statusText(element)).toBe('engine_crashed: The engine stopped. Retry');
    expect(messages(element)[1]!.dataset.state).toBe('error');
    ($(element, '.status button') as HTMLButtonElement).click();
    await expect.poll(() => runtime.questions).toEqual(['Why?', 'Why?']);
    runtime.step();
    await expect.poll(() => messages(element).map((m) => m.dataset.state)).toEqual(['complete', 'complete']);
    expect(messages(element)[1]!.textContent).toContain('Fine now.');
    expect(statusText(element)).not.toContain('engine_crashed');
  });

  it('shows a progress bar while loading and starts a new conversation', async () => {
    const element = mount();
    element.assistant.loader = async () => (config) => {
      const runtime = new ScriptedRuntime(config);
      runtime.holdLoading = true;
      runtimes.push(runtime);
      return runtime;
    };
    element.show();
    await expect.poll(() => $(element, 'progress') !== null).toBe(true);
    expect(($(element, 'progress') as HTMLProgressElement).value).toBe(0.25);
    expect(statusText(element)).toBe('Loading the model…');
    runtimes[0]!.finishLoading();
    await expect.poll(() => $(element, 'progress')).toBeNull();
    runtimes[0]!.answers.push({ deltas: ['Yes.'] });
    await ask(element, 'One?');
    runtimes[0]!.step();
    await expect.poll(() => messages(element).length).toBe(2);
    await expect.poll(() => messages(element)[1]!.dataset.state).toBe('complete');
    (shadow(element).querySelector('header button') as HTMLButtonElement).click();
    await expect.poll(() => messages(element).length).toBe(0);
    expect(runtimes[0]!.resets).toBe(1);
    expect($(element, '.empty')?.textContent).toContain('Nothing you type leaves your device');
  });

  it('a second definition leaves the first in place', async () => {
    const first = customElements.get('qwen-assistant');
    const again = new URL('../../../src/widget/qwen-assistant.ts?again', import.meta.url).href;
    await import(/* @vite-ignore */ again);
    expect(customElements.get('qwen-assistant')).toBe(first);
  });
});
