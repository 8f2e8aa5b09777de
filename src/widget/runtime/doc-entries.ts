/**
 * How a stored doc chunk enters the widget's docs memory: the entry its retrieval index holds (named in the prompt
 * as `Title › Heading`), the vector it was shipped with, and the link an answer cites. One place, so the memory a
 * first visit builds in the page and the one `index-docs` builds ahead of time (shipped-docs.ts) are the same.
 */
import type { DocEntry, StoredVector } from '../../memory/retrieval/index.ts';
import type { DocChunkRecord } from '../../memory/store/index.ts';
import type { DocSource } from './types.ts';

/** The fields of a stored doc chunk the docs memory reads. */
export type DocChunkView = Pick<DocChunkRecord, 'id' | 'docId' | 'source' | 'part' | 'text' | 'embedding' | 'meta'>;

/** The link of a stored doc chunk: page URL + '#' + anchor (the page's top when it has none). */
export function chunkSource(chunk: Pick<DocChunkRecord, 'source' | 'meta'>): DocSource {
  const meta = chunk.meta;
  if (meta === undefined) return { href: chunk.source, title: chunk.source, heading: '' };
  return { href: meta.anchor === '' ? meta.url : `${meta.url}#${meta.anchor}`, title: meta.title, heading: meta.heading };
}

/** How a chunk names its origin in the prompt: `Title › Heading`. */
function promptSource(chunk: DocChunkView): string {
  const meta = chunk.meta;
  if (meta === undefined) return chunk.source;
  return meta.heading === '' ? meta.title : `${meta.title} › ${meta.heading}`;
}

/** The retrieval index's entry for a chunk, and the vector it came with (used as it is: never embedded again). */
export function docEntryOf(chunk: DocChunkView): { entry: DocEntry; stored: StoredVector | undefined } {
  return {
    entry: { id: chunk.id, docId: chunk.docId, source: promptSource(chunk), part: chunk.part, text: chunk.text },
    stored: chunk.embedding ?? undefined,
  };
}
