/** The test side of peer.ts: opens the peer page in an iframe and sends it commands. */
import type { PeerCommand } from './peer.ts';

export interface Peer {
  send<T = unknown>(command: PeerCommand): Promise<T>;
  /** Removes the iframe: the page dies as a closed tab would (its locks are released, nothing is flushed). */
  kill(): void;
}

export async function openPeer(): Promise<Peer> {
  const frame = document.createElement('iframe');
  frame.src = new URL('./peer.html', import.meta.url).href;
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the peer page did not start')), 20_000);
    const onMessage = (event: MessageEvent<{ ready?: boolean }>): void => {
      if (event.source === frame.contentWindow && event.data.ready === true) {
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        resolve();
      }
    };
    window.addEventListener('message', onMessage);
  });
  document.body.append(frame);
  await ready;
  let nextId = 1;
  return {
    send<T>(command: PeerCommand): Promise<T> {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        const onMessage = (event: MessageEvent<{ id?: number; result?: T; error?: string }>): void => {
          if (event.source !== frame.contentWindow || event.data.id !== id) return;
          window.removeEventListener('message', onMessage);
          if (event.data.error !== undefined) reject(new Error(event.data.error));
          else resolve(event.data.result as T);
        };
        window.addEventListener('message', onMessage);
        frame.contentWindow!.postMessage({ id, command }, '*');
      });
    },
    kill(): void {
      frame.remove();
    },
  };
}
