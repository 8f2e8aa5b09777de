/**
 * Browser commands (run in Node by Vitest's Playwright provider) that hold a download in flight: requests whose URL
 * contains a given text wait, below the page, until released. Tests use it to keep the embedding model's download
 * under way while a chat runs (Chromium routes its dedicated workers' requests through the page's context).
 */
import type { BrowserContext, Route } from 'playwright';
import type { BrowserCommand } from 'vitest/node';

interface Held {
  /** The very function routed with: Playwright's `unroute` finds a route by the matcher it was given, not by its effect. */
  matches: (url: URL) => boolean;
  routes: Route[];
  seen: number;
  handler: (route: Route) => void;
}

const held = new WeakMap<BrowserContext, Held>();

/** From now on, requests whose URL contains `match` are held (until `releaseDownloads`). */
export const holdDownloads: BrowserCommand<[match: string]> = async ({ context }, match) => {
  await release(context);
  const entry: Held = { matches: (url) => url.href.includes(match), routes: [], seen: 0, handler: () => undefined };
  entry.handler = (route: Route) => {
    entry.seen++;
    entry.routes.push(route);
  };
  held.set(context, entry);
  await context.route(entry.matches, entry.handler);
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
  await context.unroute(entry.matches, entry.handler);
  await Promise.all(entry.routes.map((route) => route.continue().catch(() => {})));
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    holdDownloads: (match: string) => Promise<void>;
    heldDownloads: () => Promise<number>;
    releaseDownloads: () => Promise<void>;
  }
}
