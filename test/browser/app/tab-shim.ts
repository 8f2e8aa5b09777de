/**
 * Vitest's browser mode rewrites every `import()` to `__vitest_browser_runner__.wrapDynamicImport(...)`, a global
 * only its test frame defines. A page of our own (app-tab.html) gets the pass-through Vitest gives workers.
 * Imported first, so it exists before any app module runs.
 */
const g = globalThis as { __vitest_browser_runner__?: { wrapDynamicImport(load: () => Promise<unknown>): Promise<unknown> } };
g.__vitest_browser_runner__ ??= { wrapDynamicImport: (load) => load() };
