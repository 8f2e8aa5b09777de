/**
 * Browser commands (run in Node by Vitest) that hold a download in flight: requests to the test's dev server whose
 * URL contains a given text wait there, before the server answers them, until released. Tests use it to keep the
 * embedding model's download under way while a chat runs.
 *
 * The hold is a middleware of the dev server (`holdDownloadsPlugin`), not a Playwright route: registering a route on
 * the browser context took about 2 s even on an idle machine, and in two loaded full runs a test waited on it (or on
 * its removal) past its 60 s timeout. The commands and the middleware share this module's state: Vitest runs both in
 * its own process, and the browser files run one at a time.
 */
import type { Plugin } from 'vite';
import type { BrowserCommand } from 'vitest/node';

interface HoldState {
  /** The text a held URL contains; null when nothing is held. */
  match: string | null;
  /** Held requests, each waiting to go on to the server's next handler. */
  waiting: Array<() => void>;
  seen: number;
}

const state: HoldState = { match: null, waiting: [], seen: 0 };

/** The dev-server side: a request whose URL holds the text waits until `releaseDownloads`. */
export function holdDownloadsPlugin(): Plugin {
  return {
    name: 'test-hold-downloads',
    configureServer(server) {
      // Added before Vite's own handlers, so a held request reaches the static files only once released.
      server.middlewares.use((req, _res, next) => {
        if (state.match === null || !(req.url ?? '').includes(state.match)) {
          next();
          return;
        }
        state.seen++;
        state.waiting.push(() => next());
      });
    },
  };
}

/** From now on, requests whose URL contains `match` are held (until `releaseDownloads`). */
export const holdDownloads: BrowserCommand<[match: string]> = (_context, match) => {
  release();
  state.match = match;
  state.seen = 0;
};

/** How many requests were held so far. */
export const heldDownloads: BrowserCommand<[]> = () => state.seen;

/** Lets the held requests go on, and stops holding. */
export const releaseDownloads: BrowserCommand<[]> = () => {
  release();
};

function release(): void {
  state.match = null;
  for (const go of state.waiting.splice(0)) go();
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    holdDownloads: (match: string) => Promise<void>;
    heldDownloads: () => Promise<number>;
    releaseDownloads: () => Promise<void>;
  }
}
