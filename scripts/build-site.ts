/**
 * `npm run build:site [-- --model <url>] [--test-model] [--docs <folder>] [--out <dir>] [--widget <dir>]`:
 * the demo docs site — docs/site/*.md rendered into dist-site/*.html with the widget embedded, dist/widget copied to
 * dist-site/widget/, and the docs index written to dist-site/docs-index/. Serve it with `npm run site`.
 */
import { parseArgs } from 'node:util';
import { buildSite } from './site/build.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    'test-model': { type: 'boolean', default: false },
    docs: { type: 'string', default: 'docs/site' },
    out: { type: 'string', default: 'dist-site' },
    widget: { type: 'string', default: 'dist/widget' },
  },
});

try {
  const result = await buildSite({
    docsDir: values.docs,
    outDir: values.out,
    widgetDir: values.widget,
    testModel: values['test-model'],
    ...(values.model !== undefined ? { model: values.model } : {}),
  });
  if (result.skipped.length > 0) console.log(`build-site: ${result.skipped.length} page(s) skipped (see above)`);
} catch (error) {
  console.error(`build-site: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
