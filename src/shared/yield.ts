/**
 * Ends the current task so the page can paint and take input before the next step. An `await` on a settled
 * promise does not: without this, storing a message, rendering it and planning its prompt run as one task.
 */
export function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  return scheduler?.yield !== undefined ? scheduler.yield() : new Promise((resolve) => setTimeout(resolve, 0));
}
