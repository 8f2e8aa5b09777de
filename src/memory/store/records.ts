/**
 * The records the memory store keeps in IndexedDB (schema.ts ties them to object stores). Plain data only:
 * structured-clonable, no classes, so that a record survives a reload, an upgrade and another tab unchanged.
 */
import type { Namespace } from '../vector-index/index.ts';

export type TurnRole = 'system' | 'user' | 'assistant';

/** `streaming` while a reply arrives; `interrupted` when its writer went away (closed tab, crash, stop). */
export type TurnStatus = 'streaming' | 'complete' | 'interrupted';

export interface SessionRecord {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  /** The last sequence number given to a turn; the next turn gets lastSeq + 1 in the same transaction. */
  lastSeq: number;
  /**
   * Counts the writes to the session's turns (append, import, rewrite, hide, status), in their transactions: an
   * index saved with the counts it covered knows which conversations changed since (absent: 0, as written before).
   */
  rev?: number;
  /**
   * Of those, the writes that changed a finished turn (a rewrite, a hide, a status after the reply was done): while
   * it stays the same, the writes since a saved index were appends (and replies finishing), read by their seq.
   */
  edits?: number;
}

export interface TurnRecord {
  id: string;
  sessionId: string;
  /** 1, 2, 3… within the session, unique ([sessionId, seq] is a unique index). */
  seq: number;
  role: TurnRole;
  content: string;
  createdAt: number;
  updatedAt: number;
  /** Tokens of the content (the injected counter's, exact for Qwen in the app). */
  tokenCount: number;
  status: TurnStatus;
  tags: string[];
  /** For an assistant turn: the user turn it answers (its exchange). */
  replyTo: string | null;
  /**
   * Present only while the turn streams: a sparse index on it finds cut replies at start-up without indexing
   * every finished turn.
   */
  streamingSince?: number;
  /**
   * A user turn too long for the window: how much of it the model got when it was last answered (characters from
   * its start, and the tokens they made). Absent when all of it was sent. Kept because it depends on the settings
   * of that moment, so it cannot be worked out again later.
   */
  sent?: SentPart;
}

export interface SentPart {
  chars: number;
  tokens: number;
}

/** Retrieval statistics, for heat: how often and how recently a chunk was recalled. */
export interface ChunkHeat {
  hits: number;
  lastHitAt: number | null;
  /** The store-wide retrieval counter at the last hit (meta `retrievals`): "not recalled in the last N searches". */
  lastHitRetrieval: number;
}

/**
 * A chunk's vector from the active embedder, stored in the chunk record itself: one record per chunk instead of
 * two halves the writes of an import (measured: 20k records for 10k turns took ~2 s in Chromium, 15k ~0.8 s),
 * and a chunk and its vector can never disagree — rewriting the text rewrites (or clears) the vector.
 */
export interface ChunkEmbedding {
  /** `embedderKey()`: id@version. */
  embedder: string;
  vector: Float32Array;
}

/**
 * `exchange`: a user turn with its reply (one per exchange, the retrieval unit the design calls for);
 * `part`: a piece of at most ~400 tokens of one long turn, so that a long paste can be recalled by its parts.
 */
export type ChunkKind = 'exchange' | 'part';

export interface ChunkRecord {
  id: string;
  sessionId: string;
  kind: ChunkKind;
  /** The turns this chunk was made from: [user, assistant] for an exchange, [turn] for a part. */
  turnIds: string[];
  /** For a part: its index within the turn, and where it lies in the turn's content. */
  part: number;
  start: number;
  end: number;
  text: string;
  tokenCount: number;
  /** Bumped whenever `text` changes; a vector made from an older revision is never stored. */
  rev: number;
  createdAt: number;
  updatedAt: number;
  heat: ChunkHeat;
  /** null until embedded (engine embedders embed after the write; the catch-up fills gaps). */
  embedding: ChunkEmbedding | null;
}

/**
 * A vector from an embedder being switched to, staged outside the chunks until the switch commits (then it
 * moves into its chunk's `embedding`): searches never mix two embedders.
 */
