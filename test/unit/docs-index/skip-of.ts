import { DocSkipError } from '../../../src/docs-index/skip.ts';

/** The DocSkipError `fn` throws (any other error is rethrown; no error fails the test). */
export function skipOf(fn: () => unknown): DocSkipError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DocSkipError) return error;
    throw error;
  }
  throw new Error('did not throw');
}
