/**
 * `npm run site [-- <the options of build:site>] [--port <n>] [--host]`: builds the demo docs site (after `npm run
 * build:widget`, which the npm script runs first) and serves it with `vite preview` as a typical docs host does,
 * without COOP/COEP (vite.widget.config.ts's `preview`). `npm run site -- --test-model` serves it with the generated
 * test model, for machines without the internet.
 */
import { preview } from 'vite';
import { parseSiteArgs } from './site/args.ts';
import { buildSite } from './site/build.ts';

try {
  const { build, port, host } = parseSiteArgs(process.argv.slice(2));
  await buildSite(build);
  const server = await preview({
    configFile: 'vite.widget.config.ts',
    build: { outDir: build.outDir },
    preview: { ...(port === undefined ? {} : { port, strictPort: true }), ...(host ? { host: true } : {}) },
  });
  server.printUrls();
} catch (error) {
  console.error(`site: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
