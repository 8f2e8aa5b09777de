/**
 * The Content-Security-Policy: the one builder (scripts/csp.ts) and where it is written (the built index.html, the
 * demo site's pages), and the run-time check (src/shared/csp.ts) that reads a meta policy back and tells whether a
 * model URL may be fetched. The two must agree: every URL of the default model passes the built policy.
 */
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withCspMeta } from '../../scripts/csp-plugin.ts';
import { appConnectSources, buildCsp, cspMetaTag, DEFAULT_MODEL_CONNECT, HUGGING_FACE_REDIRECT_HOSTS, inlineHash, modelConnectSources } from '../../scripts/csp.ts';
import { renderLayout } from '../../scripts/site/layout.ts';
import { DEFAULT_SOURCE, resolveModelSource } from '../../src/engine/model-sources.ts';
import { assertModelAllowed, modelUrlsOf } from '../../src/engine/model-urls.ts';
import { assertConnectAllowed, connectSourcesOf, firstBlocked } from '../../src/shared/csp.ts';
import { AssistantError } from '../../src/shared/errors.ts';

const APP = 'https://app.example/chat/';
const blocked = (url: string, policy: string, page = APP): string | null => firstBlocked([url], [policy], page)?.href ?? null;

describe('buildCsp', () => {
  it('writes the whole policy in a fixed order: nothing inline, no eval, only the listed hosts', () => {
    expect(buildCsp({ connect: ['https://models.example'], styleHashes: ["'sha256-abc='"] })).toBe(
      "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'sha256-abc='; img-src 'self' data: blob:; " +
        "connect-src 'self' https://models.example; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'",
    );
  });

  it('adds frame-ancestors only to the header, which a meta policy cannot carry', () => {
    expect(buildCsp({ connect: [] })).not.toContain('frame-ancestors');
    expect(buildCsp({ connect: [], delivery: 'header' }).endsWith("; frame-ancestors 'none'")).toBe(true);
  });

  it("lists a source once, and never 'unsafe-inline' or 'unsafe-eval'", () => {
    const policy = buildCsp({ connect: ["'self'", 'https://a.example', 'https://a.example'], styleHashes: ["'sha256-x='", "'sha256-x='"], scriptHashes: ["'sha256-y='"] });
    expect(policy).toContain("connect-src 'self' https://a.example;");
    expect(policy).toContain("style-src 'self' 'sha256-x=';");
    expect(policy).toContain("script-src 'self' 'wasm-unsafe-eval' 'sha256-y=';");
    expect(policy).not.toMatch(/unsafe-inline|'unsafe-eval'/);
  });

  it('hashes inline text as the browser does (SHA-256 of the exact content, base64)', () => {
    expect(inlineHash('')).toBe("'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='");
    expect(inlineHash('a { color: red }\n')).toBe(`'sha256-${createHash('sha256').update('a { color: red }\n').digest('base64')}'`);
  });
});

describe('the model hosts in connect-src', () => {
  it('defaults to Hugging Face, the hosts its downloads redirect to, and web-llm’s model-library host', () => {
    expect(DEFAULT_MODEL_CONNECT).toEqual([
      'https://huggingface.co',
      'https://raw.githubusercontent.com',
      'https://cdn-lfs.huggingface.co',
      'https://cdn-lfs-us-1.huggingface.co',
      'https://cdn-lfs-eu-1.huggingface.co',
      'https://*.hf.co',
    ]);
  });

  it('takes each absolute URL’s origin; relative URLs are the page’s own', () => {
    expect(modelConnectSources(['/models/x.gguf', 'models/y.gguf', undefined, ' ', 'https://m.example:8443/a/b.gguf', 'https://m.example:8443/c', 'data:,x'])).toEqual([
      'https://m.example:8443',
    ]);
    expect(modelConnectSources(['https://huggingface.co/x/resolve/main/y.gguf'])).toEqual(['https://huggingface.co', ...HUGGING_FACE_REDIRECT_HOSTS]);
  });

  it('adds the build-time model’s hosts (VITE_MODEL_GGUF_URL / VITE_MODEL_MLC_URL) to the defaults', () => {
    expect(appConnectSources(undefined, undefined)).toEqual(DEFAULT_MODEL_CONNECT);
    expect(appConnectSources('https://models.example/q.gguf', 'https://mlc.example/models/')).toEqual([...DEFAULT_MODEL_CONNECT, 'https://models.example', 'https://mlc.example']);
    expect(appConnectSources('/models/q.gguf', undefined)).toEqual(DEFAULT_MODEL_CONNECT);
  });
});

