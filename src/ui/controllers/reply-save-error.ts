/**
 * A reply the browser had no room to save. The stream itself went fine, so the reply stays on screen whole; the
 * store keeps its last write that fit (marked interrupted at the next start). The note says so in the UI's
 * language, with the code — not "stopped", which would hide that it was not saved.
 */
import { AssistantError } from '../../shared/errors.ts';
import { t } from '../i18n/index.ts';

/** The error to show on the reply when `error` (the stream's or the final save's) is a full storage; else null. */
export function replySaveError(error: unknown): AssistantError | null {
  if ((error as { code?: unknown } | null)?.code !== 'storage_full') return null;
  return new AssistantError('storage_full', t('storage.replyFull'), { cause: error });
}
