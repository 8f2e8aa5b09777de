/**
 * The page's own Content-Security-Policy, read back at run time. A `<meta http-equiv>` policy binds the document
 * only: the engine's same-origin module worker gets the policy of its own script response (CSP3), none on a static
 * host, so a model on a host outside the page's connect-src would still download from the worker, or, where a header
 * binds the worker too, fail as a bare network error. Before a model load the app and the widget ask here instead,
 * and say which host is missing and how to allow it.
 *
 * Matching follows CSP3's "does url match source list" for the expressions connect-src uses: 'self', `*`, schemes
 * (`https:`) and hosts with an optional scheme, `*.` wildcard, port and path. A header policy cannot be read from
 * script; only meta policies are checked (with none, as on the dev server, nothing is).
 */
import { AssistantError } from './errors.ts';

/** The source list that limits fetches in one policy: connect-src, else default-src; null when neither is set. */
export function connectSourcesOf(policy: string): string[] | null {
  const directives = new Map<string, string[]>();
  for (const part of policy.split(';')) {
    const [name, ...values] = part.trim().split(/[\t\n\f\r ]+/);
    // The first occurrence of a directive wins; later duplicates are ignored, as browsers do.
    if (name !== undefined && name !== '' && !directives.has(name.toLowerCase())) directives.set(name.toLowerCase(), values);
  }
  return directives.get('connect-src') ?? directives.get('default-src') ?? null;
}

/** Whether a fetch of `url` from a page at `self` is allowed by `sources` (a connect-src list). */
export function allowedBySources(url: URL, sources: readonly string[], self: URL): boolean {
  return sources.some((source) => matchesExpression(url, source, self));
}

/** The policies of the page's CSP meta elements (each one is enforced on its own). */
export function pagePolicies(doc: Document | undefined = globalThis.document): string[] {
  if (doc === undefined) return [];
  return [...doc.querySelectorAll('head meta[http-equiv="content-security-policy" i]')].map((meta) => meta.getAttribute('content') ?? '');
}

/** The first of `urls` that a policy of the page would block from being fetched, or null. */
export function firstBlocked(urls: Iterable<string>, policies: readonly string[], page: string): URL | null {
  const self = new URL(page);
  const lists = policies.map(connectSourcesOf).filter((list): list is string[] => list !== null);
  if (lists.length === 0) return null;
  for (const href of urls) {
    let url: URL;
    try {
      url = new URL(href, self);
    } catch {
      continue; // not a URL: the load fails with its own error
    }
    if (!lists.every((list) => allowedBySources(url, list, self))) return url;
  }
  return null;
}

/** Whether the page's CSP meta allows fetching `url` (true with none). */
export function pageAllowsConnect(url: string, policies = pagePolicies()): boolean {
  return policies.length === 0 || firstBlocked([url], policies, globalThis.location.href) === null;
}

/**
 * Throws `invalid_config` when the page's CSP meta blocks one of `urls`: the message names the origin and ends
 * with `howToAllow`, which the caller words for where the policy comes from (the app's build, a widget host).
 */
export function assertConnectAllowed(urls: Iterable<string>, howToAllow: (origin: string) => string, policies = pagePolicies()): void {
  if (policies.length === 0) return;
  const blocked = firstBlocked(urls, policies, globalThis.location.href);
  if (blocked === null) return;
  throw new AssistantError(
    'invalid_config',
    `The model host ${blocked.origin} is not allowed by this page's Content-Security-Policy (connect-src), so ${blocked.href} cannot be downloaded. ${howToAllow(blocked.origin)}`,
  );
}

const HOST_SOURCE = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::(\*|[0-9]+))?(\/[^?#]*)?$/i;
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443', 'ws:': '80', 'wss:': '443' };
/** Schemes `*` stands for: the network ones (CSP3 §6.7.2.5), never data:, blob: or filesystem:. */
const NETWORK = new Set(['http:', 'https:', 'ws:', 'wss:', 'ftp:']);

function matchesExpression(url: URL, expression: string, self: URL): boolean {
  const lower = expression.toLowerCase();
  if (lower === '*') return NETWORK.has(url.protocol) || url.protocol === self.protocol;
  if (lower === "'self'") return matchesSelf(url, self);
  if (lower.startsWith("'")) return false; // 'none', hashes, nonces and other keywords name no URL
  if (/^[a-z][a-z0-9+.-]*:$/.test(lower)) return schemeMatches(lower, url.protocol);
  const host = HOST_SOURCE.exec(expression);
  if (host === null) return false;
  const [, scheme, hostPart = '', portPart, pathPart] = host;
  if (!schemeMatches(scheme === undefined ? self.protocol : `${scheme.toLowerCase()}:`, url.protocol)) return false;
  if (!hostMatches(hostPart.toLowerCase(), url.hostname.toLowerCase())) return false;
  if (!portMatches(portPart, url)) return false;
  return pathMatches(pathPart, url.pathname);
}

/** 'self': the page's origin, and its secure upgrades on the same host (http→https, ws→wss). */
function matchesSelf(url: URL, self: URL): boolean {
  if (url.origin === self.origin) return true;
  if (url.hostname !== self.hostname) return false;
  const samePort = (url.port || DEFAULT_PORTS[url.protocol]) === (self.port || DEFAULT_PORTS[self.protocol]);
  const upgrade = self.protocol === 'http:' && (url.protocol === 'https:' || url.protocol === 'wss:');
  return upgrade && (samePort || (url.port === '' && self.port === ''));
}

/** A scheme in the policy also allows its secure variant. */
function schemeMatches(expected: string, actual: string): boolean {
  if (expected === actual) return true;
  if (expected === 'http:') return actual === 'https:';
  if (expected === 'ws:') return actual === 'wss:' || actual === 'http:' || actual === 'https:';
  if (expected === 'wss:') return actual === 'https:';
  return false;
}

/** `*` is any host; `*.example.com` any subdomain at any depth (not example.com itself). */
function hostMatches(pattern: string, host: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return pattern === host;
}

/** No port in the policy means the URL's scheme's default port; `*` means any. */
function portMatches(port: string | undefined, url: URL): boolean {
  if (port === '*') return true;
  const actual = url.port || DEFAULT_PORTS[url.protocol];
  if (port === undefined) return url.port === '';
  return Number(port) === Number(actual);
}

/** A path ending in `/` is a folder (a prefix); any other is one exact file. */
function pathMatches(path: string | undefined, actual: string): boolean {
  if (path === undefined || path === '/') return true;
  const expected = safeDecode(path);
  const pathname = safeDecode(actual);
  return expected.endsWith('/') ? pathname.startsWith(expected) : pathname === expected;
}

function safeDecode(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
