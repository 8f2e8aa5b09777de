/**
 * The widget's attributes, parsed and validated. Pure (no DOM besides the URL parser): a bad value yields the
 * default plus a message naming the attribute, which the element logs; the widget always renders.
 */
import type { WidgetBackend, WidgetLang } from './runtime/types.ts';

export type WidgetPosition = 'bottom-right' | 'bottom-left';
export type LangSetting = WidgetLang | 'auto';
/**
 * What the panel offers: `search` (search the docs only, never the model), `assistant` (the model, after the reader's
 * consent, asked on first open), `auto` (search until the reader asks a question, then offer the model).
 */
export type WidgetMode = 'auto' | 'search' | 'assistant';

export const WINDOW_MIN = 512;
export const WINDOW_MAX = 32_768;

export interface WidgetSettings {
  /** As written ('' = the default model); relative URLs are resolved by the runtime against the widget's base. */
  model: string;
  /** The self-hosted MLC model folder for WebGPU, as written by `npm run fetch-model` (its `public/models/mlc/`),
   * resolved by the runtime against the widget's base; '' = none (the widget then runs on the CPU only). */
  mlcModel: string;
  /**
   * Which engine: `auto` (WebGPU on a real GPU when `mlc-model` is set, else the CPU), `webgpu` (try WebGPU even on
   * a software adapter, still falling back to the CPU when it fails), `wasm` (the CPU only).
   */
  backend: WidgetBackend;
  /** As written ('' = no docs index). */
  docsIndex: string;
  lang: LangSetting;
  position: WidgetPosition;
  window: number;
  /** The single key that opens the widget outside editable fields ('' = none). Ctrl/Cmd+K always works. */
  shortcut: string;
  mode: WidgetMode;
  /** Only sections whose link's path starts with this are searched and cited ('' = the whole site). */
  scope: string;
  /** Questions an empty panel suggests, written `a | b | c` (none: the docs' pages are suggested). */
  suggestions: readonly string[];
}

export const DEFAULT_SETTINGS: Readonly<WidgetSettings> = {
  model: '',
  mlcModel: '',
  backend: 'auto',
  docsIndex: '',
  lang: 'auto',
  position: 'bottom-right',
  window: 1024,
  shortcut: '/',
  mode: 'auto',
  scope: '',
  suggestions: [],
};

/** Attribute names, as written in HTML, for each setting. */
export const ATTRIBUTES = {
  model: 'model',
  mlcModel: 'mlc-model',
  backend: 'backend',
  docsIndex: 'docs-index',
  lang: 'lang',
  position: 'position',
  window: 'window',
  shortcut: 'shortcut',
  mode: 'mode',
  scope: 'scope',
  suggestions: 'suggestions',
} as const satisfies Record<keyof WidgetSettings, string>;

export type RawAttributes = { readonly [K in keyof WidgetSettings]: string | null };

export interface AttributeProblem {
  attribute: string;
  message: string;
}

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

const quote = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

function url(value: string): Parsed<string> {
  const trimmed = value.trim();
  if (trimmed === '') return { ok: true, value: '' };
  try {
    const parsed = new URL(trimmed, 'https://base.invalid/');
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return { ok: false, reason: `${quote(value)} is not an http(s) URL` };
  } catch {
    return { ok: false, reason: `${quote(value)} is not a URL` };
  }
  return { ok: true, value: trimmed };
}

/** A folder URL: no query or fragment (file names are appended to it), and not a file such as a `.gguf`. */
function folder(value: string): Parsed<string> {
  const parsed = url(value);
  if (!parsed.ok || parsed.value === '') return parsed;
  const { pathname, search, hash } = new URL(parsed.value, 'https://base.invalid/');
  if (search !== '' || hash !== '') return { ok: false, reason: `${quote(value)} is a folder URL and cannot have a query or fragment` };
  if (/\.(gguf|wasm|json)$/i.test(pathname)) return { ok: false, reason: `${quote(value)} is a file; give the MLC model folder written by npm run fetch-model (public/models/mlc/)` };
  return parsed;
}

function oneOf<T extends string>(allowed: readonly T[]) {
  return (value: string): Parsed<T> => {
    const lower = value.trim().toLowerCase();
    return (allowed as readonly string[]).includes(lower)
      ? { ok: true, value: lower as T }
      : { ok: false, reason: `${quote(value)} is not one of ${allowed.join(', ')}` };
  };
}

