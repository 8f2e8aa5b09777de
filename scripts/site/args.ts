/**
 * The command line of `npm run build:site` and `npm run site`: the same site options for both, plus `--port` and
 * `--host` for `site`, which also serves what it built. Unknown options fail with the usage line before anything is
 * built (`vite preview` once received `--test-model` and refused it, after the site had been rebuilt without it).
 */
import { parseArgs } from 'node:util';

export interface SiteBuildArgs {
  docsDir: string;
  outDir: string;
  widgetDir: string;
  testModel: boolean;
  model?: string;
}

export interface SiteServeArgs {
  build: SiteBuildArgs;
  /** Where `vite preview` listens (its default, 4173, when not given). */
  port?: number;
  /** Listen on every network address, not only this machine (as `vite preview --host`). */
  host: boolean;
}

export const BUILD_USAGE = 'npm run build:site [-- --model <url>] [--test-model] [--docs <folder>] [--out <dir>] [--widget <dir>]';
export const SERVE_USAGE = 'npm run site [-- --model <url>] [--test-model] [--docs <folder>] [--out <dir>] [--widget <dir>] [--port <n>] [--host]';

const BUILD_OPTIONS = {
  model: { type: 'string' },
  'test-model': { type: 'boolean', default: false },
  docs: { type: 'string', default: 'docs/site' },
  out: { type: 'string', default: 'dist-site' },
  widget: { type: 'string', default: 'dist/widget' },
} as const;

/** Runs a parser; its error (an unknown option, a missing value) comes back with the usage line. */
function withUsage<T>(usage: string, parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nUsage: ${usage}`);
  }
}

function buildArgsOf(values: { model?: string | undefined; 'test-model': boolean; docs: string; out: string; widget: string }): SiteBuildArgs {
  return {
    docsDir: values.docs,
    outDir: values.out,
    widgetDir: values.widget,
    testModel: values['test-model'],
    ...(values.model !== undefined ? { model: values.model } : {}),
  };
}

export function parseBuildSiteArgs(argv: readonly string[]): SiteBuildArgs {
  return buildArgsOf(withUsage(BUILD_USAGE, () => parseArgs({ args: [...argv], options: BUILD_OPTIONS, strict: true }).values));
}

export function parseSiteArgs(argv: readonly string[]): SiteServeArgs {
  const values = withUsage(SERVE_USAGE, () => parseArgs({ args: [...argv], options: { ...BUILD_OPTIONS, port: { type: 'string' }, host: { type: 'boolean', default: false } }, strict: true }).values);
  const build = buildArgsOf(values);
  if (values.port === undefined) return { build, host: values.host };
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port < 1 || port > 65_535) {
    throw new Error(`--port must be a whole number from 1 to 65535, not "${values.port}"\nUsage: ${SERVE_USAGE}`);
  }
  return { build, port, host: values.host };
}
