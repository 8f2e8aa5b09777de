/** The readable form of a check:gpu run (the JSON form is the `CheckGpuReport` itself). Pure: no I/O. */
import { WEBLLM_REQUIRED_LIMITS } from '../../src/engine/select-backend.ts';
import type { AdapterSection, EngineSection, PageReport, TurnReport } from './types.ts';

/** What chrome://gpu says, cut down to what tells why WebGPU is or is not on the GPU. */
export interface ChromeGpuSummary {
  /** "Graphics Feature Status": feature → status, e.g. `WebGPU` → `Hardware accelerated`. */
  featureStatus: Record<string, string>;
  /** The GPU lines of "Driver Information" (GPU0, GPU1…), and GL_RENDERER. */
  gpus: string[];
  glRenderer: string;
  /** "Problems Detected", without the "Disabled Features:" lines. */
  problems: string[];
  /** Dawn's adapters ("<Discrete GPU> Vulkan backend - …"), where chrome://gpu lists them. */
  dawnAdapters: string[];
  /** ERROR lines of "Log Messages", without their process/time prefix, deduplicated. */
  logErrors: string[];
}

export interface FlagAttempt {
  preset: string;
  flags: string[];
  /** The WebGPU adapter the page got with these flags: a hardware one, a software (fallback) one, or none. */
  adapter: 'hardware' | 'software' | 'none';
  describe: string;
  /** chrome://gpu in that browser, read after the adapter was asked for; null where it could not be read. */
  chromeGpu: ChromeGpuSummary | null;
}

export interface CheckGpuReport {
  version: 1;
  startedAt: string;
  durationMs: number;
  machine: { platform: string; release: string; cpu: string; cpus: number; memoryGiB: number };
  /** `flags`: the launch the check ran in (the last attempt's). */
  chromium: { path: string; version: string; flags: string[]; attempts: FlagAttempt[] };
  options: {
    gguf: string;
    mlcBase: string;
    mlcLibBase: string;
    /** The MLC source is the default, a folder with no weights: web-llm is expected to stop at the download. */
    mlcWithoutWeights: boolean;
    turns: number;
    maxTokens: number;
    contextWindow: number;
    timeoutS: number;
    stepTimeoutS: number;
  };
  page: PageReport;
  /** Errors the page or its workers printed (first few), and uncaught page errors. */
  consoleErrors: string[];
  /** The whole run hit --timeout; `stage` is where it was. */
  timedOut: boolean;
  stage: string;
  pageError?: string;
}

