/** A string as a regular expression that matches it literally (one copy for the whole app). Pure. */
export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
