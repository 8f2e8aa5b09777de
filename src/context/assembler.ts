/**
 * A small stateful wrapper for drivers (the chat UI, `bench:prefill`): call `next()` once per user turn with the
 * whole history so far; it keeps the state between calls.
 */
import type { ChatMessage } from '../shared/chat.ts';
import { assemble, type AssembleResult, type ContextState } from './assemble.ts';
import { DEFAULT_CONTEXT_CONFIG, validateConfig, type ContextConfig } from './config.ts';
import type { TokenCounter } from './tokens.ts';

export class ContextAssembler {
  private _state: ContextState | null;
  private readonly _config: ContextConfig;
  private readonly _counter: TokenCounter;

  constructor(counter: TokenCounter, config: ContextConfig = DEFAULT_CONTEXT_CONFIG, state: ContextState | null = null) {
    validateConfig(config);
    this._counter = counter;
    this._config = config;
    this._state = state;
  }

  /** The state after the last request (plain data: persist it with the conversation to keep the cache path). */
  get state(): ContextState | null {
    return this._state;
  }

  get config(): ContextConfig {
    return this._config;
  }

  /**
   * Messages for answering `input` after `history` (which ends with the reply to the previous call's input).
   * The state advances only when this returns; a throw leaves it as it was.
   */
  next(history: readonly ChatMessage[], input: string, extras?: string): AssembleResult {
    const request = extras === undefined ? { history, input } : { history, input, extras };
    const result = assemble(this._state, request, this._config, this._counter);
    this._state = result.nextState;
    return result;
  }

  /** Forget the previous prompt: the next request compacts (e.g. after switching conversations). */
  reset(): void {
    this._state = null;
  }
}
