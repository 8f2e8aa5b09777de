/**
 * The user's settings: what shapes the prompt (system prompt, window, section budgets, recent turns), how the
 * model samples, and which embedder the memory searches with. Validated field by field with messages the form
 * shows next to the field, and kept in localStorage (small, read synchronously at start).
 */
import { sectionBudgets, type SectionBudgets } from '../../memory/layered/index.ts';
import type { MessageKey, MessageParams } from '../i18n/index.ts';

/**
 * `hashed`: the built-in hashed n-gram vectors with keyword scores; `keywords`: keyword scores only (BM25);
 * `engine`: the engine's embedding model (a download; its vectors are made in the background, and the hashed ones
 * serve until they are complete).
 */
export type EmbedderChoice = 'hashed' | 'keywords' | 'engine';

export interface AppSettings {
  /** '' keeps the default prompt of the conversation's language. */
  systemPrompt: string;
  /** The model's whole window in tokens: prompt and answer. */
  window: number;
  /** Section budgets; they add up to `window`. */
  budgets: Omit<SectionBudgets, 'window'>;
  /** How many recent exchanges always stay in the prompt. */
  recentExchanges: number;
  temperature: number;
  topP: number;
  embedder: EmbedderChoice;
}

export type SettingsField = 'systemPrompt' | 'window' | 'system' | 'working' | 'retrieval' | 'input' | 'reserve' | 'recentExchanges' | 'temperature' | 'topP' | 'embedder';

export interface FieldError {
  field: SettingsField;
  key: MessageKey;
  params?: MessageParams;
}

export const SETTINGS_STORAGE_KEY = 'qwen.settings.v1';
export const WINDOW_MIN = 256;
/** web-llm's prebuilt Qwen2.5-0.5B libraries are compiled for a 4,096-token window. */
export const WINDOW_MAX = 4096;
export const SYSTEM_PROMPT_MAX_CHARS = 2000;
/** The prompt needs room for the answer; below this a reply would stop after a few words. */
export const RESERVE_MIN = 32;
export const BUDGET_KEYS = ['system', 'working', 'retrieval', 'input', 'reserve'] as const;

export function budgetsFor(window: number): AppSettings['budgets'] {
  const { window: _w, ...rest } = sectionBudgets(window);
  return rest;
}

export const DEFAULT_SETTINGS: Readonly<AppSettings> = Object.freeze({
  systemPrompt: '',
  window: 1024,
  budgets: budgetsFor(1024),
  recentExchanges: 3,
  temperature: 0.7,
  topP: 0.9,
  embedder: 'hashed',
});

/** The full budgets object the memory pipeline takes. */
export function sectionBudgetsOf(settings: AppSettings): SectionBudgets {
  return { window: settings.window, ...settings.budgets };
}

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
const isNum = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);

/** Every problem with a draft, in form order; an empty list means it can be saved. */
export function validateSettings(s: AppSettings): FieldError[] {
  const errors: FieldError[] = [];
  if (typeof s.systemPrompt !== 'string' || s.systemPrompt.length > SYSTEM_PROMPT_MAX_CHARS) {
    errors.push({ field: 'systemPrompt', key: 'settings.error.systemPrompt', params: { max: SYSTEM_PROMPT_MAX_CHARS } });
  }
  const windowOk = isInt(s.window) && s.window >= WINDOW_MIN && s.window <= WINDOW_MAX;
  if (!windowOk) errors.push({ field: 'window', key: 'settings.error.window', params: { min: WINDOW_MIN, max: WINDOW_MAX } });
  let budgetsOk = true;
  for (const k of BUDGET_KEYS) {
    const value = s.budgets[k];
    if (!isInt(value) || value < 0) {
      errors.push({ field: k, key: 'settings.error.budget' });
      budgetsOk = false;
    }
  }
  if (budgetsOk && s.budgets.reserve < RESERVE_MIN) {
    errors.push({ field: 'reserve', key: 'settings.error.reserve', params: { min: RESERVE_MIN } });
  }
  if (budgetsOk && windowOk) {
    const sum = BUDGET_KEYS.reduce((total, k) => total + s.budgets[k], 0);
    if (sum !== s.window) errors.push({ field: 'retrieval', key: 'settings.error.budgetSum', params: { sum, window: s.window } });
  }
  if (!isInt(s.recentExchanges) || s.recentExchanges < 0 || s.recentExchanges > 20) {
    errors.push({ field: 'recentExchanges', key: 'settings.error.recent' });
  }
  if (!isNum(s.temperature) || s.temperature < 0 || s.temperature > 2) errors.push({ field: 'temperature', key: 'settings.error.temperature' });
  if (!isNum(s.topP) || s.topP <= 0 || s.topP > 1) errors.push({ field: 'topP', key: 'settings.error.topP' });
  if (s.embedder !== 'hashed' && s.embedder !== 'keywords' && s.embedder !== 'engine') errors.push({ field: 'embedder', key: 'settings.error.embedder' });
  return errors;
}

/** Saved settings, or the defaults; anything unreadable or invalid falls back to the defaults as a whole. */
export function loadSettings(storage: Storage | undefined = globalThis.localStorage): AppSettings {
  try {
    const raw = storage?.getItem(SETTINGS_STORAGE_KEY);
    if (raw) {
      const parsed = JSON.parse(raw) as Partial<AppSettings>;
      const merged: AppSettings = { ...DEFAULT_SETTINGS, ...parsed, budgets: { ...DEFAULT_SETTINGS.budgets, ...parsed.budgets } };
      if (validateSettings(merged).length === 0) return merged;
    }
  } catch {
    // Unreadable: defaults.
  }
  return structuredClone(DEFAULT_SETTINGS) as AppSettings;
}

export function saveSettings(settings: AppSettings, storage: Storage | undefined = globalThis.localStorage): void {
  storage?.setItem(SETTINGS_STORAGE_KEY, JSON.stringify(settings));
}
