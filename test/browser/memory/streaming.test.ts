import { describe, expect, it } from 'vitest';
import { dbName, openStore, rawDB, sleep } from './helpers.ts';
import { openPeer } from './peer-client.ts';
import { scratch } from './scratch.ts';

const { names, stores, peers, fresh } = scratch();

async function storedTurn(name: string, id: string): Promise<{ status: string; content: string } | undefined> {
  const db = await rawDB(name);
  const turn = (await db.get('turns', id)) as { status: string; content: string } | undefined;
  db.close();
  return turn;
}

describe('a streaming reply', () => {
  it('is stored as it streams (partial), then complete with its exchange chunk', async () => {
    const { name, store } = await fresh('stream');
    const session = await store.createSession();
    const user = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'Explain the KV cache.' });
    const writer = await store.startReply(session.id);
    expect(await storedTurn(name, writer.turnId)).toMatchObject({ status: 'streaming', content: '' });

    writer.append('The KV cache ');
    writer.append('keeps keys');
    await writer.flush();
    expect(await storedTurn(name, writer.turnId)).toMatchObject({ status: 'streaming', content: 'The KV cache keeps keys' });

    writer.append(' and values.');
    const done = await writer.complete();
    expect(done).toMatchObject({ status: 'complete', content: 'The KV cache keeps keys and values.', replyTo: user.id });
    const [chunk] = await store.listChunks(session.id);
    expect(chunk).toMatchObject({ turnIds: [user.id, writer.turnId], text: 'Explain the KV cache.\n\nThe KV cache keeps keys and values.' });
    const hits = await store.search('keys and values', { k: 1 });
    expect(hits[0]?.chunk.id).toBe(chunk!.id);
  });

  it('cut by a closed tab mid-stream, survives a reload marked interrupted, text and chunk kept', async () => {
    const name = dbName('crash');
    names.push(name);
    const setup = await openStore(name);
    const session = await setup.createSession();
    const user = await setup.appendTurn({ sessionId: session.id, role: 'user', content: '讲讲上下文窗口' });
    await setup.close();

    const peer = await openPeer();
    peers.push(peer);
    await peer.send({ op: 'open', name });
    const turnId = await peer.send<string>({ op: 'start-reply', sessionId: session.id });
    await peer.send({ op: 'stream', text: '上下文窗口是模型' });
    await peer.send({ op: 'stream', text: '一次能读的 token 数' });
    await peer.send({ op: 'flush' });
    await peer.send({ op: 'stream', text: '（这一段还没写盘）' });
    // While the writer lives, a store opening elsewhere must leave its reply alone.
    const meanwhile = await openStore(name);
    await meanwhile.whenIdle();
    expect(await meanwhile.getTurn(turnId)).toMatchObject({ status: 'streaming' });
    await meanwhile.close();

    peer.kill();
    await sleep(100);

    const reloaded = await openStore(name);
    stores.push(reloaded);
    await reloaded.whenIdle();
    const turn = await reloaded.getTurn(turnId);
    expect(turn).toMatchObject({ status: 'interrupted', replyTo: user.id });
    expect(turn!.content.startsWith('上下文窗口是模型一次能读的 token 数')).toBe(true);
    const chunks = await reloaded.listChunks(session.id);
    expect(chunks.find((c) => c.kind === 'exchange')?.text).toContain('一次能读的 token 数');
    const hits = await reloaded.search('上下文窗口 token', { k: 1 });
    expect(hits[0]?.chunk.turnIds).toEqual([user.id, turnId]);
  });

  it('stopped by the user, keeps what arrived, marked interrupted', async () => {
    const { store } = await fresh('stop');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'count to ten' });
    const writer = await store.startReply(session.id);
    writer.append('one two three');
    const turn = await writer.interrupt();
    expect(turn).toMatchObject({ status: 'interrupted', content: 'one two three' });
  });

  it('a session deleted under a streaming writer is not resurrected by its later writes', async () => {
    const { name, store } = await fresh('resurrect');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'q' });
    const writer = await store.startReply(session.id);
    writer.append('partial');
    await writer.flush();
    await store.deleteSession(session.id);
    writer.append(' more');
    await writer.flush();
    expect(writer.gone).toBe(true);
    expect(await writer.complete()).toBeNull();
    expect(await storedTurn(name, writer.turnId)).toBeUndefined();
  });
});