/** Parses chrome://gpu's text (the `#content` of its `info-view`). */
export function summarizeChromeGpu(text: string): ChromeGpuSummary {
  const lines = text.split('\n').map((line) => line.trimEnd());
  const section = (title: string): string[] => {
    const start = lines.indexOf(title);
    if (start < 0) return [];
    const out: string[] = [];
    for (const line of lines.slice(start + 1)) {
      // Section titles are short lines without a tab or a colon.
      if (/^[A-Z][A-Za-z0-9() ]{2,40}$/.test(line) && !line.includes('\t') && !line.includes(':')) break;
      out.push(line);
    }
    return out;
  };
  const featureStatus: Record<string, string> = {};
  for (const line of section('Graphics Feature Status')) {
    const at = line.indexOf(': ');
    if (at > 0) featureStatus[line.slice(0, at)] = line.slice(at + 2);
  }
  const driver = section('Driver Information');
  const gpus = driver.filter((line) => /^GPU\d+\t/.test(line)).map((line) => line.replace('\t', ': '));
  const glRenderer = driver.find((line) => line.startsWith('GL_RENDERER\t'))?.split('\t')[1] ?? '';
  const problems = section('Problems Detected').filter((line) => line.trim() !== '' && !line.startsWith('Disabled Features:'));
  const dawnAdapters = [...new Set(lines.filter((line) => / backend - /.test(line)).map((line) => line.trim()))];
  const logErrors = [
    ...new Set(
      lines
        .slice(Math.max(0, lines.indexOf('Log Messages')))
        .filter((line) => line.includes('ERROR'))
        .map((line) => line.replace(/^\[[^\]]*\]\s*:?\s*/, '').trim()),
    ),
  ];
  return { featureStatus, gpus, glRenderer, problems: problems.slice(0, 8), dawnAdapters: dawnAdapters.slice(0, 8), logErrors: logErrors.slice(0, 8) };
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${Math.round(ms)} ms`;
}

function formatBytes(value: number): string {
  if (value >= 1 << 30) return `${+(value / (1 << 30)).toFixed(2)} GiB`;
  if (value >= 1 << 20) return `${+(value / (1 << 20)).toFixed(1)} MiB`;
  if (value >= 1 << 10) return `${+(value / (1 << 10)).toFixed(1)} KiB`;
  return String(value);
}

const tokS = (tokens: number, ms: number): number | null => (tokens > 0 && ms > 0 ? (tokens * 1000) / ms : null);
const fmtRate = (rate: number | null): string => (rate === null ? '-' : rate.toFixed(1));
const mean = (xs: number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

/** Tokens per second over the engine's own decode time, and over the wall time after the first token. */
export function turnRates(turn: Extract<TurnReport, { ok: true }>): { engine: number | null; wall: number | null } {
  const afterFirst = turn.timings.totalMs - turn.timings.ttftMs;
  return {
    engine: tokS(turn.completionTokens, turn.timings.decodeMs),
    wall: turn.completionTokens > 1 ? tokS(turn.completionTokens - 1, afterFirst) : null,
  };
}

export interface TurnStats {
  turns: number;
  ttftMs: number | null;
  engineTokS: number | null;
  wallTokS: number | null;
}

function stats(turns: Array<Extract<TurnReport, { ok: true }>>): TurnStats | null {
  if (turns.length === 0) return null;
  const rates = turns.map(turnRates);
  return {
    turns: turns.length,
    ttftMs: mean(turns.map((t) => t.timings.ttftMs)),
    engineTokS: mean(rates.map((r) => r.engine).filter((r): r is number => r !== null)),
    wallTokS: mean(rates.map((r) => r.wall).filter((r): r is number => r !== null)),
  };
}

/**
 * The first turn apart (cold: the first prefill and decode also warm up the engine, several times slower on
 * wllama here) and the mean of the later ones (warm, each reusing the previous turn's KV cache).
 */
export function engineSummary(section: EngineSection): { ok: boolean; cold: TurnStats | null; warm: TurnStats | null } {
  const ok = section.turns.filter((t): t is Extract<TurnReport, { ok: true }> => t.ok);
  return { ok: ok.length > 0 && ok.length === section.turns.length, cold: stats(ok.slice(0, 1)), warm: stats(ok.slice(1)) };
}

function statsText(s: TurnStats): string {
  return `first token ${formatMs(s.ttftMs ?? NaN)}, ${fmtRate(s.engineTokS)} tok/s (engine), ${fmtRate(s.wallTokS)} tok/s (wall)`;
}

function adapterLines(section: AdapterSection): string[] {
  const out: string[] = [];
  if (!section.navigatorGpu) {
    out.push('  navigator.gpu: absent (this Chromium exposes no WebGPU with these flags)');
  } else if (section.adapter === null) {
    out.push(`  requestAdapter(): ${section.adapterError !== undefined ? `threw ${section.adapterError}` : 'null (no adapter)'}`);
  } else {
    const a = section.adapter;
    const name = [a.vendor, a.architecture, a.device, a.description].filter((part) => part !== '').join(' · ') || '(no adapter info)';
    out.push(`  adapter: ${name}`);
    out.push(`  fallback (software) adapter: ${a.isFallbackAdapter ? 'yes' : 'no'}`);
    const f16 = a.features.includes('shader-f16');
    out.push(`  shader-f16: ${f16 ? 'yes (web-llm loads q4f16_1)' : 'no (web-llm loads q4f32_1)'}; ${a.features.length} features`);
    out.push('  limits web-llm 0.2.86 needs:');
    for (const [name, need] of Object.entries(WEBLLM_REQUIRED_LIMITS)) {
      const have = a.limits[name] ?? 0;
      const fmt = name === 'maxStorageBuffersPerShaderStage' ? String : formatBytes;
      out.push(`    ${name.padEnd(32)} ${fmt(have).padStart(10)}  (needs >= ${fmt(need)})  ${have >= need ? 'ok' : 'TOO SMALL'}`);
    }
    if (section.device !== null) {
      out.push(
        section.device.ok
          ? `  requestDevice() with those limits: ok (${formatMs(section.device.ms)})`
          : `  requestDevice() with those limits: FAILED (${section.device.error ?? 'no reason'})`,
      );
    }
  }
  out.push(`  web-llm requirements: ${section.shortfalls.length === 0 ? 'met' : `missed: ${section.shortfalls.join(', ')}`}`);
  out.push(`  describeGpu(): ${section.describe}`);
  out.push(`  the app's automatic choice: ${section.autoPlan.order.join(' then ') || 'nothing'}: ${section.autoPlan.why}`);
  return out;
}

