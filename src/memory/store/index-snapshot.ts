/**
 * A retrieval index saved in the store (issue 17), so that a page load restores it instead of building it from
 * every stored message and doc chunk again: the app's conversations (`index`) and its docs (`index-docs`,
 * ui/controllers/snapshot-keeper.ts), and the docs widget's (`docs`, widget/runtime/docs-memory.ts). One record each
 * (`layered:snapshot:<id>` in the store's meta), each written whole in one transaction: a page killed in the middle
 * of a write leaves the previous record, never half. The app keeps its docs in a record of their own so that a save
 * after a message rewrites the conversations only, and a load reads the two side by side.
 *
 * A record says what it covers, and a load uses no more of it than still holds:
 * - `key`: the settings and rule versions the index was built under (another key: not used at all);
 * - `sessions`: per conversation, the stamp of the stored conversation it reflects (`sessionStamp`: the store
 *   counts every write to a conversation's turns in its record, and apart the edits of finished turns), and
 *   `knownSeqs`, the seq it holds every finished turn up to. A conversation only appended to since has the turns
 *   after that seq read and added; one otherwise changed, or new, is read again from its records and replaced in
 *   place; one no longer stored leaves the index;
 * - `docs`: the stored docs it holds (their summaries); other docs: the docs are indexed again.
 * A record that does not hold together (wrong shape, references out of range) is not used, and the index is built
 * from the records as before: slower, never wrong.
 */
import type { MemoryStore } from './store.ts';
import type { SessionRecord } from './records.ts';
import { INDEX_ANALYSIS_VERSION, type RetrievalIndexState } from '../retrieval/index.ts';
import { packState, unpackState } from './state-codec.ts';

/** The record's own layout; bump it when `SnapshotRecord` or the index's state layout changes. */
export const SNAPSHOT_FORMAT = 4;

/** The stamp of a conversation whose turns changed here since it was last checked against its records. */
export const CHANGED_HERE = 'changed-here';

export type SnapshotId = 'index' | 'index-docs' | 'docs';

export interface SnapshotRecord {
  format: number;
  key: string;
  sessions: Record<string, string>;
  /** Per conversation with a stamp: the seq up to which the index holds every finished turn (`SessionMark.knownSeq`). */
  knownSeqs: Record<string, number>;
  docs: string;
  state: RetrievalIndexState;
  /** What else its owner keeps with it (the widget: each chunk's link). */
  extra?: unknown;
  savedAt: number;
}

/** The key of an index built under these settings (`settings`: whatever else shapes it, e.g. window and budgets). */
export const snapshotKey = (settings: string): string => `${SNAPSHOT_FORMAT}|${INDEX_ANALYSIS_VERSION}|${settings}`;

/** What a conversation's record says about its turns: created when, its finished turns changed how often, written how often. */
export const sessionStamp = (session: SessionRecord): string => `${session.createdAt}:${session.edits ?? 0}:${session.rev ?? 0}`;

/** A conversation as its record stood when it was read: its stamp and its last seq. */
export interface SessionMark {
  stamp: string;
  lastSeq: number;
}

export const sessionMarks = (sessions: readonly SessionRecord[]): Map<string, SessionMark> =>
  new Map(sessions.map((s) => [s.id, { stamp: sessionStamp(s), lastSeq: s.lastSeq }]));

/**
 * How a conversation stands against what a saved index covers: `same`; `appended` (only turns appended, or replies
 * finished, since: read those after the covered seq); `changed` (read it whole).
 */
export function coverOf(saved: string | undefined, now: string): 'same' | 'appended' | 'changed' {
  if (saved === now) return 'same';
  const a = saved?.split(':');
  const b = now.split(':');
  return a !== undefined && a.length === 3 && b.length === 3 && a[0] === b[0] && a[1] === b[1] ? 'appended' : 'changed';
}

/** The stored docs as a stamp (their summaries: id, content hash, chunks, time). */
export async function docsStamp(store: MemoryStore): Promise<string> {
  const docs = await store.listDocs();
  return JSON.stringify(docs.map((d) => [d.docId, d.hash, d.chunks, d.updatedAt]).sort((a, b) => String(a[0]).localeCompare(String(b[0]))));
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A record as stored: the state and `extra` packed into one Blob (state-codec.ts). */
type StoredSnapshot = Omit<SnapshotRecord, 'state' | 'extra'> & { body: Blob };

/** The outer shape only; the state is checked as it is restored (`RetrievalIndex.fromState`). */
function isStoredSnapshot(v: unknown): v is StoredSnapshot {
  if (!isObject(v) || v['format'] !== SNAPSHOT_FORMAT || typeof v['key'] !== 'string' || typeof v['docs'] !== 'string') return false;
  const sessions = v['sessions'];
  const known = v['knownSeqs'];
  return (
    isObject(sessions) &&
    Object.values(sessions).every((s) => typeof s === 'string') &&
    isObject(known) &&
    Object.values(known).every((n) => Number.isInteger(n)) &&
    v['body'] instanceof Blob
  );
}

/**
 * The saved record for `key`, or null (none, another key, not a record of this format, or a body that does not
 * unpack). The body is read only for a record of the key asked for.
 */
export async function readSnapshot(store: MemoryStore, id: SnapshotId, key: string): Promise<SnapshotRecord | null> {
  const stored = await store.getLayeredSide('snapshot', id);
  if (!isStoredSnapshot(stored) || stored.key !== key) return null;
  const { body, ...meta } = stored;
  let unpacked: unknown;
  try {
    unpacked = unpackState(await body.arrayBuffer());
  } catch {
    return null;
  }
  if (!isObject(unpacked) || !isObject(unpacked['state']) || !Array.isArray(unpacked['state']['users'])) return null;
  const { state, extra } = unpacked as { state: RetrievalIndexState; extra: unknown };
  return { ...meta, state, ...(extra === null ? {} : { extra }) };
}

/**
 * Writes the record, its state packed into one Blob (which the browser writes off the page's thread). A state that
 * cannot be packed rejects, and nothing is written.
 */
export async function writeSnapshot(store: MemoryStore, id: SnapshotId, record: SnapshotRecord): Promise<void> {
  return writeSnapshots(store, [[id, record]]);
}

/** Writes several records in one transaction (all or none). */
export async function writeSnapshots(store: MemoryStore, records: ReadonlyArray<readonly [SnapshotId, SnapshotRecord]>): Promise<void> {
  const entries = records.map(([id, { state, extra, ...meta }]) => {
    const stored: StoredSnapshot = { ...meta, body: packState({ state, extra: extra ?? null }) };
    return { kind: 'snapshot' as const, id, data: stored };
  });
  return store.putLayeredSide(entries);
}
