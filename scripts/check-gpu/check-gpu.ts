/**
 * check:gpu — what a machine's Chromium does with WebGPU and with both engines, in one command:
 *
 *   npm run check:gpu                                   # the generated test model on wllama; web-llm without weights
 *   npm run check:gpu -- --self-hosted                  # the weights `npm run fetch-model` put in public/models/
 *   npm run check:gpu -- --gguf <url-or-path> --mlc <base-url> [--mlc-libs <lib-base-url>]
 *   options: --turns 3 --max-tokens 64 --context 2048 --timeout 600 --step-timeout 240 --flags auto|gpu|plain
 *            --chromium-arg <flag> (repeatable) --json (print the JSON instead of the report) --out <file>
 *
 * Headless Chromium (Debian's, or CHROMIUM_PATH) opens scripts/check-gpu/page.html from a Vite dev server of this
 * repo. The page reports the WebGPU adapter and its limits against web-llm's, then loads each engine through the
 * real engine worker and times a short conversation. The report says what breaks; the JSON is also written to
 * .cache/check-gpu/report.json. Exit code 0 when the checks ran, whatever they found (no WebGPU included);
 * 1 when the script itself failed or the whole run hit --timeout.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, platform, release, totalmem } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { createServer, type Plugin, type ViteDevServer } from 'vite';
import { serveFileRange } from '../serve-file.ts';
import type { SelfHostedManifest } from '../../src/engine/model-sources.ts';
import { freePort } from '../bench/browser-runner.ts';
import { formatReport, summarizeChromeGpu, type CheckGpuReport, type ChromeGpuSummary, type FlagAttempt } from './report.ts';
import type { PageState } from './types.ts';

const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const TEST_MODEL = '/models/test/qwen2-tiny-loop.gguf';
const NO_WEIGHTS_MLC = '/models/check-gpu-no-weights';
const LOCAL_GGUF_ROUTE = '/__check-gpu/gguf/';

/** Flags every launch gets (as the browser tests' launch in vitest.config.ts). */
const COMMON_FLAGS = ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync'];
/**
 * WebGPU on a Linux GPU through Vulkan, headless: the flags of Chrome's guide to testing web AI on NVIDIA GPUs
 * (developer.chrome.com/blog/supercharge-web-ai-testing; github.com/jasonmayes/headless-chrome-nvidia-t4-gpu-support),
 * plus --ignore-gpu-blocklist so a blocklisted driver is still tried.
 */
const GPU_FLAGS = ['--enable-unsafe-webgpu', '--ignore-gpu-blocklist', '--use-gl=angle', '--use-angle=vulkan', '--enable-features=Vulkan', '--disable-vulkan-surface'];
/** What the browser tests use: WebGPU exposed, on whatever Chromium finds (SwiftShader on a machine without a GPU). */
const PLAIN_FLAGS = ['--enable-unsafe-webgpu'];

interface Args {
  gguf: string;
  mlc: string;
  mlcLibs: string;
  mlcWithoutWeights: boolean;
  turns: number;
  maxTokens: number;
  context: number;
  timeoutS: number;
  stepTimeoutS: number;
  flags: 'auto' | 'gpu' | 'plain';
  chromiumArgs: string[];
  json: boolean;
  out: string;
}

class UsageError extends Error {}

function parseArgs(argv: string[]): Args {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(`--${name}`);
    if (i < 0) return undefined;
    const v = argv[i + 1];
    if (v === undefined || v.startsWith('--')) throw new UsageError(`--${name} needs a value.`);
    return v;
  };
  const number = (name: string, fallback: number): number => {
    const raw = value(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!(n > 0)) throw new UsageError(`--${name} takes a positive number, not ${raw}.`);
    return n;
  };
  const known = new Set(['gguf', 'mlc', 'mlc-libs', 'self-hosted', 'turns', 'max-tokens', 'context', 'timeout', 'step-timeout', 'flags', 'chromium-arg', 'json', 'out', 'help']);
  argv.forEach((arg, i) => {
    if (arg.startsWith('--') && argv[i - 1] !== '--chromium-arg' && !known.has(arg.slice(2))) throw new UsageError(`Unknown option ${arg}.`);
  });

  let gguf = value('gguf');
  let mlc = value('mlc');
  let mlcLibs = value('mlc-libs');
  if (argv.includes('--self-hosted')) {
    const file = resolve('public/models/manifest.json');
    if (!existsSync(file)) throw new UsageError('--self-hosted: public/models/manifest.json is missing. Run npm run fetch-model first.');
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as SelfHostedManifest;
    gguf ??= manifest.ggufUrl;
    mlc ??= manifest.mlcBase;
    mlcLibs ??= manifest.mlcLibBase;
    if (manifest.ggufUrl === undefined && manifest.mlcBase === undefined) throw new UsageError(`--self-hosted: ${file} names no model.`);
  }
  const flags = value('flags') ?? 'auto';
  if (flags !== 'auto' && flags !== 'gpu' && flags !== 'plain') throw new UsageError(`--flags takes auto, gpu or plain, not ${flags}.`);
  const timeoutS = number('timeout', 600);
  const chromiumArgs: string[] = [];
  argv.forEach((arg, i) => {
    if (arg === '--chromium-arg' && argv[i + 1] !== undefined) chromiumArgs.push(argv[i + 1]!);
  });
  const mlcBase = (mlc ?? NO_WEIGHTS_MLC).replace(/\/$/, '');
  return {
    gguf: gguf ?? TEST_MODEL,
    mlc: mlcBase,
    mlcLibs: (mlcLibs ?? `${mlcBase}/libs`).replace(/\/$/, ''),
    mlcWithoutWeights: mlc === undefined,
    turns: Math.round(number('turns', 3)),
    maxTokens: Math.round(number('max-tokens', 64)),
    context: Math.round(number('context', 2048)),
    timeoutS,
    stepTimeoutS: Math.min(number('step-timeout', 240), timeoutS),
    flags,
    chromiumArgs,
    json: argv.includes('--json'),
    out: value('out') ?? '.cache/check-gpu/report.json',
  };
}

