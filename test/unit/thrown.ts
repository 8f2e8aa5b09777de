/** The error of class `type` that `fn` throws (any other error is rethrown; no error fails the test). */
export function thrown<E extends Error>(fn: () => unknown, type: abstract new (...args: never[]) => E): E {
  try {
    fn();
  } catch (error) {
    if (error instanceof type) return error;
    throw error;
  }
  throw new Error('did not throw');
}