describe('the built index.html', () => {
  const page = `<!doctype html>\n<html><head>\n<meta charset="UTF-8" />\n<title>t</title>\n<style>body{margin:0}</style>\n<script type="module" crossorigin src="/assets/index-x.js"></script>\n</head><body></body></html>`;

  it('gets the meta right after its charset, with its inline style hashed', () => {
    const html = withCspMeta(page, ['https://models.example']);
    const policy = buildCsp({ connect: ['https://models.example'], styleHashes: [inlineHash('body{margin:0}')] });
    expect(html).toContain(`<meta charset="UTF-8" />\n    ${cspMetaTag(policy)}\n<title>`);
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
  });

  it('fails the build on an inline script, which the policy would refuse', () => {
    expect(() => withCspMeta(page.replace('</head>', '<script>alert(1)</script></head>'), [])).toThrow(/inline <script>/);
  });

  it('keeps the attribute readable and safe', () => {
    expect(cspMetaTag(`a 'self' "x" &`)).toBe(`<meta http-equiv="Content-Security-Policy" content="a 'self' &quot;x&quot; &amp;">`);
  });
});

describe('the demo site’s pages', () => {
  const render = (model: string, url = 'guide/install.html'): string =>
    renderLayout({ siteTitle: 'Docs', page: { url, title: 'Install' }, nav: [], content: { html: '<h1>Install</h1>', headings: [] }, model, lang: 'en' });
  const policyOf = (html: string): string => /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1] ?? '';

  it('carry a policy whose hashes are those of the page’s own inline style and script', () => {
    const html = render('models/test/qwen2-tiny.gguf');
    const policy = policyOf(html);
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
    const script = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).toContain("navigator.serviceWorker.register('../qwen-assistant-sw.js");
    expect(policy).toBe(buildCsp({ connect: [], styleHashes: [inlineHash(style)], scriptHashes: [inlineHash(script)] }));
    expect(html.indexOf('Content-Security-Policy')).toBeLessThan(html.indexOf('<style>'));
  });

  it('connect to the widget’s model host: Hugging Face by default, the site itself for a relative model', () => {
    expect(connectSourcesOf(policyOf(render('')))).toEqual(["'self'", 'https://huggingface.co', ...HUGGING_FACE_REDIRECT_HOSTS]);
    expect(connectSourcesOf(policyOf(render('models/test/qwen2-tiny.gguf')))).toEqual(["'self'"]);
    expect(connectSourcesOf(policyOf(render('https://models.example/q.gguf')))).toEqual(["'self'", 'https://models.example']);
  });
});

describe('connectSourcesOf', () => {
  it('reads connect-src, falls back to default-src, and is null when neither limits fetches', () => {
    expect(connectSourcesOf("default-src 'none'; connect-src 'self' https://a.example")).toEqual(["'self'", 'https://a.example']);
    expect(connectSourcesOf("default-src 'self'; img-src *")).toEqual(["'self'"]);
    expect(connectSourcesOf("img-src 'self'")).toBeNull();
    // As in browsers: names are case-insensitive, a repeated directive is ignored.
    expect(connectSourcesOf("CONNECT-SRC 'none'; connect-src *")).toEqual(["'none'"]);
  });
});

