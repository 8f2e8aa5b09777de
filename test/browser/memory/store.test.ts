import { describe, expect, it } from 'vitest';
import { HashedNgramEmbedder } from '../../../src/memory/embedders/hashed-ngram.ts';
import { openMemoryDB, writeTx } from '../../../src/memory/store/db.ts';
import { StatsKeeper } from '../../../src/memory/store/stats-keeper.ts';
import { MemoryStore } from '../../../src/memory/store/store.ts';
import { captureLogger, countAll, dbName, openStore, rawDB } from './helpers.ts';
import { scratch } from './scratch.ts';

const { names, stores, fresh } = scratch();

describe('memory store: round trip', () => {
  it('stores sessions and turns and gives them back after a reload, in order', async () => {
    const { name, store } = await fresh('roundtrip');
    const session = await store.createSession({ title: '运维' });
    const user = await store.appendTurn({ sessionId: session.id, role: 'user', content: '我们的服务器还有多久到期？', tags: ['ops'] });
    const reply = await store.appendTurn({ sessionId: session.id, role: 'assistant', content: '证书在 3 月 1 日到期。' });
    expect(user.seq).toBe(1);
    expect(reply).toMatchObject({ seq: 2, replyTo: user.id, status: 'complete' });
    await store.close();

    const again = await openStore(name);
    stores.push(again);
    const turns = await again.listTurns(session.id);
    expect(turns.map((t) => [t.seq, t.role, t.content, t.tags])).toEqual([
      [1, 'user', '我们的服务器还有多久到期？', ['ops']],
      [2, 'assistant', '证书在 3 月 1 日到期。', []],
    ]);
    expect((await again.listSessions()).map((s) => s.title)).toEqual(['运维']);
    const chunks = await again.listChunks(session.id);
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ kind: 'exchange', turnIds: [user.id, reply.id], text: '我们的服务器还有多久到期？\n\n证书在 3 月 1 日到期。' });
  });

  it('write before read: a turn is searchable as soon as appendTurn resolves, even before the index is ready', async () => {
    const { store } = await fresh('wbr');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'The nginx config lives in /etc/nginx/sites-enabled' });
    const hits = await store.search('where is the nginx config?', { k: 5 });
    expect(hits[0]?.chunk.text).toContain('/etc/nginx');
  });

  it("a large store's own vector index waits (a page's start does not compete with it) until its first search asks", async () => {
    const { name, store } = await fresh('lazy-index');
    const session = await store.createSession();
    const contents = Array.from({ length: 2_400 }, (_, i) => (i % 2 === 0 ? `Which rack holds server ${i}?` : `Server ${i - 1} is in rack ${i % 17}.`));
    await store.importTurns(session.id, contents.map((content, i) => ({ role: i % 2 === 0 ? ('user' as const) : ('assistant' as const), content })));
    await store.close();

    const again = await openStore(name);
    stores.push(again);
    // Well before INDEX_START_DELAY_MS (4 s): 1,200 exchange chunks, so not rebuilt at open.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(again.index.isReady).toBe(false);
    const hits = await again.search('Which rack holds server 1200?', { k: 3, wait: true });
    expect(again.index.isReady).toBe(true);
    expect(hits[0]?.chunk.text).toContain('server 1200');
  });

  it('long turns get parts of at most 400 tokens pointing to their turn', async () => {
    const { store } = await fresh('parts');
    const session = await store.createSession();
    const long = Array.from({ length: 60 }, (_, i) => `第${i}段：日志里出现了连接超时，我们检查了防火墙和端口配置。`).join('\n\n');
    const turn = await store.appendTurn({ sessionId: session.id, role: 'user', content: long });
    const parts = (await store.listChunks(session.id)).filter((c) => c.kind === 'part').sort((a, b) => a.part - b.part);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) {
      expect(part.turnIds).toEqual([turn.id]);
      expect(part.tokenCount).toBeLessThanOrEqual(400);
      expect(long.slice(part.start, part.end)).toBe(part.text);
    }
    expect(parts.map((p) => p.text).join('')).toBe(long);
  });

  it('an append retried with the same id is not a duplicate', async () => {
    const { store } = await fresh('idem');
    const session = await store.createSession();
    const a = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'hello', id: 'turn-1' });
    const b = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'hello', id: 'turn-1' });
    expect(b).toEqual(a);
    expect(await store.listTurns(session.id)).toHaveLength(1);
  });

  it('an append to a session that does not exist is refused with invalid_input', async () => {
    const { store } = await fresh('nosession');
    await expect(store.appendTurn({ sessionId: 'nope', role: 'user', content: 'x' })).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('a reply naming a question that is not stored is an exchange of its own, and the next exchange is unaffected', async () => {
    const { store } = await fresh('orphan-reply');
    const session = await store.createSession();
    const orphan = await store.appendTurn({ sessionId: session.id, role: 'assistant', content: 'The backup runs at 02:00.', replyTo: 'never-stored' });
    const asked = await store.appendTurn({ sessionId: session.id, role: 'user', content: 'And the restore test?' });
    const answer = await store.appendTurn({ sessionId: session.id, role: 'assistant', content: 'Every Sunday.' });
    expect([orphan.seq, asked.seq, answer.seq]).toEqual([1, 2, 3]);
    const chunks = await store.listChunks(session.id);
    expect(chunks.map((c) => [c.kind, c.turnIds, c.text]).sort()).toEqual(
      [
        ['exchange', [orphan.id], 'The backup runs at 02:00.'],
        ['exchange', [asked.id, answer.id], 'And the restore test?\n\nEvery Sunday.'],
      ].sort(),
    );
  });

  it('a write that fails inside a transaction is reported as itself, not as the abort it caused', async () => {
    const name = dbName('first-failure');
    names.push(name);
    const db = await openMemoryDB(name);
    try {
      const session = { id: 's1', title: '', createdAt: 1, updatedAt: 1, lastSeq: 0 };
      await db.put('sessions', session);
      // The failing write is awaited last, as the append awaits its writes: the read after it fails first, with AbortError.
      const failed = writeTx(db, ['sessions'], async (tx) => {
        const written = tx.objectStore('sessions').add(session);
        written.catch(() => undefined);
        await tx.objectStore('sessions').get('s1');
        await written;
      });
      await expect(failed).rejects.toMatchObject({ code: 'internal', message: expect.stringMatching(/Key already exists/i) });
      expect(await db.get('sessions', 's1')).toEqual(session);
    } finally {
      db.close();
    }
  });

  it('records retrieval statistics for heat', async () => {
    const { store } = await fresh('heat');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'alpha beta gamma' });
    const [hit] = await store.search('alpha', { k: 1 });
    expect(await store.recordRetrieval([hit!.chunk.id])).toBe(1);
    const [chunk] = await store.listChunks(session.id);
    expect(chunk!.heat).toMatchObject({ hits: 1, lastHitRetrieval: 1 });
  });
});