/** An engine embedding of a text the prompt's memory indexes (a turn, a doc chunk): see memory-vectors.ts. */
export interface MemoryVectorRecord {
  /** `engine:<model>@<version>`. */
  embedder: string;
  /** The turn's or doc chunk's id in the memory's index. */
  id: string;
  /** Session id (a turn) or doc id: deleting a conversation deletes its vectors. */
  scope: string;
  /** `textHash` of the text it was made from: a rewritten text's old vector is never used. */
  textHash: string;
  vector: Float32Array;
}

export interface VectorRecord {
  /** `embedderKey()`: id@version. */
  embedder: string;
  namespace: Namespace;
  chunkId: string;
  /** Session id (conversation) or doc id (docs): what searches filter on. */
  scope: string;
  /** The chunk's `rev` this vector was made from. */
  rev: number;
  vector: Float32Array;
  createdAt: number;
}

/** A working-memory item (the extraction rules live elsewhere; this is only their storage). */
export interface WorkingItemRecord {
  id: string;
  /** null: applies to every session. */
  sessionId: string | null;
  /** e.g. `entity`, `preference`, `fact`, `dropped-topic`. */
  kind: string;
  /** What the item is about (an entity name, a setting): a newer item with the same key overrides. */
  key: string;
  /** The entity's type or the fact's subject, as shown (absent in items written before it existed). */
  name?: string;
  value: string;
  sourceTurnId: string | null;
  createdAt: number;
  updatedAt: number;
  /** Epoch ms after which the item is dropped; null never. */
  expiresAt: number | null;
  pinned: boolean;
}

/** Where a doc chunk lives on its site, for the link shown under an answer (docs index chunks carry it). */
export interface DocChunkMeta {
  /** The page's URL, without anchor (the widget stores the absolute link: `https://site/guide/install.html`). */
  url: string;
  /** The heading's anchor within the page ('' for the page's top). */
  anchor: string;
  /** The page title. */
  title: string;
  /** Heading path, e.g. `Install › From npm` ('' for the page's top). */
  heading: string;
}

/** A chunk of a document for the docs widget: a namespace of its own, never mixed with conversation memory. */
export interface DocChunkRecord {
  id: string;
  docId: string;
  /** Where the doc came from (URL or title), shown with the chunk. */
  source: string;
  part: number;
  text: string;
  tokenCount: number;
  rev: number;
  createdAt: number;
  heat: ChunkHeat;
  embedding: ChunkEmbedding | null;
  /** Link data, when the doc came with it (a docs index). */
  meta?: DocChunkMeta;
}

/** One stored doc as a whole: its content hash (a docs index page hash; '' when none was given) and size. */
export interface DocSummary {
  docId: string;
  source: string;
  hash: string;
  chunks: number;
  updatedAt: number;
}

export type MetaRecord =
  | { key: 'schema'; version: number; upgradedAt: number }
  /** The embedder whose vectors are searched, and one being switched to (re-embedding in progress). */
  | { key: 'embedder'; active: string; pending: string | null; dimensions: number }
  | { key: 'retrievals'; count: number }
  /** A snapshot of an embedder's corpus statistics (IDF), keyed `stats:<embedderKey>`. */
  | { key: `stats:${string}`; documents: number; df: Uint32Array; savedAt: number }
  /** A stored doc's summary (its hash decides whether a re-index must rewrite it), keyed `doc:<docId>`. */
  | ({ key: `doc:${string}` } & DocSummary)
  /**
   * The layered memory's small per-session and per-turn state, as plain data it checks when it reads it back:
   * a session's gate (`layered:session:<sessionId>`), when a turn was declared void (`layered:deprecated:<turnId>`),
   * and a turn's or doc chunk's retrieval heat (`layered:heat:<chunkId>`).
   */
  | { key: `layered:${LayeredSideKind}:${string}`; data: unknown };

/**
 * `derived`: what the memory worked out from each turn of a conversation (src/ui/controllers/derived-turns.ts), one
 * record per conversation, kept to skip doing it again.
 */
/** `snapshot`: a retrieval index's saved state (records `index`, the app's, and `docs`, the widget's; index-snapshot.ts). */
export type LayeredSideKind = 'session' | 'deprecated' | 'heat' | 'derived' | 'snapshot' | 'context';

export type MetaKey = MetaRecord['key'];
