import { describe, expect, it } from 'vitest';
import type { MemoryChange } from '../../../src/memory/store/store.ts';
import { sleep } from './helpers.ts';
import { openPeer } from './peer-client.ts';
import { scratch } from './scratch.ts';

const { peers, fresh } = scratch();

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const end = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > end) throw new Error('timed out waiting');
    await sleep(20);
  }
}

describe('two pages on one database', () => {
  it('writing to one session at once lose nothing and duplicate nothing', async () => {
    const { name, store } = await fresh('tabs');
    const session = await store.createSession();
    const peers2 = await Promise.all([openPeer(), openPeer()]);
    peers.push(...peers2);
    await Promise.all(peers2.map((p) => p.send({ op: 'open', name })));

    const contents = (who: string): string[] => Array.from({ length: 40 }, (_, i) => `${who} message ${i}`);
    const [a, b, mine] = await Promise.all([
      peers2[0]!.send<string[]>({ op: 'append', sessionId: session.id, contents: contents('alpha') }),
      peers2[1]!.send<string[]>({ op: 'append', sessionId: session.id, contents: contents('bravo') }),
      Promise.all(contents('charlie').map((content) => store.appendTurn({ sessionId: session.id, role: 'user', content }))),
    ]);
    expect(a).toHaveLength(40);
    expect(b).toHaveLength(40);
    expect(mine).toHaveLength(40);

    const turns = await store.listTurns(session.id);
    expect(turns).toHaveLength(120);
    expect(turns.map((t) => t.seq)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
    expect(new Set(turns.map((t) => t.content)).size).toBe(120);
    expect((await store.getSession(session.id))?.lastSeq).toBe(120);
  });

  it('retries with the same ids from two pages do not duplicate turns', async () => {
    const { name, store } = await fresh('tabs-idem');
    const session = await store.createSession();
    const [p, q] = await Promise.all([openPeer(), openPeer()]);
    peers.push(p, q);
    await Promise.all([p.send({ op: 'open', name }), q.send({ op: 'open', name })]);
    const contents = Array.from({ length: 20 }, (_, i) => `same ${i}`);
    await Promise.all([
      p.send({ op: 'append', sessionId: session.id, contents, idPrefix: 'shared-' }),
      q.send({ op: 'append', sessionId: session.id, contents, idPrefix: 'shared-' }),
    ]);
    const turns = await store.listTurns(session.id);
    expect(turns).toHaveLength(20);
    expect(turns.map((t) => t.seq)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it("each page's index and UI learn of the other's writes and deletes", async () => {
    const { name, store } = await fresh('tabs-index');
    await store.index.ready;
    const changes: MemoryChange[] = [];
    store.subscribe((c) => changes.push(c));
    const session = await store.createSession();
    const peer = await openPeer();
    peers.push(peer);
    await peer.send({ op: 'open', name });

    await peer.send({ op: 'append', sessionId: session.id, contents: ['the backup job runs at 03:00 on db2'] });
    await until(() => store.index.size('conversation') === 1);
    const hits = await store.search('when does the backup job run', { k: 3 });
    expect(hits[0]?.chunk.text).toContain('03:00');
    expect(changes.some((c) => c.origin === 'remote' && c.type === 'turns' && c.sessionId === session.id)).toBe(true);

    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'restore drills happen monthly' });
    await until(async () => (await peer.send<number>({ op: 'index-size' })) === 2);
    expect(await peer.send<string[]>({ op: 'search', query: 'restore drills', k: 1 })).toHaveLength(1);

    await store.deleteSession(session.id);
    await until(async () => (await peer.send<number>({ op: 'index-size' })) === 0);
  });
});