describe('firstBlocked: does the page’s connect-src allow a URL', () => {
  const built = buildCsp({ connect: DEFAULT_MODEL_CONNECT });

  it("allows 'self' (the page's origin) and relative URLs, not another port or host", () => {
    expect(blocked('/models/test/qwen2-tiny.gguf', built)).toBeNull();
    expect(blocked('https://app.example/x', built)).toBeNull();
    expect(blocked('https://app.example:8443/x', built)).toBe('https://app.example:8443/x');
    expect(blocked('http://127.0.0.1:4000/m.gguf', "connect-src 'self'", 'http://localhost:4000/')).toBe('http://127.0.0.1:4000/m.gguf');
    // 'self' on http also allows the same host over https.
    expect(blocked('https://localhost/x', "connect-src 'self'", 'http://localhost/')).toBeNull();
  });

  it('allows every download of the default model, and the hosts Hugging Face redirects to', () => {
    for (const url of modelUrlsOf(DEFAULT_SOURCE)) expect(blocked(url, built)).toBeNull();
    for (const url of ['https://cas-bridge.xethub.hf.co/xet-bridge-us/1/2', 'https://us.aws.cdn.hf.co/x', 'https://cdn-lfs-us-1.huggingface.co/r/1']) expect(blocked(url, built)).toBeNull();
  });

  it('refuses lookalikes of a wildcard host, and anything not listed', () => {
    expect(blocked('https://hf.co/x', built)).toBe('https://hf.co/x');
    expect(blocked('https://evilhf.co/x', built)).toBe('https://evilhf.co/x');
    expect(blocked('https://huggingface.co.evil.example/x', built)).toBe('https://huggingface.co.evil.example/x');
    expect(blocked('http://huggingface.co/x', built)).toBe('http://huggingface.co/x');
    expect(blocked('https://other.example/x.gguf', built)).toBe('https://other.example/x.gguf');
  });

  it('follows CSP for schemes, ports, paths and keywords', () => {
    expect(blocked('https://a.example/x', 'connect-src https:')).toBeNull();
    expect(blocked('https://a.example/x', 'connect-src http://a.example')).toBeNull(); // http allows its upgrade
    expect(blocked('https://a.example:444/x', 'connect-src https://a.example')).toBe('https://a.example:444/x');
    expect(blocked('https://a.example:444/x', 'connect-src https://a.example:*')).toBeNull();
    expect(blocked('https://a.example/x', 'connect-src a.example')).toBeNull(); // no scheme: the page's
    expect(blocked('https://a.example/models/q.gguf', 'connect-src https://a.example/models/')).toBeNull();
    expect(blocked('https://a.example/other/q.gguf', 'connect-src https://a.example/models/')).toBe('https://a.example/other/q.gguf');
    expect(blocked('https://a.example/models/q.gguf', 'connect-src https://a.example/models/q.gguf')).toBeNull();
    expect(blocked('https://a.example/x', "connect-src 'none'")).toBe('https://a.example/x');
    expect(blocked('https://a.example/x', 'connect-src *')).toBeNull();
    expect(blocked('https://a.example/x', "img-src 'self'")).toBeNull();
  });

  it('needs every policy to allow the URL', () => {
    expect(firstBlocked(['https://a.example/x'], ['connect-src https://a.example', "connect-src 'self'"], APP)?.origin).toBe('https://a.example');
    expect(firstBlocked(['https://a.example/x'], ['connect-src https://a.example', 'connect-src https:'], APP)).toBeNull();
  });
});

describe('assertConnectAllowed and assertModelAllowed', () => {
  beforeEach(() => vi.stubGlobal('location', new URL(APP)));
  afterEach(() => vi.unstubAllGlobals());

  it('passes with no policy (the dev server) and for the default model under the built one', () => {
    expect(() => assertConnectAllowed(['https://other.example/x'], () => '', [])).not.toThrow();
    expect(() => assertConnectAllowed(modelUrlsOf(DEFAULT_SOURCE), () => '', [buildCsp({ connect: DEFAULT_MODEL_CONNECT })])).not.toThrow();
  });

  it('names the blocked host and says how to allow it, as invalid_config', () => {
    const source = resolveModelSource({ query: new URLSearchParams('model=https://other.example/x.gguf') }).source;
    let error: unknown;
    try {
      assertConnectAllowed(modelUrlsOf(source), (origin) => `Add ${origin} to connect-src.`, [buildCsp({ connect: DEFAULT_MODEL_CONNECT })]);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AssistantError);
    expect((error as AssistantError).code).toBe('invalid_config');
    expect((error as AssistantError).message).toBe(
      "The model host https://other.example is not allowed by this page's Content-Security-Policy (connect-src), so https://other.example/x.gguf cannot be downloaded. Add https://other.example to connect-src.",
    );
  });

  it('checks web-llm’s weights and model libraries too, and reads no policy without a document', () => {
    const mlc = resolveModelSource({ query: new URLSearchParams('mlc=https://huggingface.co/mlc-ai') }).source;
    expect(() => assertConnectAllowed(modelUrlsOf(mlc), () => '', [buildCsp({ connect: ['https://huggingface.co'] })])).toThrow(/raw\.githubusercontent\.com/);
    // Node has no document: no meta, so no check (as with no policy).
    expect(() => assertModelAllowed({ ggufUrl: 'https://other.example/x.gguf' }, () => '')).not.toThrow();
  });
});
