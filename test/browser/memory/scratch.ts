/** Databases, stores and peer pages a test opens, all closed and dropped after each test. */
import { afterEach } from 'vitest';
import type { MemoryStore } from '../../../src/memory/store/store.ts';
import { dbName, dropDB, openStore } from './helpers.ts';
import type { Peer } from './peer-client.ts';

export function scratch() {
  const names: string[] = [];
  const stores: MemoryStore[] = [];
  const peers: Peer[] = [];
  afterEach(async () => {
    for (const peer of peers.splice(0)) peer.kill();
    for (const store of stores.splice(0)) await store.close();
    for (const name of names.splice(0)) await dropDB(name);
  });
  /** A new database with a store open on it. */
  async function fresh(label: string): Promise<{ name: string; store: MemoryStore }> {
    const name = dbName(label);
    names.push(name);
    const store = await openStore(name);
    stores.push(store);
    return { name, store };
  }
  return { names, stores, peers, fresh };
}
