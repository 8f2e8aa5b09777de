/**
 * Why a docs file is not indexed: an `invalid_input` error whose `reason` (with its `params`) names the problem,
 * so the CLI prints the English message and the app can show the reason in its own language. Pure.
 */
import { AssistantError } from '../shared/errors.ts';

export type DocSkipReason =
  | 'too_large'
  | 'binary'
  | 'not_utf8'
  | 'front_matter_unterminated'
  | 'front_matter_line'
  | 'empty'
  | 'too_deep'
  | 'not_docs';

export class DocSkipError extends AssistantError {
  constructor(
    readonly reason: DocSkipReason,
    message: string,
    readonly params: Readonly<Record<string, string | number>> = {},
    options?: { cause?: unknown },
  ) {
    super('invalid_input', message, options);
  }
}
