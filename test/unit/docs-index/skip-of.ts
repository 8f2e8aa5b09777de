import { DocSkipError } from '../../../src/docs-index/skip.ts';
import { thrown } from '../thrown.ts';

/** The DocSkipError `fn` throws (any other error is rethrown; no error fails the test). */
export const skipOf = (fn: () => unknown): DocSkipError => thrown(fn, DocSkipError);
