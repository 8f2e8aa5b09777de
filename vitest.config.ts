import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { isolationHeaders } from './scripts/isolation-headers.ts';
import { readRequestLog, startRequestLog } from './test/browser/commands/request-log.ts';

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          environment: 'node',
          // One Node worker, so this project joins the browser project's group (which runs one file at a time) and
          // the two run side by side; see the browser project's note.
          maxWorkers: 1,
          // A hang detector, not a speed check (speed is for benchmarks): the property and pipeline tests take 1-2 s
          // alone and ten times that on a loaded 2-core machine, past Vitest's default 5 s; so does writing the test
          // model in a beforeAll, past the default 10 s for hooks.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          environment: 'node',
          // Side by side with the browser project, one file at a time (see the unit project's note).
          maxWorkers: 1,
          // The production app and widget, built once for all e2e files.
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        appType: 'mpa',
        server: { headers: isolationHeaders },
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
          // One file at a time: the tests share one page and one dev server. Vitest puts projects limited to one
          // worker into one group whose Node files and browser files run concurrently; a project left at the default
          // goes into an earlier group, and the browser files would wait for every Node file to finish.
          fileParallelism: false,
          browser: {
            enabled: true,
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
            commands: { startRequestLog, readRequestLog },
          },
        },
      },
    ],
  },
});
