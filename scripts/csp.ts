/**
 * The Content-Security-Policy the app (index.html, through scripts/csp-plugin.ts) and the demo docs site
 * (scripts/site/layout.ts) ship, built by one function. README.md "Content-Security-Policy" says why each directive.
 *
 * Static hosts often cannot set headers, so the policy ships as a `<meta http-equiv>`; `delivery: 'header'` gives
 * the equivalent header, which adds what a meta cannot carry (frame-ancestors).
 */
import { createHash } from 'node:crypto';
import { DEFAULT_SOURCE, resolveModelSource } from '../src/engine/model-sources.ts';
import { modelUrlsOf } from '../src/engine/model-urls.ts';

/**
 * Where a Hugging Face `/resolve/` download ends up: huggingface.co answers with a redirect to a storage or CDN host
 * (CSP checks every redirect target). The list follows huggingface.co/.well-known/meta.json and the Hub's
 * "downloading behind a firewall" notes:
 * - cdn-lfs{,-us-1,-eu-1}.huggingface.co: the legacy LFS CDN, still answering for older files;
 * - *.hf.co: today's targets, which Hugging Face moves between — cdn-lfs{,-us-1,-eu-1}.hf.co (LFS),
 *   cas-bridge.xethub.hf.co and transfer.xethub.hf.co (Xet storage), and the regional CDN edges such as
 *   us.aws.cdn.hf.co or us-east1.us.gcp.cdn.hf.co. A CSP `*.` matches subdomains at any depth, so one entry keeps
 *   working when a region is added; it is Hugging Face's own domain, never a third party's.
 */
export const HUGGING_FACE_REDIRECT_HOSTS: readonly string[] = [
  'https://cdn-lfs.huggingface.co',
  'https://cdn-lfs-us-1.huggingface.co',
  'https://cdn-lfs-eu-1.huggingface.co',
  'https://*.hf.co',
];
const HUGGING_FACE = 'https://huggingface.co';

/**
 * connect-src entries for models at `urls`: each absolute URL's origin (a relative one is the page's own, 'self'),
 * plus the redirect targets when one of them is on Hugging Face.
 */
export function modelConnectSources(urls: Iterable<string | undefined>): string[] {
  const origins = new Set<string>();
  for (const url of urls) {
    if (url === undefined || url.trim() === '') continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      continue; // relative: same origin
    }
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') origins.add(parsed.origin);
  }
  if (origins.has(HUGGING_FACE)) for (const host of HUGGING_FACE_REDIRECT_HOSTS) origins.add(host);
  return [...origins];
}

/** The defaults every app build allows: Hugging Face (both engines' weights, and its CDN) and web-llm's model-library host. */
export const DEFAULT_MODEL_CONNECT: readonly string[] = modelConnectSources(modelUrlsOf(DEFAULT_SOURCE));

/**
 * The app's connect-src besides 'self': the defaults, and the hosts of the build-time model (`VITE_MODEL_GGUF_URL`,
 * `VITE_MODEL_MLC_URL`), resolved as the app resolves them (an MLC base also brings its model libraries' host).
 */
export function appConnectSources(buildGguf: string | undefined, buildMlc: string | undefined): string[] {
  const built = resolveModelSource({ query: new URLSearchParams(), buildGguf, buildMlc });
  return [...new Set([...DEFAULT_MODEL_CONNECT, ...modelConnectSources(modelUrlsOf(built.source))])];
}

/** A CSP hash source for an inline element's exact text (what the browser hashes: the content between the tags). */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export interface CspInputs {
  /** connect-src entries besides 'self' (see `modelConnectSources`). */
  connect: readonly string[];
  /** Hash sources of the page's inline `<style>` elements (`inlineHash`). */
  styleHashes?: readonly string[];
  /** Hash sources of inline scripts the page's own build wrote (the demo site's service-worker registration). */
  scriptHashes?: readonly string[];
  /** 'meta' (default) or 'header', which adds the directives a meta policy cannot carry. */
  delivery?: 'meta' | 'header';
}

/** The policy, one `directive value…` per `; `, in a fixed order (deterministic, so a test can pin it). */
export function buildCsp(inputs: CspInputs): string {
  const unique = (list: readonly string[]): string[] => [...new Set(list)];
  const directives: Array<[string, readonly string[]]> = [
    // Everything not named below (fonts, media, frames, manifests, prefetches) is refused.
    ['default-src', ["'none'"]],
    // The page's own modules: no inline script but one the build hashed, no eval; wasm (wllama, voy) needs
    // 'wasm-unsafe-eval'.
    ['script-src', ["'self'", "'wasm-unsafe-eval'", ...unique(inputs.scriptHashes ?? [])]],
    // Lit's styles are constructed sheets (not governed by style-src); the page's inline <style> by its hash.
    ['style-src', ["'self'", ...unique(inputs.styleHashes ?? [])]],
    ['img-src', ["'self'", 'data:', 'blob:']],
    ['connect-src', ["'self'", ...unique(inputs.connect).filter((s) => s !== "'self'")]],
    // The engine worker and the service worker are the page's own files; wllama starts its workers from blob: URLs.
    ['worker-src', ["'self'", 'blob:']],
    ['object-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
  ];
  // A meta policy ignores frame-ancestors: only a header can keep the page out of other sites' frames.
  if (inputs.delivery === 'header') directives.push(['frame-ancestors', ["'none'"]]);
  return directives.map(([name, values]) => `${name} ${values.join(' ')}`).join('; ');
}

/** The `<meta>` element carrying `policy` (only `&` and `"` need escaping in the attribute; quotes stay readable). */
export function cspMetaTag(policy: string): string {
  return `<meta http-equiv="Content-Security-Policy" content="${policy.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`;
}
