/**
 * The UI's two languages. English and Chinese follow the browser (`navigator.languages`) until the user picks
 * one, which is then remembered. Components re-render on a switch through `LocaleController`.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { en, type Messages } from './en.ts';
import { zh } from './zh.ts';

export type Lang = 'en' | 'zh';
export type MessageKey = keyof Messages;
export type MessageParams = Record<string, string | number>;

const DICTIONARIES: Readonly<Record<Lang, Messages>> = { en, zh };
export const LANG_STORAGE_KEY = 'qwen.lang';

/** The first of the browser's languages that we speak; English otherwise. */
export function browserLang(languages: readonly string[] = globalThis.navigator?.languages ?? []): Lang {
  for (const tag of languages) {
    const lower = tag.toLowerCase();
    if (lower.startsWith('zh')) return 'zh';
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function savedLang(): Lang | null {
  try {
    const value = globalThis.localStorage?.getItem(LANG_STORAGE_KEY);
    return value === 'en' || value === 'zh' ? value : null;
  } catch {
    return null;
  }
}

class LocaleStore {
  private _lang: Lang = savedLang() ?? browserLang();
  private readonly _listeners = new Set<() => void>();

  get lang(): Lang {
    return this._lang;
  }

  /** Switches the language; `remember` keeps the choice for the next visits. */
  set(lang: Lang, remember = true): void {
    if (remember) {
      try {
        globalThis.localStorage?.setItem(LANG_STORAGE_KEY, lang);
      } catch {
        // Private mode: the switch still applies to this page.
      }
    }
    if (lang === this._lang) return;
    this._lang = lang;
    if (globalThis.document) document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    for (const listener of this._listeners) listener();
  }

  /** Back to the browser's language (after "delete all my data"). */
  reset(): void {
    this.set(browserLang(), false);
  }

  subscribe(listener: () => void): () => void {
    this._listeners.add(listener);
    return () => this._listeners.delete(listener);
  }
}

export const locale = new LocaleStore();
if (globalThis.document) document.documentElement.lang = locale.lang === 'zh' ? 'zh-CN' : 'en';

/** The text for `key` in the current language, with `{name}` placeholders filled from `params`. */
export function t(key: MessageKey, params?: MessageParams): string {
  const template = DICTIONARIES[locale.lang][key];
  if (params === undefined) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}

/** Numbers grouped the local way (1,024 / 1,024). */
export function formatNumber(value: number, digits = 0): string {
  return new Intl.NumberFormat(locale.lang === 'zh' ? 'zh-CN' : 'en', { maximumFractionDigits: digits, minimumFractionDigits: digits }).format(value);
}

export function formatDateTime(ms: number): string {
  return new Intl.DateTimeFormat(locale.lang === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/** "3 minutes ago", "in 23 hours" (「3分钟前」「23小时后」): a time relative to now, in the largest whole unit. */
export function formatRelative(deltaMs: number): string {
  const format = new Intl.RelativeTimeFormat(locale.lang === 'zh' ? 'zh-CN' : 'en', { numeric: 'auto' });
  const seconds = deltaMs / 1000;
  const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [['day', 86_400], ['hour', 3_600], ['minute', 60]];
  for (const [unit, size] of units) if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  return format.format(Math.trunc(seconds), 'second');
}

/** Re-renders its host when the language changes. */
export class LocaleController implements ReactiveController {
  private _unsubscribe: (() => void) | null = null;

  constructor(private readonly _host: ReactiveControllerHost) {
    _host.addController(this);
  }

  hostConnected(): void {
    this._unsubscribe = locale.subscribe(() => this._host.requestUpdate());
  }

  hostDisconnected(): void {
    this._unsubscribe?.();
    this._unsubscribe = null;
  }
}
