/**
 * The panel's search as the reader types, as a Lit ReactiveController: the query, its results (from the runtime's
 * docs index, no model), the result the arrow keys chose, and whether the query was then asked. A search answered
 * after a newer one started, or after its query was asked, is dropped. The element renders what this holds.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { DocSearchHit, DocSearchOptions } from './runtime/types.ts';

export interface SearchState {
  readonly query: string;
  readonly results: readonly DocSearchHit[];
  /** The result the arrow keys chose, -1 for none. */
  readonly active: number;
  /** The search for `query` has answered. */
  readonly done: boolean;
  /** `query` was then asked: its results stay above the answer, and it no longer offers the assistant. */
  readonly asked: boolean;
}

export const NO_SEARCH: SearchState = Object.freeze({ query: '', results: [], active: -1, done: false, asked: false });

/** Searches the docs (the runtime's `search`), and says when the results are rendered. */
export interface SearchPort {
  search(text: string, options: DocSearchOptions): Promise<DocSearchHit[]>;
  /** The results of `query` are on screen, `ms` after its search began. */
  rendered(query: string, results: readonly DocSearchHit[], ms: number): void;
}

export class SearchController implements ReactiveController {
  state: SearchState = NO_SEARCH;
  private _seq = 0;

  constructor(
    private readonly _host: ReactiveControllerHost & { readonly updateComplete: Promise<boolean> },
    private readonly _port: SearchPort,
  ) {
    _host.addController(this);
  }

  hostConnected(): void {}

  /** Searches `text` (an empty text clears the search and shows the empty panel again). */
  async run(text: string, options: DocSearchOptions): Promise<void> {
    const seq = ++this._seq;
    if (text.trim() === '') {
      // A new object: the empty panel renders again (its suggestions may have arrived since).
      this._set({ ...NO_SEARCH });
      return;
    }
    const started = performance.now();
    const results = await this._port.search(text, options);
    if (seq !== this._seq) return;
    this._set({ query: text, results, active: -1, done: true, asked: false });
    await this._host.updateComplete;
    this._port.rendered(text, results, Math.round(performance.now() - started));
  }

  /** Clears the search (a new conversation); a search on its way is dropped. */
  clear(): void {
    this._seq++;
    this._set(NO_SEARCH);
  }

  /**
   * `question` was asked: a search still on its way is dropped, and the results stay only when they are this very
   * question's.
   */
  asked(question: string): void {
    this._seq++;
    this._set(this.state.query.trim() === question.trim() ? { ...this.state, asked: true } : { ...NO_SEARCH, asked: true });
  }

  /** ↓ (`+1`) or ↑ (`-1`): the next result; past either end, none, then round again. False when there are none. */
  move(step: 1 | -1): boolean {
    const count = this.state.results.length;
    if (count === 0) return false;
    const positions = count + 1;
    const next = (this.state.active + 1 + step + positions) % positions;
    this._set({ ...this.state, active: next - 1 });
    return true;
  }

  /** The chosen result, or in `firstWhenNone` mode the best one. */
  chosen(firstWhenNone: boolean): DocSearchHit | undefined {
    const { results, active } = this.state;
    return results[active] ?? (firstWhenNone ? results[0] : undefined);
  }

  private _set(state: SearchState): void {
    this.state = state;
    this._host.requestUpdate();
  }
}
