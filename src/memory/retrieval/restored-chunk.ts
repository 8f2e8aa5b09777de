/**
 * A chunk restored from a saved shard (shard.ts's `fromState`): its sentences and term lists are views of the
 * state's flat arrays, made the first time something reads them. A page load restores tens of thousands of chunks
 * and a prompt reads a few dozen, so building every chunk's lists up front was most of a restore. Pure, no DOM.
 */
import type { Piece } from './pieces.ts';
import type { IndexedChunk } from './shard.ts';

/** The flat arrays of a saved shard that restored chunks read from (checked by `Shard.fromState`). */
export interface ChunkTables {
  pieceBounds: Int32Array;
  chunkPieceStarts: Int32Array;
  chunkTermStarts: Int32Array;
  chunkTermIds: Int32Array;
  pieceTermStarts: Int32Array;
  pieceTermIds: Int32Array;
  /** The turn index's terms, by id. */
  turnTerms: readonly string[];
}

export class RestoredChunk implements IndexedChunk {
  private _pieces: Piece[] | null = null;
  private _textTerms: string[] | null = null;
  private _textTermIds: Int32Array | null = null;
  private _pieceTermIds: Int32Array[] | null = null;

  constructor(
    readonly id: string,
    readonly scope: string,
    readonly text: string,
    /** The chunk's place in the tables. */
    private readonly _at: number,
    private readonly _tables: ChunkTables,
  ) {}

  get pieces(): readonly Piece[] {
    if (this._pieces === null) {
      const { pieceBounds, chunkPieceStarts } = this._tables;
      this._pieces = [];
      for (let p = chunkPieceStarts[this._at]!; p < chunkPieceStarts[this._at + 1]!; p++) {
        const start = pieceBounds[2 * p]!;
        const end = pieceBounds[2 * p + 1]!;
        this._pieces.push({ text: this.text.slice(start, end), start, end });
      }
    }
    return this._pieces;
  }

  get textTermIds(): Int32Array {
    const { chunkTermIds, chunkTermStarts } = this._tables;
    return (this._textTermIds ??= chunkTermIds.subarray(chunkTermStarts[this._at]!, chunkTermStarts[this._at + 1]!));
  }

  get textTerms(): readonly string[] {
    return (this._textTerms ??= Array.from(this.textTermIds, (t) => this._tables.turnTerms[t]!));
  }

  get pieceTermIds(): readonly Int32Array[] {
    if (this._pieceTermIds === null) {
      const { chunkPieceStarts, pieceTermIds, pieceTermStarts } = this._tables;
      this._pieceTermIds = [];
      for (let p = chunkPieceStarts[this._at]!; p < chunkPieceStarts[this._at + 1]!; p++) {
        this._pieceTermIds.push(pieceTermIds.subarray(pieceTermStarts[p]!, pieceTermStarts[p + 1]!));
      }
    }
    return this._pieceTermIds;
  }
}
