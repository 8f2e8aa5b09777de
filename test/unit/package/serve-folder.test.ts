import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveFolder } from '../../../scripts/package/serve-folder.ts';

let dir = '';
let server: Server;
let port = 0;

/** A raw GET (the path sent as written, not normalised by a URL parser). */
function get(path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => done({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', fail);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'serve-folder-'));
  mkdirSync(join(dir, 'widget/sub'), { recursive: true });
  writeFileSync(join(dir, 'widget/qwen-assistant.js'), 'export {};');
  writeFileSync(join(dir, 'widget/sub/engine.wasm'), 'wasm');
  writeFileSync(join(dir, 'secret.txt'), 'not served');
  const middleware = serveFolder('/docs/qwen-assistant/', () => Promise.resolve(join(dir, 'widget')));
  server = createServer((req, res) => middleware(req, res, () => res.writeHead(404).end('next')));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(dir, { recursive: true, force: true });
});

describe('serveFolder (the widget and docs index under vitepress dev)', () => {
  it('serves the folder’s files below its prefix with their types', async () => {
    expect(await get('/docs/qwen-assistant/qwen-assistant.js?v=1')).toEqual({ status: 200, type: 'text/javascript; charset=utf-8', body: 'export {};' });
    expect((await get('/docs/qwen-assistant/sub/engine.wasm')).type).toBe('application/wasm');
  });

  it('leaves everything else to the next middleware: other paths, missing files, folders, and paths that climb out', async () => {
    for (const path of ['/docs/other.js', '/docs/qwen-assistant/missing.js', '/docs/qwen-assistant/sub', '/docs/qwen-assistant/../secret.txt', '/docs/qwen-assistant/%2e%2e/secret.txt', '/docs/qwen-assistant/sub/..%2f..%2fsecret.txt', '/docs/qwen-assistant/%E0%A4%A']) {
      expect(await get(path), path).toEqual({ status: 404, type: '', body: 'next' });
    }
  });
});
