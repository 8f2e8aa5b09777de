/** Milliseconds in a day (of UTC time: no leap seconds, as `Date` counts). */
export const DAY_MS = 86_400_000;
