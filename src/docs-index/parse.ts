/**
 * Validation of the docs index files as read back (by the widget over the network, by the indexer from disk): a
 * parsed JSON value becomes a typed `DocsManifest` / `DocsPageFile`, or an `invalid_input` error naming the field.
 * Also guards what a hostile index could do: page files must be `pages/<hash>.json` (so a reader fetches nothing
 * outside the index folder) and page URLs must be plain paths (no `javascript:` link under an answer).
 */
import { AssistantError } from '../shared/errors.ts';
import { DOCS_INDEX_VERSION, type DocsChunk, type DocsManifest, type DocsMemoryEntry, type DocsPageEntry, type DocsPageFile } from './format.ts';
import { isBase64 } from './vector-codec.ts';

type Obj = Record<string, unknown>;

function fail(what: string, path: string, problem: string): never {
  throw new AssistantError('invalid_input', `Invalid docs ${what}: ${path} ${problem}.`);
}

function object(what: string, value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(what, path, 'is not an object');
  return value as Obj;
}

function string(what: string, o: Obj, key: string, path: string): string {
  const value = o[key];
  if (typeof value !== 'string') fail(what, `${path}${key}`, 'is not a string');
  return value;
}

function count(what: string, o: Obj, key: string, path: string): number {
  const value = o[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(what, `${path}${key}`, 'is not an integer ≥ 0');
  return value;
}

function array(what: string, o: Obj, key: string, path: string): unknown[] {
  const value = o[key];
  if (!Array.isArray(value)) fail(what, `${path}${key}`, 'is not an array');
  return value;
}

function version(what: string, o: Obj): typeof DOCS_INDEX_VERSION {
  if (o.version !== DOCS_INDEX_VERSION) fail(what, 'version', `is ${JSON.stringify(o.version)}, expected ${DOCS_INDEX_VERSION}`);
  return DOCS_INDEX_VERSION;
}

const HASH = /^[0-9a-f]{64}$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function hash(what: string, o: Obj, path: string): string {
  const value = string(what, o, 'hash', path);
  if (!HASH.test(value)) fail(what, `${path}hash`, 'is not a sha-256 hex digest');
  return value;
}

/** A page path below the base URL: no scheme, not protocol-relative. */
function pageUrl(what: string, o: Obj, path: string): string {
  const value = string(what, o, 'url', path);
  if (SCHEME.test(value) || value.startsWith('//') || value.startsWith('\\')) fail(what, `${path}url`, `"${value}" is not a relative page path`);
  return value;
}

function baseUrl(o: Obj): string {
  const value = string('manifest', o, 'baseUrl', '');
  const scheme = SCHEME.exec(value)?.[0].toLowerCase();
  if (scheme !== undefined && scheme !== 'http:' && scheme !== 'https:') fail('manifest', 'baseUrl', `"${value}" is neither a path nor an http(s) URL`);
  return value;
}

function pageEntry(value: unknown, i: number): DocsPageEntry {
  const path = `pages[${i}].`;
  const o = object('manifest', value, `pages[${i}]`);
  const entry: DocsPageEntry = {
    url: pageUrl('manifest', o, path),
    title: string('manifest', o, 'title', path),
    hash: hash('manifest', o, path),
    file: string('manifest', o, 'file', path),
    chunks: count('manifest', o, 'chunks', path),
  };
  if (entry.file !== `pages/${entry.hash}.json`) fail('manifest', `${path}file`, `"${entry.file}" is not pages/<hash>.json`);
  return entry;
}

export function parseDocsManifest(json: unknown): DocsManifest {
  const o = object('manifest', json, 'the manifest');
  const v = version('manifest', o);
  const createdAt = string('manifest', o, 'createdAt', '');
  const e = object('manifest', o.embedder, 'embedder');
  const embedder = {
    id: string('manifest', e, 'id', 'embedder.'),
    version: count('manifest', e, 'version', 'embedder.'),
    dimensions: count('manifest', e, 'dimensions', 'embedder.'),
  };
  if (embedder.dimensions === 0) fail('manifest', 'embedder.dimensions', 'is 0');
  const pages = array('manifest', o, 'pages', '').map(pageEntry);
  const seen = new Set<string>();
  pages.forEach((p, i) => {
    if (seen.has(p.url)) fail('manifest', `pages[${i}].url`, `"${p.url}" is listed twice`);
    seen.add(p.url);
  });
  const memory = o.memory === undefined ? undefined : memoryEntry(o.memory);
  return { version: v, createdAt, embedder, baseUrl: baseUrl(o), pages, ...(memory === undefined ? {} : { memory }) };
}

const MEMORY_FILE = /^memory\/[0-9a-f]{64}\.bin$/;

function memoryEntry(value: unknown): DocsMemoryEntry {
  const o = object('manifest', value, 'memory');
  const file = string('manifest', o, 'file', 'memory.');
  if (!MEMORY_FILE.test(file)) fail('manifest', 'memory.file', `"${file}" is not memory/<hash>.bin`);
  return { file, key: string('manifest', o, 'key', 'memory.'), bytes: count('manifest', o, 'bytes', 'memory.') };
}

function chunk(value: unknown, i: number): DocsChunk {
  const path = `chunks[${i}].`;
  const o = object('page file', value, `chunks[${i}]`);
  const anchor = string('page file', o, 'anchor', path);
  const heading = string('page file', o, 'heading', path);
  const text = string('page file', o, 'text', path);
  const tokens = count('page file', o, 'tokens', path);
  const vec = object('page file', o.vector, `${path}vector`);
  const scale = vec.scale;
  if (typeof scale !== 'number' || !Number.isFinite(scale) || scale < 0) fail('page file', `${path}vector.scale`, 'is not a finite number ≥ 0');
  const q = string('page file', vec, 'q', `${path}vector.`);
  if (!isBase64(q)) fail('page file', `${path}vector.q`, 'is not base64');
  return { anchor, heading, text, tokens, vector: { scale, q } };
}

export function parseDocsPageFile(json: unknown): DocsPageFile {
  const o = object('page file', json, 'the page file');
  return {
    version: version('page file', o),
    url: pageUrl('page file', o, ''),
    title: string('page file', o, 'title', ''),
    hash: hash('page file', o, ''),
    chunks: array('page file', o, 'chunks', '').map(chunk),
  };
}
