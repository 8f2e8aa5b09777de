/**
 * Tree-shaking for the memory's folders. Each folder of `src/memory/` has one public entry (`index.ts`) that the
 * rest of the code imports; an eager module that takes one small helper from an entry (the section budgets, the
 * sent part of a message) must not pull the whole folder into the first load. The memory's modules set up nothing
 * global when they load, so a module none of whose exports is used is left out.
 */
const MEMORY_SOURCE = /[\\/]src[\\/]memory[\\/]/;

export const memoryTreeshake = {
  moduleSideEffects: (id: string): boolean => !MEMORY_SOURCE.test(id),
};
