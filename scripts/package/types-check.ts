/**
 * Compile-time checks (run by `npm run typecheck`, nothing at run time) that the package's hand-written types
 * (types/*.d.ts, which keep consumers free of Lit and of this repository's sources) say what the code does.
 */
import type { QwenAssistant as DeclaredElement } from './types/qwen-assistant.d.ts';
import type * as DeclaredVitePress from './types/vitepress.d.ts';
import type { QwenAssistant as BuiltElement } from '../../src/widget/qwen-assistant.ts';
import type * as BuiltVitePress from './vitepress.ts';
import type { ATTRIBUTES } from '../../src/widget/attributes.ts';

type Assert<T extends true> = T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The element has every member the declaration promises, with those types (the listener overloads are HTMLElement's). */
export type ElementMatches = Assert<BuiltElement extends Omit<DeclaredElement, 'addEventListener' | 'removeEventListener'> ? true : false>;
/** The plugin's function and options are exactly as declared. */
export type PluginMatches = Assert<Same<typeof BuiltVitePress.withQwenAssistant, typeof DeclaredVitePress.withQwenAssistant>>;
export type OptionsMatch = Assert<Same<BuiltVitePress.QwenAssistantVitePressOptions, DeclaredVitePress.QwenAssistantVitePressOptions>>;
/** The plugin's options name every attribute of the element but `docs-index` (the plugin's own), and no other. */
export type AttributesMatch = Assert<Same<Exclude<keyof typeof ATTRIBUTES, 'docsIndex'>, keyof DeclaredVitePress.QwenAssistantAttributes>>;
