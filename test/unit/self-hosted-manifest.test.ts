import { join, resolve } from 'node:path';
import type { ConfigEnv, UserConfig } from 'vite';
import { describe, expect, it } from 'vitest';
import { SELF_HOSTED_DEFINE, manifestFileOf, selfHostedManifest } from '../../scripts/self-hosted-manifest.ts';

const publicManifest = join(resolve('public'), 'models', 'manifest.json');

/** The plugin's answer for a config, as the app sees it: the value of the global src/main.ts reads. */
function defined(config: UserConfig, command: ConfigEnv['command'], present: readonly string[]): unknown {
  const plugin = selfHostedManifest((path) => present.includes(path));
  const hook = plugin.config as (config: UserConfig, env: ConfigEnv) => UserConfig;
  const raw = hook(config, { command, mode: command === 'build' ? 'production' : 'development' }).define?.[SELF_HOSTED_DEFINE] as string;
  return JSON.parse(raw) as unknown;
}

describe('self-hosted manifest at build time', () => {
  it('the page asks for the manifest only when the build ships one', () => {
    expect(defined({}, 'build', [publicManifest])).toBe(true);
    expect(defined({}, 'build', [])).toBe(false);
    expect(defined({}, 'serve', [publicManifest])).toBe(true);
  });

  it('a build that copies no public folder ships no manifest, even when public/ holds one', () => {
    expect(defined({ build: { copyPublicDir: false } }, 'build', [publicManifest])).toBe(false);
    expect(defined({ publicDir: false }, 'serve', [publicManifest])).toBe(false);
    // The dev server serves public/ whatever the build would copy.
    expect(defined({ build: { copyPublicDir: false } }, 'serve', [publicManifest])).toBe(true);
  });

  it('follows the configured root and public folder', () => {
    expect(manifestFileOf({ root: '/site', publicDir: 'static' }, 'build')).toBe(join('/site', 'static', 'models', 'manifest.json'));
    expect(manifestFileOf({ publicDir: '/srv/files' }, 'build')).toBe(join('/srv/files', 'models', 'manifest.json'));
    expect(defined({ root: '/site' }, 'build', [publicManifest])).toBe(false);
  });
});
