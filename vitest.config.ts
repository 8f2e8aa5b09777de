import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { isolationHeaders } from './scripts/isolation-headers.ts';
import { readRequestLog, startRequestLog } from './test/browser/commands/request-log.ts';
import { heldDownloads, holdDownloads, holdDownloadsPlugin, releaseDownloads } from './test/browser/commands/hold-downloads.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Unit files that mock a module (`vi.mock`), so they need a module graph of their own. */
const UNIT_ISOLATED = ['test/unit/docs-index/write-index.test.ts'];

/**
 * Node files run one at a time, side by side with the browser files. Vitest runs the Node files and the browser
 * files of one group concurrently, and groups one after another; a group's projects must agree on `maxWorkers`.
 * Left at the defaults, the browser project (one file at a time) went into a group of its own that waited for every
 * Node file, with one core idle for most of the unit files.
 */
const BESIDE_THE_BROWSER = { maxWorkers: 1, sequence: { groupOrder: 1 } } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          exclude: UNIT_ISOLATED,
          environment: 'node',
          // All unit files in one module graph: importing the tokenizer and the memory code again for each of ~90
          // files cost about 120 CPU-seconds (42-45 shared), on a machine whose two cores the browser tests also
          // need. A file that mocks a module belongs in UNIT_ISOLATED.
          isolate: false,
          ...BESIDE_THE_BROWSER,
          // A hang detector, not a speed check (speed is for benchmarks): the property and pipeline tests take 1-2 s
          // alone and ten times that on a loaded 2-core machine, past Vitest's default 5 s; so does writing the test
          // model in a beforeAll, past the default 10 s for hooks.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'unit-isolated',
          include: UNIT_ISOLATED,
          environment: 'node',
          ...BESIDE_THE_BROWSER,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          ...BESIDE_THE_BROWSER,
          // The production app and widget, built once for all e2e files.
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        appType: 'mpa',
        server: { headers: isolationHeaders },
        // Requests a test holds in flight wait in the dev server (test/browser/commands/hold-downloads.ts).
        plugins: [holdDownloadsPlugin()],
        optimizeDeps: {
          exclude: ['@wllama/wllama', '@mlc-ai/web-llm', 'voy-search'],
          // Pre-bundled up front: discovering them mid-run makes Vite reload the page under a running test.
          include: [
            'dompurify',
            'fast-check',
            'marked',
            'highlight.js/lib/core',
            'highlight.js/lib/languages/bash',
            'highlight.js/lib/languages/css',
            'highlight.js/lib/languages/javascript',
            'highlight.js/lib/languages/json',
            'highlight.js/lib/languages/python',
            'highlight.js/lib/languages/sql',
            'highlight.js/lib/languages/typescript',
            'highlight.js/lib/languages/xml',
            'lit/directives/unsafe-html.js',
          ],
        },
        worker: { format: 'es' },
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          globalSetup: ['test/browser/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Loading a model takes a second or two here; UI assertions wait for it rather than for a fixed sleep.
          expect: { poll: { timeout: 15_000, interval: 50 } },
          // One file at a time: the tests share one page and one dev server.
          fileParallelism: false,
          sequence: { groupOrder: 1 },
          browser: {
            enabled: true,
            // All browser files in one page: the app's modules, Lit and the tokenizer load once rather than once per
            // file (about 40 CPU-seconds of the suite). The tests mount their elements in place of the body's
            // children and use fresh database names, so no file depends on a fresh page.
            isolate: false,
            headless: true,
            screenshotFailures: false,
            provider: playwright({
              launchOptions: {
                executablePath: chromiumPath,
                args: [
                  '--no-sandbox',
                  '--disable-background-networking',
                  '--disable-component-update',
                  '--no-first-run',
                  '--disable-sync',
                  // WebGPU on SwiftShader, so the web-llm path (and its fallback) runs in CI.
                  '--enable-unsafe-webgpu',
                ],
              },
            }),
            instances: [{ browser: 'chromium' }],
            // Every request of the page and its workers, recorded by the browser (test/browser/security/).
            commands: { startRequestLog, readRequestLog, holdDownloads, heldDownloads, releaseDownloads },
          },
        },
      },
    ],
  },
});
