/**
 * Tells the app at build time whether it ships a self-hosted model: `npm run fetch-model` writes
 * public/models/manifest.json, and only then does the page ask for it (src/main.ts). Without this, every load of a
 * build without a self-hosted model asked anyway and logged a red 404. The dev server restarts when the file
 * appears or goes, so `npm run fetch-model` during `npm run dev` takes effect.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin, UserConfig } from 'vite';

/** The global src/main.ts reads: `true` / `false` once the plugin runs, absent (so the page asks) without it. */
export const SELF_HOSTED_DEFINE = '__QWEN_SELF_HOSTED_MANIFEST__';

/** The manifest file this config would serve or copy into the build, or null when it serves no public folder. */
export function manifestFileOf(config: UserConfig, command: 'build' | 'serve'): string | null {
  if (config.publicDir === false) return null;
  // The e2e harness builds with `copyPublicDir: false` and copies only the files it needs.
  if (command === 'build' && config.build?.copyPublicDir === false) return null;
  const root = resolve(config.root ?? process.cwd());
  return join(resolve(root, config.publicDir ?? 'public'), 'models', 'manifest.json');
}

export function selfHostedManifest(exists: (path: string) => boolean = existsSync): Plugin {
  let file: string | null = null;
  return {
    name: 'qwen-self-hosted-manifest',
    config(config, { command }) {
      file = manifestFileOf(config, command);
      return { define: { [SELF_HOSTED_DEFINE]: JSON.stringify(file !== null && exists(file)) } };
    },
    configureServer(server) {
      if (file === null) return;
      const manifest = file;
      server.watcher.add(manifest);
      const restart = (path: string): void => {
        if (resolve(path) === manifest) void server.restart();
      };
      server.watcher.on('add', restart);
      server.watcher.on('unlink', restart);
    },
  };
}
