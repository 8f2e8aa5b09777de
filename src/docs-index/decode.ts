/**
 * A docs file's bytes as text, or the reason it is not a docs page: over the size limit, binary (a NUL byte), or
 * not UTF-8. Used by the indexer (bytes from disk) and the app's folder import (bytes from a `File`). Pure.
 */
import { DocSkipError } from './skip.ts';

export const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(bytes < 1024 * 1024 ? 2 : 1)} MB`;
}

/** The byte count alone can already rule a file out (before reading it). */
export function checkSize(bytes: number, maxBytes = DEFAULT_MAX_BYTES): void {
  if (bytes > maxBytes) {
    throw new DocSkipError('too_large', `too large (${megabytes(bytes)}, the limit is ${megabytes(maxBytes)})`, { size: megabytes(bytes), max: megabytes(maxBytes) });
  }
}

export function decodeDocBytes(bytes: Uint8Array, maxBytes = DEFAULT_MAX_BYTES): string {
  checkSize(bytes.length, maxBytes);
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new DocSkipError('binary', `binary content (a NUL byte at offset ${nul})`, { offset: nul });
  try {
    // `ignoreBOM: false` drops a leading byte-order mark.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch (error) {
    throw new DocSkipError('not_utf8', 'not valid UTF-8 text', {}, { cause: error });
  }
}
