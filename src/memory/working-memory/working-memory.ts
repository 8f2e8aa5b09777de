/**
 * A convenience holder around the pure functions: it keeps the current state and the config, so the chat can
 * call `observe` on each user message and `render` for each prompt. `toJSON()` is what the store persists.
 */
import {
  resolveWorkingMemoryConfig,
  type RenderLang,
  type WorkingMemoryConfig,
  type WorkingMemoryConfigInput,
} from './config.ts';
import { extract as defaultExtract, type Extractor } from './extract.ts';
import { renderWorkingMemory } from './render.ts';
import { parseWorkingMemory } from './serialize.ts';
import {
  activeItems,
  applyExtraction,
  createWorkingMemory,
  isDeprecated,
  pinItem,
  pruneExpired,
  type ApplyMeta,
  type WmItem,
  type WorkingMemoryState,
} from './state.ts';
import type { Extraction, Instant } from './types.ts';

export class WorkingMemory {
  readonly config: WorkingMemoryConfig;
  private _state: WorkingMemoryState;

  constructor(state: WorkingMemoryState = createWorkingMemory(), config: WorkingMemoryConfigInput = {}) {
    this._state = state;
    this.config = resolveWorkingMemoryConfig(config);
  }

  static fromJSON(data: string | unknown, config: WorkingMemoryConfigInput = {}): WorkingMemory {
    return new WorkingMemory(parseWorkingMemory(data), config);
  }

  get state(): WorkingMemoryState {
    return this._state;
  }

  apply(extraction: Extraction, meta: ApplyMeta): this {
    this._state = applyExtraction(this._state, extraction, meta, this.config);
    return this;
  }

  /** Extracts from one user message and applies it; returns what was extracted. */
  observe(text: string, meta: ApplyMeta, extractor?: Extractor): Extraction {
    const extraction = extractor === undefined ? defaultExtract(text, meta.at) : extractor.extract(text, meta.at);
    this.apply(extraction, meta);
    return extraction;
  }

  active(now: Instant): WmItem[] {
    return activeItems(this._state, now);
  }

  isDeprecated(text: string, now?: Instant): boolean {
    return isDeprecated(this._state, text, now);
  }

  render(lang: RenderLang, now: Instant): string {
    return renderWorkingMemory(this._state, lang, now, this.config);
  }

  /** Returns whether an item with that id exists. */
  pin(id: string, pinned = true): boolean {
    const found = this._state.items.some((item) => item.id === id);
    this._state = pinItem(this._state, id, pinned);
    return found;
  }

  /** Drops expired items; returns how many went. */
  prune(now: Instant): number {
    const before = this._state.items.length;
    this._state = pruneExpired(this._state, now);
    return before - this._state.items.length;
  }

  toJSON(): WorkingMemoryState {
    return this._state;
  }
}