describe('memory store: import', () => {
  it('imports many turns in batches, with exchanges and vectors; a re-import adds nothing', async () => {
    const { store } = await fresh('import');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'before the import' });
    const turns = Array.from({ length: 300 }, (_, i) => ({
      id: `imp-${i}`,
      role: i % 2 === 0 ? ('assistant' as const) : ('user' as const),
      content: i % 2 === 0 ? `answer ${i}: restart the ${i % 7 === 0 ? 'postgres' : 'redis'} service` : `question ${i}`,
    }));
    const progress: number[] = [];
    expect(await store.importTurns(session.id, turns, { batchSize: 64, onProgress: (done) => progress.push(done) })).toBe(300);
    expect(progress.at(-1)).toBe(300);
    const stored = await store.listTurns(session.id);
    expect(stored.map((t) => t.seq)).toEqual(Array.from({ length: 301 }, (_, i) => i + 1));
    // The first imported turn is a reply: it answers the user turn stored before the import.
    expect(stored[1]).toMatchObject({ id: 'imp-0', replyTo: stored[0]!.id });
    expect(stored[3]).toMatchObject({ id: 'imp-2', replyTo: 'imp-1' });
    const chunks = await store.listChunks(session.id);
    expect(chunks).toHaveLength(151);
    expect(chunks.find((c) => c.turnIds[0] === 'imp-1')).toMatchObject({ turnIds: ['imp-1', 'imp-2'], text: 'question 1\n\nanswer 2: restart the redis service' });
    await store.index.ready;
    expect(store.index.size('conversation')).toBe(151);
    const hits = await store.search('restart postgres', { k: 3 });
    expect(hits[0]?.chunk.text).toContain('postgres');
    expect(await store.importTurns(session.id, turns)).toBe(0);
    expect(await store.listTurns(session.id)).toHaveLength(301);
  });
});

