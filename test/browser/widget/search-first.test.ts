/**
 * `<qwen-assistant>` before the model (issue 20), with a scripted runtime: opening the panel loads the docs index
 * only; typing shows matching sections (title › heading, the matched words marked, the link) and fires
 * `qwen-assistant:search`; arrow keys and Enter work as in DocSearch; a question offers the assistant, which loads
 * only after the reader's consent (remembered per site); `mode` and `scope` behave as documented; each step is a
 * DOM event with its payload.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QwenAssistant } from '../../../src/widget/qwen-assistant.ts';
import '../../../src/widget/index.ts';
import { CONSENT_KEY } from '../../../src/widget/consent.ts';
import type { DocSearchHit } from '../../../src/widget/runtime/types.ts';
import { ScriptedRuntime } from './scripted-runtime.ts';

let runtimes: ScriptedRuntime[] = [];
let events: Array<{ type: string; detail: unknown }> = [];
const record = (event: Event): void => void events.push({ type: event.type, detail: (event as CustomEvent).detail });
const EVENTS = ['qwen-assistant:search', 'qwen-assistant:question', 'qwen-assistant:answer', 'qwen-assistant:source-click', 'qwen-assistant:consent', 'qwen-assistant:feedback'];

const here = location.href.split('#')[0]!;
const HITS: DocSearchHit[] = [
  {
    id: 'install#0',
    href: `${here}#from-npm`,
    title: 'Install',
    heading: 'Install › From npm',
    score: 1,
    snippet: [{ text: 'Run ', mark: false }, { text: 'npm', mark: true }, { text: ' i frobnic.', mark: false }],
  },
  { id: 'daemon#0', href: `${here}#ports`, title: 'The daemon', heading: '', score: 0.5, snippet: [{ text: 'Port 7431 by default.', mark: false }] },
];

function mount(attributes: Record<string, string> = {}): QwenAssistant {
  const element = document.createElement('qwen-assistant');
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.assistant.loader = async () => (config) => {
    const runtime = new ScriptedRuntime(config);
    runtime.hits = HITS;
    runtime.top = [{ href: `${here}`, title: 'Install', heading: '' }, { href: `${here}`, title: 'The daemon', heading: '' }];
    runtime.related = [{ href: `${here}#from-source`, title: 'Install', heading: 'Install › From source' }];
    runtimes.push(runtime);
    return runtime;
  };
  for (const name of EVENTS) element.addEventListener(name, record);
  document.body.append(element);
  return element;
}

const shadow = (element: QwenAssistant): ShadowRoot => element.shadowRoot!;
const $ = (element: QwenAssistant, selector: string): HTMLElement | null => shadow(element).querySelector<HTMLElement>(selector);
const results = (element: QwenAssistant): HTMLElement[] => [...shadow(element).querySelectorAll<HTMLElement>('[part="result"]')];
const input = (element: QwenAssistant): HTMLTextAreaElement => $(element, 'textarea') as HTMLTextAreaElement;
const of = (type: string): unknown[] => events.filter((e) => e.type === type).map((e) => e.detail);

async function type(element: QwenAssistant, text: string): Promise<void> {
  await element.updateComplete;
  input(element).value = text;
  input(element).dispatchEvent(new Event('input'));
  await element.updateComplete;
}

function key(element: QwenAssistant, name: string): void {
  input(element).dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, composed: true, cancelable: true }));
}

beforeEach(() => {
  localStorage.removeItem(CONSENT_KEY);
  events = [];
});

afterEach(() => {
  document.querySelectorAll('qwen-assistant').forEach((element) => element.remove());
  runtimes = [];
  localStorage.removeItem(CONSENT_KEY);
  history.replaceState(null, '', here);
});

describe('<qwen-assistant> searches first', () => {
  it('opening loads the docs only; typing shows sections with marked words and links, and fires a search event', async () => {
    const element = mount({ scope: '/guide/' });
    element.show();
    await expect.poll(() => runtimes[0]?.docsReadyCalls ?? 0).toBeGreaterThan(0);
    expect(runtimes[0]!.readyCalls).toBe(0);
    expect($(element, '.empty')?.textContent).toContain('Nothing is downloaded until you ask the assistant');
    await type(element, 'npm');
    await expect.poll(() => results(element).length).toBe(2);
    expect(runtimes[0]!.searches.at(-1)).toEqual({ text: 'npm', options: { scope: '/guide/' } });
    const [first, second] = results(element);
    expect(first!.querySelector('.result-title')!.textContent).toBe('Install › From npm');
    expect(second!.querySelector('.result-title')!.textContent).toBe('The daemon');
    expect([...first!.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['npm']);
    expect(first!.querySelector('a')!.href).toBe(`${here}#from-npm`);
    await expect.poll(() => of('qwen-assistant:search')).toHaveLength(1);
    expect(of('qwen-assistant:search')[0]).toMatchObject({ query: 'npm', results: [{ href: `${here}#from-npm`, title: 'Install', heading: 'Install › From npm' }, { href: `${here}#ports`, title: 'The daemon', heading: '' }] });
    expect(runtimes[0]!.readyCalls).toBe(0);
  });

  it('arrow keys choose a result and Enter opens it', async () => {
    const element = mount();
    element.show();
    await type(element, 'port');
    await expect.poll(() => results(element).length).toBe(2);
    key(element, 'ArrowDown');
    key(element, 'ArrowDown');
    await element.updateComplete;
    expect(results(element).map((r) => r.getAttribute('aria-selected'))).toEqual(['false', 'true']);
    expect(input(element).getAttribute('aria-activedescendant')).toBe('result-1');
    key(element, 'ArrowDown'); // past the last: none chosen
    key(element, 'ArrowUp'); // from none, up: the last
    await element.updateComplete;
    expect(results(element).map((r) => r.getAttribute('aria-selected'))).toEqual(['false', 'true']);
    key(element, 'Enter');
    await expect.poll(() => location.hash).toBe('#ports');
    expect(of('qwen-assistant:source-click')).toEqual([{ href: `${here}#ports`, title: 'The daemon', heading: '', from: 'search' }]);
    expect(runtimes[0]!.readyCalls).toBe(0);
  });

  it('a question offers the assistant; it loads only once the reader accepts, and the choice is remembered', async () => {
    const element = mount();
    element.show();
    await type(element, 'How do I change the port?');
    key(element, 'Enter');
    await expect.poll(() => $(element, '[part="consent"]') !== null).toBe(true);
    const consent = $(element, '[part="consent"]')!.textContent!;
    expect(consent).toContain('qwen2.5-0.5b-instruct-q4_k_m.gguf');
    expect(consent).toContain('huggingface.co');
    expect(consent).toContain('about 491 MB');
    expect(runtimes[0]!.readyCalls).toBe(0);
    expect(runtimes[0]!.questions).toEqual([]);
    runtimes[0]!.answers.push({ deltas: ['Use --port.'], sources: [HITS[1]!] });
    ($(element, '[part="consent-accept"]') as HTMLButtonElement).click();
    await expect.poll(() => runtimes[0]!.questions).toEqual(['How do I change the port?']);
    expect(runtimes[0]!.readyCalls).toBeGreaterThan(0);
    expect(localStorage.getItem(CONSENT_KEY)).toBe('granted');
    runtimes[0]!.step();
    await expect.poll(() => of('qwen-assistant:answer')).toHaveLength(1);
    expect(of('qwen-assistant:consent')).toEqual([{ granted: true }]);
    expect(of('qwen-assistant:question')).toEqual([{ question: 'How do I change the port?' }]);
    expect(of('qwen-assistant:answer')[0]).toMatchObject({ question: 'How do I change the port?', answer: 'Use --port.', sources: [{ href: `${here}#ports` }], tokens: { prompt: 42, completion: 1 }, finishReason: 'stop' });
    expect((of('qwen-assistant:answer')[0] as { ms: number }).ms).toBeGreaterThanOrEqual(0);
    // The search results stay above the answer.
    expect(results(element)).toHaveLength(2);

    // A later visit on this site goes straight in: the engine starts when the panel opens (not before).
    element.remove();
    const again = mount();
    await again.updateComplete;
    expect(runtimes).toHaveLength(1);
    again.show();
    await expect.poll(() => runtimes[1]?.readyCalls ?? 0).toBe(1);
  });

  it('"Keep searching" declines: nothing loads, and the reader is asked again at the next question', async () => {
    const element = mount();
    element.show();
    await type(element, 'Where is the cache?');
    await expect.poll(() => results(element).length).toBe(2);
    ($(element, '[part="ask-assistant"]') as HTMLButtonElement).click();
    await expect.poll(() => $(element, '[part="consent"]') !== null).toBe(true);
    ($(element, '[part="consent-decline"]') as HTMLButtonElement).click();
    await element.updateComplete;
    expect($(element, '[part="consent"]')).toBeNull();
    expect(of('qwen-assistant:consent')).toEqual([{ granted: false }]);
    expect(localStorage.getItem(CONSENT_KEY)).toBeNull();
    key(element, 'Enter');
    await expect.poll(() => $(element, '[part="consent"]') !== null).toBe(true);
    expect(runtimes[0]!.readyCalls).toBe(0);
  });

  it('mode="search" never offers the model: Enter opens the best result', async () => {
    localStorage.setItem(CONSENT_KEY, 'granted');
    const element = mount({ mode: 'search' });
    element.show();
    await type(element, 'install');
    await expect.poll(() => results(element).length).toBe(2);
    expect($(element, '[part="ask-assistant"]')).toBeNull();
    key(element, 'Enter');
    await expect.poll(() => location.hash).toBe('#from-npm');
    expect($(element, '[part="consent"]')).toBeNull();
    expect(runtimes[0]!.readyCalls).toBe(0);
    expect(runtimes[0]!.questions).toEqual([]);
  });

  it('mode="assistant" asks for consent on the first open; in Chinese too', async () => {
    const element = mount({ mode: 'assistant', lang: 'zh' });
    element.show();
    await expect.poll(() => $(element, '[part="consent"]')?.textContent ?? '').toContain('约 491 MB');
    expect($(element, '[part="consent-accept"]')!.textContent).toBe('下载并提问');
    expect(runtimes[0]!.readyCalls).toBe(0);
    ($(element, '[part="consent-accept"]') as HTMLButtonElement).click();
    await expect.poll(() => runtimes[0]!.readyCalls).toBe(1);
  });

  it('"not in the docs": the reply says so and lists the nearest sections under their own label', async () => {
    localStorage.setItem(CONSENT_KEY, 'granted');
    const element = mount({ lang: 'zh' });
    element.show();
    await expect.poll(() => runtimes.length).toBe(1);
    runtimes[0]!.answers.push({ deltas: ['这些文档里似乎没有讲到这个问题，我就不猜了。'], sources: [HITS[1]!], notInDocs: true });
    await type(element, '柠檬挞怎么做？');
    key(element, 'Enter');
    runtimes[0]!.step();
    await expect.poll(() => shadow(element).querySelector('.sources-label')?.textContent).toBe('最接近的章节');
    expect(shadow(element).querySelector('[part="sources"]')!.getAttribute('aria-label')).toBe('最接近的章节');
    await expect.poll(() => of('qwen-assistant:answer')).toHaveLength(1);
    expect(of('qwen-assistant:answer')[0]).toMatchObject({ notInDocs: true, sources: [{ href: `${here}#ports` }] });
  });

  it('an empty panel suggests the site’s questions (or its pages); a suggestion is searched before consent', async () => {
    const element = mount({ suggestions: 'How do I install it? | Which port does it use?' });
    element.show();
    await expect.poll(() => [...shadow(element).querySelectorAll('[part="suggestions"] button')].map((b) => b.textContent)).toEqual(['How do I install it?', 'Which port does it use?']);
    ([...shadow(element).querySelectorAll<HTMLButtonElement>('[part="suggestions"] button')].find((b) => b.textContent === 'Which port does it use?')!).click();
    await expect.poll(() => results(element).length).toBe(2);
    expect(runtimes[0]!.searches.at(-1)?.text).toBe('Which port does it use?');
    expect(input(element).value).toBe('Which port does it use?');
    expect(runtimes[0]!.readyCalls).toBe(0);

    // Without the attribute: the docs' pages.
    const plain = mount();
    plain.show();
    await expect.poll(() => [...shadow(plain).querySelectorAll('[part="suggestions"] button')].map((b) => b.textContent)).toEqual(['Install', 'The daemon']);
  });

  it('an answer offers follow-ups from its pages, thumbs up/down and copy; feedback fires its event', async () => {
    localStorage.setItem(CONSENT_KEY, 'granted');
    const element = mount();
    element.show();
    await expect.poll(() => runtimes.length).toBe(1);
    runtimes[0]!.answers.push({ deltas: ['Run npm i frobnic.'], sources: [HITS[0]!] }, { deltas: ['Clone and make.'] });
    await type(element, 'How do I install it?');
    key(element, 'Enter');
    runtimes[0]!.step();
    const followUp = (): HTMLButtonElement | null => shadow(element).querySelector('[part="follow-ups"] button');
    await expect.poll(() => followUp()?.textContent).toBe('Tell me about “From source”.');
    const down = shadow(element).querySelector('[data-rate="down"]') as HTMLButtonElement;
    down.click();
    await element.updateComplete;
    expect(down.getAttribute('aria-pressed')).toBe('true');
    expect(of('qwen-assistant:feedback')).toEqual([{ question: 'How do I install it?', answer: 'Run npm i frobnic.', rating: 'down', sources: [HITS[0]] }]);
    // Copy answer: the reply's text to the clipboard (a stand-in clipboard: the test page has no permission).
    const copied: string[] = [];
    const clipboard = Object.getOwnPropertyDescriptor(Navigator.prototype, 'clipboard');
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (text: string) => void copied.push(text) } });
    try {
      (shadow(element).querySelector('[data-copy-answer]') as HTMLButtonElement).click();
      await expect.poll(() => copied).toEqual(['Run npm i frobnic.']);
      await expect.poll(() => shadow(element).querySelector('[data-copy-answer]')?.textContent).toBe('Copied');
    } finally {
      Reflect.deleteProperty(navigator, 'clipboard');
      if (clipboard !== undefined) Object.defineProperty(Navigator.prototype, 'clipboard', clipboard);
    }
    followUp()!.click();
    await expect.poll(() => runtimes[0]!.questions).toEqual(['How do I install it?', 'Tell me about “From source”.']);
  });

  it('a reader who has the weights already goes straight in: no consent step, the engine starts at open', async () => {
    const element = mount({ mode: 'assistant' });
    element.assistant.loader = async () => (config) => {
      const runtime = new ScriptedRuntime(config);
      runtime.onDevice = true;
      runtimes.push(runtime);
      return runtime;
    };
    element.show();
    await expect.poll(() => runtimes[0]?.readyCalls ?? 0).toBe(1);
    expect($(element, '[part="consent"]')).toBeNull();
    expect(localStorage.getItem(CONSENT_KEY)).toBeNull();
  });
});
