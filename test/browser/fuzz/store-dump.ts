/**
 * Every record of every object store of a database, read over a connection of its own, as one canonical string:
 * "nothing changed" is equality of two dumps. (A string compare: a deep `toEqual` of thousands of Float32Array
 * vectors took a second per run.)
 */
import { rawDB } from '../memory/helpers.ts';

export type Dump = Record<string, unknown[]>;

export async function dumpDatabase(name: string): Promise<Dump> {
  const db = await rawDB(name);
  try {
    const out: Dump = {};
    for (const store of db.objectStoreNames) out[store] = await db.getAll(store);
    // The IDF statistics snapshot is derived data the store saves on a 2 s timer (stats-keeper.ts), so it lands
    // whenever that timer fires; the chunks it is counted from are compared.
    out['meta'] = (out['meta'] ?? []).filter((r) => !String((r as { key?: unknown }).key).startsWith('stats:'));
    return out;
  } finally {
    db.close();
  }
}

/** Typed arrays as tagged lists, so two dumps compare as strings. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (ArrayBuffer.isView(v) ? { typed: v.constructor.name, values: Array.from(v as Float32Array) } : v));
}

/** The names of the stores whose records differ (empty when the dumps are equal). */
export function changedStores(before: Dump, after: Dump): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => canonical(before[n] ?? []) !== canonical(after[n] ?? []));
}
