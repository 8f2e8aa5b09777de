/**
 * `custom-elements.json` for the package: the Custom Elements Manifest analyzer (`@custom-elements-manifest/
 * analyzer`, Lit mode) over the element's source, whose JSDoc names its attributes, events, parts and CSS
 * properties. Then, because the analyzer cannot read `@property({ attribute: ATTRIBUTES.model })` through the
 * constant, the `…Attr` fields (the raw attribute strings the element validates) are dropped in favour of the
 * documented attributes, and paths name the built module. The result is checked against `ATTRIBUTES`, so a renamed
 * attribute fails the build rather than shipping a wrong manifest.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ATTRIBUTES } from '../../src/widget/attributes.ts';

const SOURCE = 'src/widget/qwen-assistant.ts';
export const BUILT_MODULE = 'widget/qwen-assistant.js';

interface Declaration {
  name: string;
  attributes?: Array<{ name: string; fieldName?: string }>;
  members?: Array<{ name: string; kind: string; privacy?: string }>;
  [key: string]: unknown;
}
interface Manifest {
  schemaVersion: string;
  modules: Array<{ path: string; declarations: Declaration[]; exports?: Array<{ declaration: { module?: string } }> }>;
}

/** Members that are not the element's API: the raw attribute fields, and a field of a controller the analyzer saw assigned. */
const isRawField = (name: string): boolean => /Attr$/.test(name) || name === 'onEvent';

export function tidyManifest(manifest: Manifest): Manifest {
  for (const module of manifest.modules) {
    module.path = BUILT_MODULE;
    for (const exported of module.exports ?? []) if (exported.declaration.module !== undefined) exported.declaration.module = BUILT_MODULE;
    for (const declaration of module.declarations) {
      if (declaration.attributes !== undefined) declaration.attributes = declaration.attributes.filter((a) => !isRawField(a.name));
      if (declaration.members !== undefined) declaration.members = declaration.members.filter((m) => !isRawField(m.name) && m.privacy !== 'private');
    }
  }
  const element = manifest.modules[0]?.declarations.find((d) => d.name === 'QwenAssistant');
  const names = (element?.attributes ?? []).map((a) => a.name).sort();
  const expected = [...Object.values(ATTRIBUTES), 'open'].sort();
  if (JSON.stringify(names) !== JSON.stringify(expected)) {
    throw new Error(`custom-elements.json lists attributes ${names.join(', ')}; the element has ${expected.join(', ')} (a JSDoc @attr is missing or stale in ${SOURCE})`);
  }
  return manifest;
}

/** Runs the analyzer (in a scratch folder) and returns the tidied manifest. */
export function buildCustomElementsManifest(): Manifest {
  const require = createRequire(import.meta.url);
  const cli = join(require.resolve('@custom-elements-manifest/analyzer/package.json'), '..', 'cem.js');
  const scratch = mkdtempSync(join(tmpdir(), 'qwen-cem-'));
  try {
    // A config file because `packagejson` (on by default: it writes `customElements` into the package.json of the
    // folder it runs in, here this repository's) can only be turned off there, not by a flag.
    const config = join(scratch, 'custom-elements-manifest.config.mjs');
    writeFileSync(config, 'export default { packagejson: false, litelement: true };\n');
    const run = spawnSync(process.execPath, [cli, 'analyze', '--config', config, '--globs', SOURCE, '--outdir', relative(process.cwd(), scratch)], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`the custom elements analyzer failed: ${run.stderr || run.stdout}`);
    return tidyManifest(JSON.parse(readFileSync(join(scratch, 'custom-elements.json'), 'utf8')) as Manifest);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
