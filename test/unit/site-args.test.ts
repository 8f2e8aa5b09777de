import { describe, expect, it } from 'vitest';
import { parseBuildSiteArgs, parseSiteArgs } from '../../scripts/site/args.ts';

const defaults = { docsDir: 'docs/site', outDir: 'dist-site', widgetDir: 'dist/widget', testModel: false };

describe('npm run site / build:site arguments', () => {
  it('`npm run site` builds the default site for the default model and serves it on vite’s port', () => {
    expect(parseSiteArgs([])).toEqual({ build: defaults, host: false });
  });

  it('`npm run site -- --test-model` builds with the test model (the option once reached vite preview and failed)', () => {
    expect(parseSiteArgs(['--test-model'])).toEqual({ build: { ...defaults, testModel: true }, host: false });
  });

  it('takes every build:site option, and a port and --host for serving', () => {
    const argv = ['--model', 'https://models.example/q.gguf', '--docs', 'my-docs', '--out', 'out', '--widget', 'w', '--port', '5050', '--host'];
    expect(parseSiteArgs(argv)).toEqual({
      build: { docsDir: 'my-docs', outDir: 'out', widgetDir: 'w', testModel: false, model: 'https://models.example/q.gguf' },
      port: 5050,
      host: true,
    });
    expect(parseBuildSiteArgs(['--test-model', '--out', 'site'])).toEqual({ ...defaults, testModel: true, outDir: 'site' });
  });

  it('refuses what it does not know, with the usage line, before anything is built', () => {
    expect(() => parseSiteArgs(['--testModel'])).toThrow(/Unknown option '--testModel'[\s\S]*Usage: npm run site/);
    expect(() => parseBuildSiteArgs(['--port', '5050'])).toThrow(/Unknown option '--port'[\s\S]*Usage: npm run build:site/);
    expect(() => parseSiteArgs(['stray'])).toThrow(/Usage: npm run site/);
    expect(() => parseSiteArgs(['--model'])).toThrow(/argument missing[\s\S]*Usage/);
  });

  it('refuses a port that is not one', () => {
    for (const port of ['0', '65536', 'http', '80.5']) expect(() => parseSiteArgs(['--port', port]), port).toThrow(/--port must be a whole number from 1 to 65535/);
  });
});