function engineLines(title: string, section: EngineSection): string[] {
  const out = [`${title}`, `  source: ${section.source}`];
  const load = section.load;
  if (!load.ok) {
    out.push(`  load: FAILED after ${formatMs(load.ms)}: ${load.code}: ${load.message}`);
    if (load.lastProgress !== '') out.push(`  last progress before the failure: ${load.lastProgress}`);
    return out;
  }
  out.push(`  load: ${formatMs(load.ms)} (${load.result.backend}: ${load.result.reason})`);
  if (load.result.fallbackNotice !== undefined) out.push(`  fallback: ${load.result.fallbackNotice}`);
  out.push('  turn  prompt  cached  out   first token  prefill (engine)  decode tok/s (engine)  tok/s after 1st (wall)  finish');
  for (const turn of section.turns) {
    if (!turn.ok) {
      out.push(`  ${String(turn.turn).padStart(4)}  FAILED after ${formatMs(turn.ms)}: ${turn.code}: ${turn.message}`);
      continue;
    }
    const rates = turnRates(turn);
    out.push(
      `  ${String(turn.turn).padStart(4)}  ${String(turn.promptTokens).padStart(6)}  ${String(turn.cachedTokens).padStart(6)}  ${String(turn.completionTokens).padStart(3)}` +
        `   ${formatMs(turn.timings.ttftMs).padStart(11)}  ${formatMs(turn.timings.prefillMs).padStart(16)}  ${fmtRate(rates.engine).padStart(21)}  ${fmtRate(rates.wall).padStart(22)}  ${turn.finishReason}`,
    );
  }
  const summary = engineSummary(section);
  if (summary.cold !== null) out.push(`  turn 1 (cold): ${statsText(summary.cold)}`);
  if (summary.warm !== null) out.push(`  turns 2-${summary.warm.turns + 1} (warm, mean): ${statsText(summary.warm)}`);
  if (summary.cold !== null) {
    const first = section.turns[0];
    if (first?.ok) out.push(`  first reply: ${JSON.stringify(first.reply.length > 80 ? `${first.reply.slice(0, 80)}…` : first.reply)}`);
  }
  return out;
}

function speed(s: ReturnType<typeof engineSummary>): string {
  const best = s.warm ?? s.cold!;
  return `first token ${formatMs(s.cold?.ttftMs ?? NaN)} cold${s.warm !== null ? ` / ${formatMs(s.warm.ttftMs ?? NaN)} warm` : ''}, ${fmtRate(best.engineTokS)} tok/s decoding${s.warm !== null ? ' (warm)' : ''}`;
}

