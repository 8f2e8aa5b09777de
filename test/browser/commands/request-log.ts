/**
 * Browser commands (run in Node, by Vitest's Playwright provider) that record every request the test page makes:
 * its frames, its dedicated workers (Chromium reports their requests on the page's context) and any service
 * worker. Recording is by the browser, below the page, so a request a payload triggers cannot hide from it.
 */
import type { BrowserContext, Request } from 'playwright';
import type { BrowserCommand } from 'vitest/node';

export interface LoggedRequest {
  url: string;
  method: string;
  /** `document`, `script`, `image`, `fetch`, … as the browser classified it. */
  resourceType: string;
}

const logs = new WeakMap<BrowserContext, { requests: LoggedRequest[]; listener: (request: Request) => void }>();

/** Starts a fresh log for the test's browser context (a running one is replaced). */
export const startRequestLog: BrowserCommand<[]> = ({ context }) => {
  stop(context);
  const requests: LoggedRequest[] = [];
  const listener = (request: Request): void => {
    requests.push({ url: request.url(), method: request.method(), resourceType: request.resourceType() });
  };
  context.on('request', listener);
  logs.set(context, { requests, listener });
};

/** The requests recorded since `startRequestLog`; with `stop`, recording ends. */
export const readRequestLog: BrowserCommand<[stop?: boolean]> = ({ context }, stopAfter = false) => {
  const log = logs.get(context);
  const requests = log ? [...log.requests] : [];
  if (stopAfter) stop(context);
  return requests;
};

function stop(context: BrowserContext): void {
  const log = logs.get(context);
  if (log === undefined) return;
  context.off('request', log.listener);
  logs.delete(context);
}

declare module 'vitest/browser' {
  interface BrowserCommands {
    startRequestLog: () => Promise<void>;
    readRequestLog: (stop?: boolean) => Promise<LoggedRequest[]>;
  }
}
