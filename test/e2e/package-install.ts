/**
 * The packed package (global-setup.ts's `npm pack`) as a site installs it: `npm install <tarball>` into a folder
 * of its own, offline (the package has no dependencies to fetch), and a static server for what a site builds,
 * sending no COOP/COEP (as most docs hosts).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { preview } from 'vite';
import { SHARED_PACKAGE_TARBALL } from './global-setup.ts';

/** `npm install` of the packed package into `dir` (created, with a package.json of its own); returns npm's output. */
export function installPackage(dir: string): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'a-docs-site', private: true, type: 'module' }, null, 2)}\n`);
  return execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', resolve(SHARED_PACKAGE_TARBALL)], { cwd: dir, encoding: 'utf8' });
}

/** Runs the installed package's command in `dir` as a site's maintainer would (`npx qwen-assistant …`). */
export function npx(dir: string, args: readonly string[]): { status: number; output: string } {
  try {
    return { status: 0, output: execFileSync('npx', ['--offline', '--no', '--', 'qwen-assistant', ...args], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (error) {
    const e = error as { status?: number; stdout?: string; stderr?: string };
    return { status: e.status ?? 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

/** Serves a built folder over HTTP on 127.0.0.1, without COOP/COEP. */
export async function serveStatic(dir: string): Promise<StaticServer> {
  const server = await preview({
    configFile: false,
    root: process.cwd(),
    appType: 'mpa',
    logLevel: 'error',
    build: { outDir: dir },
    preview: { port: 0, host: '127.0.0.1', headers: {} },
  });
  const port = (server.httpServer.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.httpServer.close(() => done())),
  };
}
