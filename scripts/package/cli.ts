/**
 * The package's command, `npx qwen-assistant <command>` (bin/qwen-assistant.js runs this, bundled as lib/cli.js):
 *   index-docs <folder> --out <dir> [options]   the docs index the widget reads (scripts/index-docs/index-docs.ts)
 *   copy-widget <dir>                           the built widget folder, copied whole into a site's static files
 * Exit codes: 0 done, 1 nothing to do or a missing folder, 2 bad arguments.
 */
import { cpSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { runIndexDocs } from '../index-docs/index-docs.ts';
import { packageRoot, packagedWidgetDir, tablesPathIn } from './package-files.ts';
import { loadTablesCounter } from './tables-counter.ts';

const HELP = `usage: npx qwen-assistant <command>

  index-docs <folder> --out <dir> [--base-url /] [--exclude <path>]… [--max-bytes N] [--max-tokens N] [--no-memory]
      Indexes the Markdown and HTML pages below <folder> for the widget's docs-index attribute
      (<dir>/manifest.json). --base-url is what page paths are prefixed with in links (default /).
  copy-widget <dir>
      Copies the built widget (qwen-assistant.js and every file it fetches) into <dir>.
  --version, --help`;

/** Copies the widget folder into `target`; returns the exit code. */
export function copyWidget(argv: readonly string[], widgetDir = packagedWidgetDir()): number {
  if (argv.length !== 1 || argv[0]!.startsWith('--')) {
    console.error('copy-widget: give one target folder\nusage: npx qwen-assistant copy-widget <dir>');
    return 2;
  }
  const target = resolve(argv[0]!);
  if (existsSync(target) && !statSync(target).isDirectory()) {
    console.error(`copy-widget: ${target} exists and is not a folder`);
    return 1;
  }
  cpSync(widgetDir, target, { recursive: true });
  console.log(`copied the widget to ${target} (load ${join(target, 'qwen-assistant.js')} as a module script)`);
  return 0;
}

/** Runs a command; an error is reported in one line (with its code), never as a stack trace. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    console.error(`qwen-assistant: ${error instanceof Error ? error.message : String(error)}${typeof code === 'string' ? ` (${code})` : ''}`);
    return 1;
  }
}

async function run(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'index-docs':
      return runIndexDocs(rest, { invocation: 'npx qwen-assistant index-docs', loadCounter: () => loadTablesCounter(tablesPathIn(packagedWidgetDir())) });
    case 'copy-widget':
      return copyWidget(rest);
    case '--version':
    case '-v':
      console.log((JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      console.log(HELP);
      return command === undefined ? 2 : 0;
    default:
      console.error(`qwen-assistant: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}
