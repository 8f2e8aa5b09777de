/** `<qwen-assistant>`: a question too long for the model says on itself how much of it was sent (issue 15). */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { CONSENT_KEY } from '../../../src/widget/consent.ts';
import '../../../src/widget/index.ts';
import { ScriptedRuntime } from './scripted-runtime.ts';

const runtimes: ScriptedRuntime[] = [];

beforeEach(() => localStorage.setItem(CONSENT_KEY, 'granted'));
afterEach(() => {
  document.querySelectorAll('qwen-assistant').forEach((element) => element.remove());
  runtimes.length = 0;
  localStorage.removeItem(CONSENT_KEY);
});

it.each([
  ['en', 'Only the first 4,321 of 12,000 characters (about 987 tokens) were sent to the model; your whole question is kept.'],
  ['zh', '只有前 4,321 个字符（共 12,000 个，约 987 个词元）发送给了模型；完整的问题已保存。'],
])('the %s message says how much of a long question the model got', async (lang, notice) => {
  const element = document.createElement('qwen-assistant');
  element.setAttribute('lang', lang);
  element.assistant.loader = async () => (config) => {
    const runtime = new ScriptedRuntime(config);
    runtimes.push(runtime);
    return runtime;
  };
  document.body.append(element);
  element.show();
  await expect.poll(() => runtimes.length).toBe(1);
  runtimes[0]!.answers.push({ deltas: ['An answer.'], sent: { chars: 4_321, tokens: 987 } });
  const question = 'x'.repeat(12_000);
  const input = element.shadowRoot!.querySelector('textarea')!;
  input.value = question;
  input.dispatchEvent(new Event('input'));
  await element.updateComplete;
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
  const user = () => element.shadowRoot!.querySelector<HTMLElement>('[part~="user"]');
  // Shown before the answer streams.
  await expect.poll(() => user()?.querySelector('[data-sent]')?.textContent).toBe(notice);
  runtimes[0]!.step();
  await expect.poll(() => element.shadowRoot!.querySelector<HTMLElement>('[part~="assistant"]')?.dataset.state).toBe('complete');
  expect(user()!.querySelector('.text')!.textContent).toBe(question);
});
