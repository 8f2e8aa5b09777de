/**
 * Browser commands (run in Node by Vitest's Playwright provider) that hold a download in flight: requests whose URL
 * contains a given text wait, below the page, until released. Tests use it to keep the embedding model's download
 * under way while a chat runs (Chromium routes its dedicated workers' requests through the page's context).
 */
import type { BrowserContext, Route } from 'playwright';
import type { BrowserCommand } from 'vitest/node';

const held = new WeakMap<BrowserContext, { match: string; routes: Route[]; seen: number; handler: (route: Route) => void }>();

/** From now on, requests whose URL contains `match` are held (until `releaseDownloads`). */
export const holdDownloads: BrowserCommand<[match: string]> = async ({ context }, match) => {
  await release(context);
  const entry = { match, routes: [] as Route[], seen: 0, handler: (_route: Route): void => undefined };
  entry.handler = (route: Route) => {
    entry.seen++;
    entry.routes.push(route);
  };
  held.set(context, entry);
  await context.route((url) => url.href.includes(match), entry.handler);
};

/** How many requests were held so far. */
export const heldDownloads: BrowserCommand<[]> = ({ context }) => held.get(context)?.seen ?? 0;

/** Lets the held requests go on, and stops holding. */
export const releaseDownloads: BrowserCommand<[]> = async ({ context }) => {
  await release(context);
};

async function release(context: BrowserContext): Promise<void> {
  const entry = held.get(context);
  if (entry === undefined) return;
  held.delete(context);
  await context.unroute((url) => url.href.includes(entry.match), entry.handler).catch(() => {});
  await Promise.all(entry.routes.map((route) => route.continue().catch(() => {})));
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    holdDownloads: (match: string) => Promise<void>;
    heldDownloads: () => Promise<number>;
    releaseDownloads: () => Promise<void>;
  }
}