describe('memory store: deleting', () => {
  it('deleting a session removes its turns, chunks, vectors, items and index entries, and nothing else', async () => {
    const { name, store } = await fresh('delete');
    const keep = await store.createSession();
    const drop = await store.createSession();
    await store.appendTurn({ sessionId: keep.id, role: 'user', content: 'keep me: kubernetes cluster' });
    await store.appendTurn({ sessionId: drop.id, role: 'user', content: 'drop me: kubernetes certificates' });
    await store.appendTurn({ sessionId: drop.id, role: 'assistant', content: 'renew them with kubeadm' });
    await store.putWorkingItem({ sessionId: drop.id, kind: 'entity', key: 'cluster', value: 'k8s-prod' });
    await store.index.ready;
    expect(store.index.size('conversation')).toBe(2);

    await store.deleteSession(drop.id);
    expect(store.index.size('conversation')).toBe(1);
    const hits = await store.search('kubernetes', { k: 10 });
    expect(hits.map((h) => h.chunk.sessionId)).toEqual([keep.id]);
    const db = await rawDB(name);
    const leftovers = [
      ...(await db.getAll('turns')),
      ...(await db.getAll('chunks')),
      ...(await db.getAll('vectors')),
      ...(await db.getAll('workingItems')),
      ...(await db.getAll('sessions')),
    ].filter((r) => JSON.stringify(r).includes(drop.id));
    db.close();
    expect(leftovers).toEqual([]);
    expect((await store.listTurns(keep.id)).length).toBe(1);
  });

  it('"delete everything" leaves no user data behind, in the database or in memory', async () => {
    const { name, store } = await fresh('everything');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'secret: my password hint is blue' });
    await store.putWorkingItem({ sessionId: null, kind: 'preference', key: 'lang', value: 'zh' });
    await store.putDoc({ docId: 'manual', source: 'manual.md', texts: ['install with npm'] });
    await store.recordRetrieval([]);
    await store.close();
    const again = await openStore(name);
    stores.push(again);
    await again.whenIdle();

    await again.putMemoryVectors([{ embedder: 'engine:m@1', id: 't', scope: session.id, textHash: 'h', vector: new Float32Array([1, 0]) }]);
    await again.deleteEverything();
    const counts = await countAll(name);
    expect({ ...counts, meta: undefined }).toEqual({
      sessions: 0, turns: 0, chunks: 0, vectors: 0, workingItems: 0, docChunks: 0, memoryVectors: 0, meta: undefined,
    });
    const db = await rawDB(name);
    expect((await db.getAllKeys('meta')).sort()).toEqual(['embedder', 'schema']);
    db.close();
    expect(again.index.size('conversation') + again.index.size('docs')).toBe(0);
    expect(await again.search('password', { k: 5 })).toEqual([]);
    expect(again.embedder.stats?.documents).toBe(0);
  });
});

