/**
 * `npm run bench:start`: how fast a returning user gets an answer, measured in real Chromium on production builds
 * (not asserted: this machine is shared and noisy). A persistent browser profile (HTTP cache, code cache, OPFS,
 * IndexedDB kept between visits, as for a real returning user); every figure the p50 of `--runs` reloads (5).
 *
 * - `readyTinyMs`: reload → engine ready, the generated 16 MB model (the app, `vite preview`, COOP/COEP);
 * - `firstReplyOverheadMs`: in those visits, the first reply (sent the moment the engine is ready) minus the reply
 *   after it, with an almost empty memory; `firstAnswerTinyMs`: reload → that first reply complete;
 * - `ready05bMs`: reload → ready with the 531 MB Qwen2.5-0.5B-shaped Q8_0 (`npm run test-model:realistic`);
 * - `readFloorMs`: in those visits, reading that file from OPFS into memory (one `File.arrayBuffer()`): the floor;
 * - `widgetReadyMs`: the demo docs site, a reader who consented before: panel open → assistant ready;
 * - each start step's p50 (the app's start timeline), for both models.
 *
 *   npm run bench:start -- [--runs 5] [--json] [--app-dir DIR] [--site-dir DIR] [--skip-05b] [--skip-widget]
 *
 * `--app-dir` / `--site-dir` measure builds made elsewhere (another commit's `vite build`, its public files and
 * test models copied in, and its `npm run build:site -- --test-model` output): side by side with this code.
 * The last line printed is one JSON object.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright';
import { preview, type PreviewServer } from 'vite';
import { isolationHeaders } from '../isolation-headers.ts';
import { buildApp, buildSite, buildWidget } from '../site/build.ts';
import { CHROMIUM_FLAGS } from './browser-runner.ts';
import { measureAppStart, type AppVisit, type StepTimes } from './start-app.ts';
import { measureWidgetStart, type WidgetVisit } from './start-widget.ts';

const TINY = 'models/test/qwen2-tiny.gguf';
const REALISTIC = 'models/test/qwen2.5-0.5b-shaped-q8_0.gguf';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '5' },
    json: { type: 'boolean', default: false },
    'app-dir': { type: 'string' },
    'site-dir': { type: 'string' },
    'skip-05b': { type: 'boolean', default: false },
    'skip-widget': { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const log = (line: string): void => console.log(line);
const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return Math.round(sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2);
};

async function serve(dir: string, headers: Record<string, string>): Promise<{ server: PreviewServer; origin: string }> {
  const server = await preview({ configFile: false, root: process.cwd(), appType: 'mpa', logLevel: 'error', build: { outDir: dir }, preview: { port: 0, host: '127.0.0.1', headers } });
  return { server, origin: `http://127.0.0.1:${(server.httpServer.address() as AddressInfo).port}` };
}

/** Each step's p50 start and duration over the visits that timed it. */
function stepMedians(visits: ReadonlyArray<{ steps: StepTimes[] | null }>): Array<{ name: string; atMs: number; ms: number; readMB?: number; readMs?: number }> {
  const byName = new Map<string, StepTimes[]>();
  for (const v of visits) for (const s of v.steps ?? []) byName.set(s.name, [...(byName.get(s.name) ?? []), s]);
  return [...byName.entries()]
    .map(([name, list]) => ({
      name,
      atMs: median(list.map((s) => s.startMs)),
      ms: median(list.map((s) => s.endMs - s.startMs)),
      ...(list[0]!.readBytes ? { readMB: Math.round(median(list.map((s) => s.readBytes ?? 0)) / 1e5) / 10, readMs: median(list.map((s) => s.readMs ?? 0)) } : {}),
    }))
    .sort((a, b) => a.atMs - b.atMs);
}

function printSteps(label: string, visits: ReadonlyArray<{ steps: StepTimes[] | null }>): void {
  const steps = stepMedians(visits);
  if (steps.length === 0) return log(`  ${label}: this build has no start timeline`);
  log(`  ${label} steps (p50, ms since the page opened):`);
  for (const s of steps) log(`    ${s.name.padEnd(15)} at ${String(s.atMs).padStart(6)}  took ${String(s.ms).padStart(6)}${s.readMB !== undefined ? `  (read ${s.readMB} MB in ${s.readMs} ms)` : ''}`);
}