/** A plain verdict per part, so whoever runs this on a GPU machine reads what breaks without reading the tables. */
export function verdicts(report: CheckGpuReport): string[] {
  const out: string[] = [];
  const adapter = report.page.adapter;
  const attempts = report.chromium.attempts;
  if (attempts.length > 1) {
    const first = attempts[0]!;
    out.push(
      `Chromium's ${first.preset} flags gave ${first.adapter === 'none' ? 'no WebGPU adapter' : 'only a software WebGPU adapter'}; ` +
        `the run used the ${attempts.at(-1)!.preset} flags (${attempts.at(-1)!.adapter} adapter).`,
    );
  }
  if (adapter === undefined) {
    out.push('WebGPU: not checked (the page did not get that far).');
  } else if (adapter.adapter === null) {
    out.push('WebGPU: no adapter. The app would run wllama (CPU) only.');
  } else if (adapter.adapter.isFallbackAdapter) {
    out.push(`WebGPU: only a software adapter (${adapter.adapter.architecture || adapter.adapter.vendor || 'unnamed'}). The app picks wllama by itself; web-llm runs here only when forced, and slowly.`);
  } else if (adapter.shortfalls.length > 0) {
    out.push(`WebGPU: a hardware adapter, but web-llm cannot use it: ${adapter.shortfalls.join(', ')}.`);
  } else if (adapter.device !== null && !adapter.device.ok) {
    out.push(`WebGPU: a hardware adapter whose limits suffice, but creating a device failed (${adapter.device.error ?? ''}).`);
  } else {
    out.push(`WebGPU: a hardware adapter web-llm can use (${adapter.describe}); the app picks ${adapter.autoPlan.order[0] ?? 'nothing'} by itself.`);
  }
  const wllama = report.page.wllama;
  if (wllama !== undefined) {
    const s = engineSummary(wllama);
    if (!wllama.load.ok) out.push(`wllama: the model did not load (${wllama.load.code}).`);
    else if (!s.ok) out.push('wllama: loaded, but a turn failed (see above).');
    else out.push(`wllama: works; loaded in ${formatMs(wllama.load.ms)}, ${speed(s)}.`);
  }
  const webllm = report.page.webllm;
  if (webllm !== undefined) {
    if (webllm.load.ok) {
      const s = engineSummary(webllm);
      out.push(s.ok ? `web-llm: works on WebGPU; loaded in ${formatMs(webllm.load.ms)}, ${speed(s)}.` : 'web-llm: loaded, but a turn failed (see above).');
    } else if (report.options.mlcWithoutWeights && (webllm.load.code === 'model_not_found' || webllm.load.code === 'network')) {
      out.push(
        `web-llm: got as far as it can without weights: it accepted the adapter and stopped at the model files (${webllm.load.code}), as expected. ` +
          'Time it with real weights: npm run fetch-model, then npm run check:gpu -- --self-hosted.',
      );
    } else {
      out.push(`web-llm: FAILED to load (${webllm.load.code}): ${webllm.load.message}`);
    }
  }
  if (report.timedOut) out.push(`The run hit --timeout (${report.options.timeoutS} s) during "${report.stage}": what is above is partial.`);
  if (report.pageError !== undefined) out.push(`The check page itself failed: ${report.pageError.split('\n')[0]}`);
  return out;
}

export function formatReport(report: CheckGpuReport): string {
  const m = report.machine;
  const out: string[] = [
    `check:gpu: ${report.chromium.version} (${report.chromium.path}), ${m.cpus} x ${m.cpu}, ${m.memoryGiB} GiB, ${m.platform} ${m.release}`,
    `  flags: ${report.chromium.flags.join(' ')}`,
    `  page: ${report.page.crossOriginIsolated ? 'cross-origin isolated' : 'NOT cross-origin isolated'}, navigator.hardwareConcurrency ${report.page.hardwareConcurrency}; took ${formatMs(report.durationMs)}`,
    '',
  ];
  for (const attempt of report.chromium.attempts) {
    const g = attempt.chromeGpu;
    out.push(`Chromium with the ${attempt.preset} flags (${attempt.flags.join(' ')}): ${attempt.adapter} WebGPU adapter`);
    if (g === null) out.push('  chrome://gpu: could not be read');
    else {
      for (const key of ['WebGPU', 'Vulkan', 'WebGL']) if (g.featureStatus[key] !== undefined) out.push(`  chrome://gpu ${key}: ${g.featureStatus[key]}`);
      for (const gpu of g.gpus) out.push(`  ${gpu.length > 160 ? `${gpu.slice(0, 160)}…` : gpu}`);
      for (const adapter of g.dawnAdapters) out.push(`  Dawn: ${adapter}`);
      for (const problem of g.problems.slice(0, 2)) out.push(`  problem: ${problem}`);
      for (const error of g.logErrors.slice(0, 3)) out.push(`  log: ${error.length > 160 ? `${error.slice(0, 160)}…` : error}`);
    }
    out.push('');
  }
  if (report.page.adapter !== undefined) {
    out.push("WebGPU adapter (requestAdapter({ powerPreference: 'high-performance' }))", ...adapterLines(report.page.adapter), '');
  }
  if (report.page.wllama !== undefined) out.push(...engineLines('wllama (WASM CPU), through the engine worker', report.page.wllama), '');
  if (report.page.webllm !== undefined) out.push(...engineLines('web-llm (WebGPU, forced), through the engine worker', report.page.webllm), '');
  if (report.consoleErrors.length > 0) {
    out.push(`Console errors (${report.consoleErrors.length}${report.consoleErrors.length >= 20 ? '+' : ''}; the first few)`);
    for (const line of report.consoleErrors.slice(0, 5)) out.push(`  ${line.length > 200 ? `${line.slice(0, 200)}…` : line}`);
    out.push('');
  }
  out.push('Verdict', ...verdicts(report).map((line) => `  - ${line}`));
  return out.join('\n');
}
