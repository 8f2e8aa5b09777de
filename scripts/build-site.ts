/**
 * `npm run build:site [-- --model <url>] [--test-model] [--docs <folder>] [--out <dir>] [--widget <dir>]`:
 * the demo docs site — docs/site/*.md rendered into dist-site/*.html with the widget embedded, dist/widget copied to
 * dist-site/widget/, and the docs index written to dist-site/docs-index/. `npm run site` builds and serves it.
 */
import { parseBuildSiteArgs } from './site/args.ts';
import { buildSite } from './site/build.ts';

try {
  const result = await buildSite(parseBuildSiteArgs(process.argv.slice(2)));
  if (result.skipped.length > 0) console.log(`build-site: ${result.skipped.length} page(s) skipped (see above)`);
} catch (error) {
  console.error(`build-site: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