/**
 * Where the page finds the GGUF: a URL as given, a file on disk served by this script (with Range support, as a
 * static host would), or a path on the dev server (public/ is served at /).
 */
function resolveGguf(gguf: string): { url: string; file?: string } {
  if (/^https?:\/\//.test(gguf)) return { url: gguf };
  if (existsSync(gguf) && statSync(gguf).isFile()) return { url: `${LOCAL_GGUF_ROUTE}${encodeURIComponent(basename(gguf))}`, file: resolve(gguf) };
  if (gguf.startsWith('/') && existsSync(resolve('public', `.${gguf}`))) return { url: gguf };
  if (gguf === TEST_MODEL) throw new UsageError(`public${TEST_MODEL} is missing: run npm run test-model first (npm run check:gpu does).`);
  if (gguf.startsWith('/')) return { url: gguf }; // maybe served by something else on the dev server; the page will say
  throw new UsageError(`--gguf ${gguf}: no such file, and not a URL.`);
}

/** Serves a GGUF from anywhere on disk at LOCAL_GGUF_ROUTE, so `--gguf ~/models/x.gguf` needs no copying. */
function localGgufPlugin(file: string | undefined): Plugin {
  return {
    name: 'check-gpu-local-gguf',
    configureServer(server) {
      if (file === undefined) return;
      server.middlewares.use((req, res, next) => {
        if (req.url === undefined || !req.url.startsWith(LOCAL_GGUF_ROUTE)) return next();
        serveFileRange(file, req.headers.range, res, req.method === 'HEAD', { 'Cross-Origin-Resource-Policy': 'same-origin' });
      });
    },
  };
}

async function readChromeGpu(browser: Browser): Promise<ChromeGpuSummary | null> {
  const page = await browser.newPage();
  try {
    await page.goto('chrome://gpu', { timeout: 15_000 });
    const content = "document.querySelector('info-view')?.shadowRoot?.querySelector('#content')?.innerText ?? ''";
    await page.waitForFunction(`(${content}).includes('Graphics Feature Status')`, undefined, { timeout: 15_000 });
    return summarizeChromeGpu(await page.evaluate<string>(content));
  } catch {
    return null;
  } finally {
    await page.close().catch(() => {});
  }
}

async function readState(page: Page): Promise<PageState | undefined> {
  return page.evaluate(() => {
    const state = (window as unknown as { __checkGpu?: PageState }).__checkGpu;
    return state === undefined ? undefined : (JSON.parse(JSON.stringify(state)) as PageState);
  });
}

/** Opens the page and polls it until it is done or the deadline passes; progress goes to stderr. */
async function runPage(
  browser: Browser,
  url: string,
  deadline: number,
  consoleErrors: string[],
  showProgress = true,
): Promise<{ state: PageState | undefined; timedOut: boolean }> {
  const page = await browser.newPage();
  page.on('console', (msg) => {
    if ((msg.type() === 'error' || msg.type() === 'warning') && consoleErrors.length < 20) consoleErrors.push(`${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (error) => {
    if (consoleErrors.length < 20) consoleErrors.push(`page error: ${error.message}`);
  });
  const opened = Date.now();
  await page.goto(url, { timeout: Math.max(1_000, deadline - Date.now()) });
  let state: PageState | undefined;
  let lastStage = '';
  for (;;) {
    state = (await readState(page).catch(() => undefined)) ?? state;
    if (showProgress && state !== undefined && state.stage !== lastStage) {
      lastStage = state.stage;
      process.stderr.write(`  [${((Date.now() - started) / 1000).toFixed(1)} s] ${state.stage}\n`);
    }
    if (state?.done === true) break;
    if (state === undefined && Date.now() - opened > 60_000) throw new Error(`the check page did not start within 60 s${consoleErrors.length > 0 ? `: ${consoleErrors.join('; ')}` : ''}`);
    if (Date.now() > deadline) return { state, timedOut: true };
    await new Promise((r) => setTimeout(r, 250));
  }
  await page.close().catch(() => {});
  return { state, timedOut: false };
}

const started = Date.now();

async function main(): Promise<number> {
  if (process.argv.includes('--help')) {
    console.log(readFileSync(new URL(import.meta.url), 'utf8').split('*/')[0]!.replace(/^\/\*\*?|^ \* ?/gm, ''));
    return 0;
  }
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(CHROMIUM_PATH)) throw new UsageError(`No Chromium at ${CHROMIUM_PATH}: install it or set CHROMIUM_PATH.`);
  const gguf = resolveGguf(args.gguf);
  const deadline = started + args.timeoutS * 1000;
  // Last resort: whatever hangs (a browser that will not close), the process ends.
  setTimeout(() => {
    console.error(`check:gpu: still running ${args.timeoutS + 60} s after the start; giving up.`);
    process.exit(1);
  }, (args.timeoutS + 60) * 1000).unref();

  const port = await freePort();
  const server: ViteDevServer = await createServer({
    configFile: 'vite.config.ts',
    logLevel: 'error',
    plugins: [localGgufPlugin(gguf.file)],
    // No file watching: an edit elsewhere in the repo must not reload the page mid-run.
    server: { port, strictPort: true, host: '127.0.0.1', hmr: false, watch: null },
  });
  await server.listen();
  const origin = `http://127.0.0.1:${port}`;
  const query = (steps: 'adapter' | 'all'): string =>
    new URLSearchParams({
      steps,
      gguf: gguf.url,
      mlc: args.mlc,
      mlcLibs: args.mlcLibs,
      turns: String(args.turns),
      maxTokens: String(args.maxTokens),
      context: String(args.context),
      stepTimeoutMs: String(args.stepTimeoutS * 1000),
    }).toString();

  const presets: Array<{ preset: string; flags: string[] }> =
    args.flags === 'auto'
      ? [
          { preset: 'gpu', flags: GPU_FLAGS },
          { preset: 'plain', flags: PLAIN_FLAGS },
        ]
      : [{ preset: args.flags, flags: args.flags === 'gpu' ? GPU_FLAGS : PLAIN_FLAGS }];
  const attempts: FlagAttempt[] = [];
  const consoleErrors: string[] = [];
  let browser: Browser | undefined;
  let flags: string[] = [];
  try {
    // The first flag set that yields a hardware adapter runs the whole check; the last one runs it regardless.
    for (const [i, preset] of presets.entries()) {
      flags = [...COMMON_FLAGS, ...preset.flags, ...args.chromiumArgs];
      process.stderr.write(`check:gpu: Chromium with the ${preset.preset} flags\n`);
      browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: flags });
      const probe = await runPage(browser, `${origin}/scripts/check-gpu/page.html?${query('adapter')}`, deadline, [], false);
      const adapter = probe.state?.report.adapter;
      process.stderr.write(`  adapter: ${adapter?.adapter == null ? 'none' : adapter.describe}\n`);
      const kind = adapter?.adapter == null ? 'none' : adapter.adapter.isFallbackAdapter ? 'software' : 'hardware';
      const chromeGpu = await readChromeGpu(browser);
      attempts.push({ preset: preset.preset, flags: preset.flags, adapter: kind, describe: adapter?.describe ?? 'not checked', chromeGpu });
      if (kind === 'hardware' || i === presets.length - 1 || probe.timedOut) break;
      await browser.close();
      browser = undefined;
    }
    const run = await runPage(browser!, `${origin}/scripts/check-gpu/page.html?${query('all')}`, deadline, consoleErrors);
    const report: CheckGpuReport = {
      version: 1,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      machine: { platform: platform(), release: release(), cpu: cpus()[0]?.model.trim() ?? 'unknown', cpus: cpus().length, memoryGiB: Math.round(totalmem() / 2 ** 30) },
      chromium: { path: CHROMIUM_PATH, version: `Chromium ${browser!.version()}`, flags, attempts },
      options: {
        gguf: gguf.file ?? gguf.url,
        mlcBase: args.mlc,
        mlcLibBase: args.mlcLibs,
        mlcWithoutWeights: args.mlcWithoutWeights,
        turns: args.turns,
        maxTokens: args.maxTokens,
        contextWindow: args.context,
        timeoutS: args.timeoutS,
        stepTimeoutS: args.stepTimeoutS,
      },
      page: run.state?.report ?? { userAgent: '', hardwareConcurrency: 0, crossOriginIsolated: false },
      consoleErrors,
      timedOut: run.timedOut,
      stage: run.state?.stage ?? 'not started',
      ...(run.state?.error !== undefined ? { pageError: run.state.error } : {}),
    };
    mkdirSync(dirname(resolve(args.out)), { recursive: true });
    writeFileSync(args.out, `${JSON.stringify(report, null, 2)}\n`);
    if (args.json) console.log(JSON.stringify(report, null, 2));
    else console.log(`\n${formatReport(report)}\n\nJSON: ${args.out}`);
    return report.timedOut || report.pageError !== undefined ? 1 : 0;
  } finally {
    await browser?.close().catch(() => {});
    await server.close();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`check:gpu: ${error instanceof UsageError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exit(1);
  },
);