describe('memory store: docs namespace', () => {
  it('doc chunks are searched on their own and never mixed with conversation memory', async () => {
    const { store } = await fresh('docs');
    const session = await store.createSession();
    await store.appendTurn({ sessionId: session.id, role: 'user', content: 'how do I rotate TLS certificates?' });
    await store.putDoc({ docId: 'ops', source: 'ops.md', texts: ['Rotate TLS certificates with certbot renew.', 'Backups run nightly.'] });
    const docs = await store.search('rotate TLS certificates', { namespace: 'docs', k: 5 });
    const talk = await store.search('rotate TLS certificates', { k: 5 });
    expect(docs.every((h) => h.namespace === 'docs')).toBe(true);
    expect(docs[0]?.chunk.text).toContain('certbot');
    expect(talk.map((h) => h.namespace)).toEqual(['conversation']);
    await store.deleteDoc('ops');
    expect(await store.search('certbot', { namespace: 'docs', k: 5 })).toEqual([]);
  });

  it('a large docs write has its IDF statistics saved once counted, so the next visit restores rather than recounts them', async () => {
    const { name, store } = await fresh('stats-large');
    await store.whenIdle();
    // 40 pages of 25 sections in one write, as a docs sync writes them: far over what is counted at once, so it is
    // counted in the background.
    const pages = Array.from({ length: 40 }, (_, p) => ({
      docId: `page-${p}`,
      source: `page-${p}.md`,
      texts: Array.from({ length: 25 }, (_, i) => `Section ${i} of page ${p} explains the frobnic setting number ${p * 25 + i} and how to change it.`),
    }));
    await store.putDocs(pages);
    await store.whenIdle();
    const db = await rawDB(name);
    const saved = (await db.getAll('meta')).filter((r: { key: string }) => r.key.startsWith('stats:')) as Array<{ documents: number }>;
    db.close();
    // Saved without waiting for the quiet time, and counting every chunk (a drifted count makes the next open recount).
    expect(saved.map((r) => r.documents)).toEqual([1_000]);
  });

  it('a message stored the moment the page opens is counted in the IDF statistics restored from the last visit', async () => {
    const { name, store } = await fresh('stats-open');
    const session = await store.createSession();
    for (let i = 0; i < 40; i++) await store.appendTurn({ sessionId: session.id, role: 'user', content: `note ${i}: the backup of volume ${i} runs at ${i % 24}:00` });
    await store.close(); // saves the snapshot
    const again = await openStore(name);
    stores.push(again);
    // At once, while the snapshot is still being read: the message is written without waiting for it, and its
    // chunk is counted after the restore rather than overwritten by it.
    await again.appendTurn({ sessionId: session.id, role: 'user', content: 'and the archive job runs weekly on Sundays' });
    await again.whenIdle();
    const { chunks, docChunks } = await countAll(name);
    expect(chunks).toBe(41);
    expect(again.embedder.stats?.documents).toBe(chunks! + docChunks!);
  });

  it('a snapshot of the IDF statistics that drifted from the chunks (another tab, a crash) is recounted once the store is idle', async () => {
    const { name, store } = await fresh('stats-drift');
    const session = await store.createSession();
    for (let i = 0; i < 30; i++) await store.appendTurn({ sessionId: session.id, role: 'user', content: `reminder ${i}: water the plant on shelf ${i}` });
    await store.close();
    const db = await rawDB(name);
    const [key] = (await db.getAllKeys('meta')).filter((k) => String(k).startsWith('stats:'));
    const saved = (await db.get('meta', key!)) as { documents: number };
    expect(saved.documents).toBe(30);
    await db.put('meta', { ...saved, documents: 90 }); // as if another tab had written 60 chunks and they were gone
    db.close();
    const again = await openStore(name);
    stores.push(again);
    await again.whenIdle();
    expect(again.embedder.stats?.documents).toBe(30);
  });

  it('IDF changes made while the snapshot is being restored are counted after it, not overwritten by it', async () => {
    const { name, store } = await fresh('stats-order');
    await store.close();
    const db = await openMemoryDB(name);
    const lastVisit = new HashedNgramEmbedder();
    lastVisit.stats.add(['the backup runs nightly', 'certificates renew monthly', 'logs rotate weekly']);
    const snapshot = lastVisit.stats.snapshot();
    const embedder = new HashedNgramEmbedder();
    const keeper = new StatsKeeper(db, captureLogger(), () => 0);
    let readSnapshot!: () => void;
    const reading = new Promise<void>((resolve) => (readSnapshot = resolve));
    const restored = keeper.restoring(async () => {
      await reading;
      embedder.stats.restore(snapshot);
    });
    keeper.change(embedder, ['a message stored while the snapshot is read'], []);
    readSnapshot();
    await restored;
    await keeper.counted();
    db.close();
    expect(embedder.stats.documents).toBe(4);
  });

  it('working-memory items round-trip, expire, and pinned ones stay', async () => {
    const name = dbName('items');
    names.push(name);
    let now = 1_000;
    const store = await MemoryStore.open({ name, logger: captureLogger(), now: () => now });
    stores.push(store);
    const session = await store.createSession();
    await store.putWorkingItem({ sessionId: session.id, kind: 'entity', key: 'ip', value: '10.0.0.1', expiresAt: 2_000, sourceTurnId: 't1' });
    now += 1;
    await store.putWorkingItem({ sessionId: session.id, kind: 'entity', key: 'host', value: 'db1', expiresAt: 2_000, pinned: true });
    now += 1;
    await store.putWorkingItem({ sessionId: null, kind: 'preference', key: 'lang', value: 'zh' });
    expect((await store.listWorkingItems(session.id)).map((i) => i.key)).toEqual(['ip', 'host', 'lang']);
    now = 3_000;
    expect((await store.listWorkingItems(session.id)).map((i) => i.key)).toEqual(['host', 'lang']);
    expect(await store.purgeExpiredWorkingItems()).toBe(1);
  });
});
