/**
 * What the rendering tests check after a payload was rendered: nothing that can load or run is in the DOM, the
 * page and its workers requested nothing outside the app's origin, and no payload code ran.
 */
import { expect } from 'vitest';
import { commands } from 'vitest/browser';
import type { LoggedRequest } from '../commands/request-log.ts';
import { EVIL_HOST, EXFIL_FUNCTION, payloadMarker, type Payload } from '../../fixtures/exfiltration-corpus.ts';
import { watchSanitizer, type SanitizerInput } from '../../../src/ui/markdown.ts';
import { isAllowedHref } from '../../../src/ui/sanitize-config.ts';

/** Elements that fetch, run, submit or restyle: none may come from rendered text. */
const ACTIVE_TAGS = new Set([
  'svg', 'math', 'img', 'image', 'picture', 'source', 'video', 'audio', 'track', 'iframe', 'frame', 'frameset', 'object',
  'embed', 'link', 'meta', 'base', 'style', 'script', 'form', 'input', 'textarea', 'select', 'template', 'noscript',
  'xmp', 'marquee', 'map', 'area', 'details', 'use', 'feimage', 'foreignobject', 'set', 'animate', 'mglyph', 'maction',
]);

/** Attributes that hold a URL or CSS (which can hold one). */
const URL_ATTRIBUTES = new Set(['src', 'srcset', 'srcdoc', 'action', 'formaction', 'data', 'poster', 'background', 'ping', 'xlink:href', 'style', 'fill', 'filter', 'mask', 'content', 'usemap', 'lowsrc', 'dynsrc', 'codebase', 'cite']);

export interface AuditOptions {
  /** Our own UI's tags in this subtree (the conversation list's search box, …), not rendered text. */
  ownTags?: readonly string[];
}

/** Every element under `root`, shadow trees included. */
function* elementsUnder(root: ParentNode): Generator<Element> {
  for (const element of root.querySelectorAll('*')) {
    yield element;
    if (element.shadowRoot) yield* elementsUnder(element.shadowRoot);
  }
}

/** What should not be there, as readable lines (empty when the subtree is inert). */
export function findActiveContent(roots: readonly ParentNode[], options: AuditOptions = {}): string[] {
  const own = new Set(options.ownTags ?? []);
  const findings: string[] = [];
  for (const root of roots) {
    for (const element of elementsUnder(root)) {
      const tag = element.localName.toLowerCase();
      if (ACTIVE_TAGS.has(tag) && !own.has(tag)) findings.push(`<${tag}> element`);
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) findings.push(`<${tag} ${name}>`);
        else if (name === 'href' && !isAllowedHref(attribute.value)) findings.push(`<${tag} href="${attribute.value}">`);
        else if (URL_ATTRIBUTES.has(name) && (attribute.value.includes(EVIL_HOST) || attribute.value.includes('url('))) findings.push(`<${tag} ${name}="${attribute.value}">`);
        else if (attribute.value.includes(EXFIL_FUNCTION) && name !== 'title' && name !== 'aria-label') findings.push(`<${tag} ${name}> holds payload code`);
      }
    }
  }
  return findings;
}

/** Payload code that ran, by payload id; `top.__exfil` is what every payload calls. */
export function installExfilTrap(): { ran: string[]; remove: () => void } {
  const ran: string[] = [];
  const trap = (id: unknown): void => void ran.push(String(id));
  const frames = new Set<Window>([window, window.top ?? window]);
  for (const frame of frames) Object.assign(frame, { [EXFIL_FUNCTION]: trap });
  return { ran, remove: () => frames.forEach((frame) => Reflect.deleteProperty(frame, EXFIL_FUNCTION)) };
}

/** Requests outside the app's origin (data: and blob: URLs are local). */
export function offOrigin(requests: readonly LoggedRequest[]): string[] {
  return requests
    .map((request) => request.url)
    .filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== location.origin);
}

/** Lets lazy loads (fonts, lazy images, CSS) start before the log is read. */
export async function settle(ms = 250): Promise<void> {
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** One test's watch over a rendering path: requests, executions and what reached the sanitiser. */
export class RenderWatch {
  readonly sanitized: SanitizerInput[] = [];
  private _stopSanitizer: () => void = () => {};
  private _trap: { ran: string[]; remove: () => void } | null = null;

  async start(): Promise<void> {
    this._trap = installExfilTrap();
    this._stopSanitizer = watchSanitizer((input) => this.sanitized.push(input));
    await commands.startRequestLog();
  }

  /** Proves the payload's text was handed to the sanitiser (so the path cannot pass by not rendering it). */
  expectSanitized(payload: Payload): void {
    const reached = this.sanitized.some((input) => input.text.includes(payloadMarker(payload)) && input.text.includes(payload.text.slice(0, 40)));
    expect(reached, `${payload.id} reached the sanitiser (last seen: ${JSON.stringify(this.sanitized.at(-1)?.text)})`).toBe(true);
  }

  /** Ends the watch: the requests outside the app's origin and the payload code that ran meanwhile. */
  async stop(): Promise<{ offOrigin: string[]; ran: string[] }> {
    await settle();
    const requests = await commands.readRequestLog(true);
    this._stopSanitizer();
    const ran = this._trap?.ran ?? [];
    this._trap?.remove();
    return { offOrigin: offOrigin(requests), ran };
  }

  /** Ends the watch; the page must have requested nothing off-origin and run nothing. */
  async finish(): Promise<void> {
    const { offOrigin, ran } = await this.stop();
    expect(offOrigin, 'requests outside the app origin').toEqual([]);
    expect(ran, 'payload code that ran').toEqual([]);
  }
}
