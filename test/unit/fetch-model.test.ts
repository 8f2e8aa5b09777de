/**
 * `fetch-model`'s weights index for an MLC folder: saved as `tensor-cache.json`, the only name web-llm 0.2.86 asks
 * for, whether the host has that name or the older `ndarray-cache.json`; a host that answers every path with a page
 * is refused by name instead of being saved as the index. Served by a local HTTP server standing in for the hub.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DownloadError, fetchTensorCache } from '../../scripts/fetch-model.ts';

const index = (name: string): string => JSON.stringify({ metadata: { source: name }, records: [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }] });

/** Each folder's files; a folder named `page` answers every path with an HTML page, as a single-page host does. */
const FOLDERS: Record<string, Record<string, string>> = {
  current: { 'tensor-cache.json': index('current') },
  older: { 'ndarray-cache.json': index('older') },
  broken: { 'tensor-cache.json': JSON.stringify({ records: [{ path: 'params_shard_0.bin' }] }) },
};

let server: Server;
let quiet: { mockRestore(): void } | undefined;
let base = '';
let dir = '';
const requested: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const path = request.url ?? '/';
    requested.push(path);
    const [, folder, , , file] = path.split('/');
    if (folder === 'page') {
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Docs</title>');
      return;
    }
    const body = FOLDERS[folder ?? '']?.[file ?? ''];
    if (body === undefined) response.writeHead(404).end('not found');
    else response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), 'fetch-model-'));
  quiet = vi.spyOn(console, 'log').mockImplementation(() => {});
});

afterAll(async () => {
  quiet?.mockRestore();
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

describe('fetch-model: an MLC folder’s weights index', () => {
  it('saves tensor-cache.json as served, and lists its shards', async () => {
    requested.length = 0;
    const local = join(dir, 'current');
    const cache = await fetchTensorCache(`${base}/current`, local);
    expect(cache.records.map((r) => r.dataPath)).toEqual(['params_shard_0.bin', 'params_shard_1.bin']);
    expect(await readFile(join(local, 'tensor-cache.json'), 'utf8')).toBe(FOLDERS.current!['tensor-cache.json']);
    expect(requested).toEqual(['/current/resolve/main/tensor-cache.json']);
  });

  it('takes ndarray-cache.json where only the older name exists, and saves it under the name web-llm asks for', async () => {
    requested.length = 0;
    const local = join(dir, 'older');
    const cache = await fetchTensorCache(`${base}/older`, local);
    expect(cache.records).toHaveLength(2);
    expect(await readFile(join(local, 'tensor-cache.json'), 'utf8')).toBe(FOLDERS.older!['ndarray-cache.json']);
    expect(requested).toEqual(['/older/resolve/main/tensor-cache.json', '/older/resolve/main/ndarray-cache.json']);
  });

  it('refuses a page served in place of the index, naming the URL', async () => {
    const error = await fetchTensorCache(`${base}/page`, join(dir, 'page')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(`${base}/page/resolve/main/tensor-cache.json is not JSON (does the host answer unknown paths with a page?).`);
  });

  it('refuses an index whose records have no dataPath', async () => {
    const error = await fetchTensorCache(`${base}/broken`, join(dir, 'broken')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toContain('no list of records with a dataPath each');
  });

  it('reports a folder with neither name as a 404 on the older name', async () => {
    const error = await fetchTensorCache(`${base}/missing`, join(dir, 'missing')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect((error as Error).message).toBe(`${base}/missing/resolve/main/ndarray-cache.json answered HTTP 404.`);
  });
});