function windowSize(value: string): Parsed<number> {
  const trimmed = value.trim();
  const n = /^\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  return Number.isSafeInteger(n) && n >= WINDOW_MIN && n <= WINDOW_MAX
    ? { ok: true, value: n }
    : { ok: false, reason: `${quote(value)} is not an integer from ${WINDOW_MIN} to ${WINDOW_MAX}` };
}

function shortcut(value: string): Parsed<string> {
  if (value === '' || value.toLowerCase() === 'none') return { ok: true, value: '' };
  // One printable character (a code point), not a space: a key a reader presses outside a text field.
  return [...value].length === 1 && value.trim() !== '' ? { ok: true, value } : { ok: false, reason: `${quote(value)} is not a single key or "none"` };
}

/** A path prefix (`/guide/`): the path of a same-site URL, no query or fragment. */
function pathPrefix(value: string): Parsed<string> {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed === '/') return { ok: true, value: '' };
  if (!trimmed.startsWith('/') || /[?#\s]/.test(trimmed)) return { ok: false, reason: `${quote(value)} is not a path starting with "/" (such as "/guide/")` };
  return { ok: true, value: trimmed };
}

/** Suggested questions: `|`-separated, each trimmed, at most 6 of at most 200 characters. */
export const MAX_SUGGESTIONS = 6;
function suggestionList(value: string): Parsed<readonly string[]> {
  const list = value.split('|').map((q) => q.trim()).filter((q) => q !== '');
  if (list.some((q) => q.length > 200)) return { ok: false, reason: 'has a suggestion over 200 characters' };
  return { ok: true, value: list.slice(0, MAX_SUGGESTIONS) };
}

const PARSERS: { [K in keyof WidgetSettings]: (value: string) => Parsed<WidgetSettings[K]> } = {
  model: url,
  mlcModel: folder,
  backend: oneOf<WidgetBackend>(['auto', 'webgpu', 'wasm']),
  docsIndex: url,
  lang: oneOf<LangSetting>(['zh', 'en', 'auto']),
  position: oneOf<WidgetPosition>(['bottom-right', 'bottom-left']),
  window: windowSize,
  shortcut,
  mode: oneOf<WidgetMode>(['auto', 'search', 'assistant']),
  scope: pathPrefix,
  suggestions: suggestionList,
};

/** Settings from the raw attribute values (null = absent = default), and one problem per invalid attribute. */
export function parseAttributes(raw: RawAttributes): { settings: WidgetSettings; problems: AttributeProblem[] } {
  const settings: WidgetSettings = { ...DEFAULT_SETTINGS };
  const problems: AttributeProblem[] = [];
  const apply = <K extends keyof WidgetSettings>(key: K): void => {
    const value = raw[key];
    if (value === null) return;
    const parsed = PARSERS[key](value);
    if (parsed.ok) settings[key] = parsed.value;
    else problems.push({ attribute: ATTRIBUTES[key], message: `${parsed.reason}; using ${JSON.stringify(DEFAULT_SETTINGS[key])}` });
  };
  for (const key of Object.keys(PARSERS) as Array<keyof WidgetSettings>) apply(key);
  // WebGPU needs the MLC weights: without them the widget still answers, on the CPU, and the site owner is told.
  if (settings.backend === 'webgpu' && settings.mlcModel === '') {
    settings.backend = DEFAULT_SETTINGS.backend;
    problems.push({ attribute: ATTRIBUTES.backend, message: `"webgpu" needs an mlc-model folder (written by npm run fetch-model); using ${JSON.stringify(DEFAULT_SETTINGS.backend)} (the CPU)` });
  }
  return { settings, problems };
}

/** The console line for a problem: `qwen-assistant: invalid attribute "window": …`. */
export const problemText = (problem: AttributeProblem): string => `qwen-assistant: invalid attribute "${problem.attribute}": ${problem.message}`;

/** `auto` follows the page's language (its `lang`), then the browser's; Chinese or else English. */
export function resolveLang(setting: LangSetting, documentLang: string, navigatorLanguages: readonly string[]): WidgetLang {
  if (setting !== 'auto') return setting;
  const first = [documentLang, ...navigatorLanguages].find((tag) => tag.trim() !== '') ?? '';
  return first.trim().toLowerCase().startsWith('zh') ? 'zh' : 'en';
}
