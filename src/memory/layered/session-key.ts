/** How the layered memory names a user's session in its per-session state (working memory, context state). */
export const sessionKey = (userId: string, sessionId: string): string => `${userId}\u0000${sessionId}`;

/** The store's session id inside a `sessionKey`. */
export const sessionIdOf = (key: string): string => key.slice(key.indexOf('\u0000') + 1);
