/**
 * A Connect-style middleware that serves the files of one folder below a URL prefix: the widget and the docs
 * index under `vitepress dev`, which serves neither (they exist only in the built site). GET/HEAD only; a path
 * that leaves the folder, or a missing file, falls through to the next middleware.
 */
import { createReadStream, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.html': 'text/html; charset=utf-8',
};

export type Middleware = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/** Serves `folder()` (awaited per request: it may still be being written) at `prefix` (`/base/qwen-assistant/`). */
export function serveFolder(prefix: string, folder: () => Promise<string> | string): Middleware {
  return (req, res, next) => {
    let path: string;
    try {
      path = decodeURIComponent((req.url ?? '').split(/[?#]/)[0]!);
    } catch {
      return next(); // a malformed escape: not one of ours
    }
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !path.startsWith(prefix)) return next();
    void (async () => {
      const root = await folder();
      const file = normalize(join(root, path.slice(prefix.length)));
      let size: number;
      try {
        const stat = statSync(file);
        if (!stat.isFile() || !file.startsWith(root.endsWith(sep) ? root : root + sep)) return next();
        size = stat.size;
      } catch {
        return next();
      }
      const ext = /\.[^./]+$/.exec(file)?.[0] ?? '';
      res.writeHead(200, { 'Content-Type': TYPES[ext] ?? 'application/octet-stream', 'Content-Length': size, 'Cache-Control': 'no-cache' });
      if (req.method === 'HEAD') res.end();
      else createReadStream(file).pipe(res);
    })().catch(() => next());
  };
}