const scratch = mkdtempSync(join(tmpdir(), 'bench-start-'));
const servers: PreviewServer[] = [];
const context = await chromium.launchPersistentContext(join(scratch, 'profile'), {
  executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
  args: CHROMIUM_FLAGS.filter((flag) => flag !== '--headless'),
  headless: true,
  viewport: { width: 1280, height: 800 },
});
try {
  const appDir = values['app-dir'] ?? join('.cache', 'bench-start', 'app');
  if (values['app-dir'] === undefined) await buildApp(appDir, ['sw.js', 'tokenizer', TINY, ...(values['skip-05b'] ? [] : [REALISTIC])]);
  const app = await serve(appDir, isolationHeaders);
  servers.push(app.server);
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (error) => log(`  page error: ${error.message}`));

  log(`app: ${appDir}, generated model (${TINY})`);
  const tiny = await measureAppStart(page, { origin: app.origin, model: `/${TINY}`, runs, replies: true, floor: false, log });
  printSteps('generated model', tiny);
  const overheads = tiny.map((v) => v.firstReplyMs! - v.laterReplyMs!);

  let big: AppVisit[] = [];
  if (!values['skip-05b']) {
    if (!existsSync(join(appDir, REALISTIC))) throw new Error(`${join(appDir, REALISTIC)} is missing: run \`npm run test-model:realistic\` (or pass --skip-05b)`);
    log(`app: 0.5B-shaped Q8_0 (${REALISTIC})`);
    big = await measureAppStart(page, { origin: app.origin, model: `/${REALISTIC}`, runs, replies: false, floor: true, log });
    printSteps('0.5B-shaped model', big);
  }

  let widget: WidgetVisit[] = [];
  if (!values['skip-widget']) {
    let siteDir = values['site-dir'];
    if (siteDir === undefined) {
      siteDir = join(scratch, 'site');
      const widgetDir = join('.cache', 'bench-start', 'widget');
      await buildWidget(widgetDir);
      await buildSite({ outDir: siteDir, widgetDir, testModel: true, log: () => {} });
    }
    const site = await serve(siteDir, {});
    servers.push(site.server);
    log(`widget: the demo docs site (${siteDir}), a reader who consented before`);
    const sitePage = await context.newPage();
    widget = await measureWidgetStart(context, sitePage, { origin: site.origin, runs, log });
    printSteps('widget', widget);
  }

  const result = {
    readyTinyMs: median(tiny.map((v) => v.readyMs)),
    firstReplyOverheadMs: median(overheads),
    firstReplyMs: median(tiny.map((v) => v.firstReplyMs!)),
    // What the user waits for: reload → the first answer, asked the moment the engine was ready.
    firstAnswerTinyMs: median(tiny.map((v) => v.readyMs + v.firstReplyMs!)),
    laterReplyMs: median(tiny.map((v) => v.laterReplyMs!)),
    ...(big.length > 0 ? { ready05bMs: median(big.map((v) => v.readyMs)), readFloorMs: median(big.map((v) => v.readFloorMs!)) } : {}),
    ...(widget.length > 0 ? { widgetReadyMs: median(widget.map((v) => v.readyMs)) } : {}),
    runs,
    stepsTiny: stepMedians(tiny),
    ...(big.length > 0 ? { steps05b: stepMedians(big) } : {}),
    ...(widget.length > 0 ? { stepsWidget: stepMedians(widget) } : {}),
  };
  log(
    `reload → ready: generated model ${result.readyTinyMs} ms (target ≤ 800)` +
      (result.ready05bMs !== undefined ? `, 0.5B ${result.ready05bMs} ms (target ≤ 3,000; reading the file alone ${result.readFloorMs} ms)` : ''),
  );
  log(`first reply of a visit − a later one: ${result.firstReplyOverheadMs} ms (first ${result.firstReplyMs}, later ${result.laterReplyMs}; target ≤ 300)`);
  log(`reload → first answer (asked at ready), generated model: ${result.firstAnswerTinyMs} ms`);
  if (result.widgetReadyMs !== undefined) log(`widget open → ready: ${result.widgetReadyMs} ms (target ≤ 1,500)`);
  if (values.json) console.log(JSON.stringify(result));
  else console.log(JSON.stringify({ readyTinyMs: result.readyTinyMs, ready05bMs: result.ready05bMs, firstReplyOverheadMs: result.firstReplyOverheadMs, widgetReadyMs: result.widgetReadyMs, readFloorMs: result.readFloorMs }));
} finally {
  await context.close();
  for (const server of servers) await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  rmSync(scratch, { recursive: true, force: true });
}
