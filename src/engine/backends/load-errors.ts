/**
 * Turns an engine's load failure into an error a user can act on. Engines report a 404 or a dead
 * network in their own words (or not at all), so we ask the URL ourselves, once, after the failure.
 */
import { AssistantError, isAbortError, toAssistantError } from '../../shared/errors.ts';

export type UrlProbe = (url: string) => Promise<{ ok: boolean; status: number } | 'network-error'>;

export const probeUrl: UrlProbe = async (url) => {
  try {
    // A one-byte ranged GET: HEAD is not allowed by every static host, and this never downloads the model.
    const response = await fetch(url, { headers: { Range: 'bytes=0-0' }, cache: 'no-store' });
    await response.body?.cancel();
    return { ok: response.ok, status: response.status };
  } catch {
    return 'network-error';
  }
};

export async function explainLoadFailure(url: string, error: unknown, probe: UrlProbe = probeUrl): Promise<AssistantError> {
  if (isAbortError(error)) return toAssistantError(error);
  if (error instanceof AssistantError && error.code !== 'load_failed' && error.code !== 'internal') return error;
  const detail = error instanceof Error ? error.message : String(error);
  if (/out of memory|OOM|allocation failed|Cannot allocate/i.test(detail)) {
    return new AssistantError('out_of_memory', `Not enough memory to load the model from ${url} (${detail}). Close other tabs or choose a smaller model.`);
  }
  const answer = await probe(url);
  if (answer === 'network-error') {
    return new AssistantError(
      'network',
      `Could not reach ${url}: the network is off or the host is unreachable. Connect to the internet, or point the app at a self-hosted model (npm run fetch-model, or ?model=<url>).`,
    );
  }
  if (answer.status === 404 || answer.status === 410) {
    return new AssistantError(
      'model_not_found',
      `The model file was not found at ${url} (HTTP ${answer.status}). Check the model URL in settings or ?model=, or run npm run fetch-model to self-host it.`,
    );
  }
  if (!answer.ok) {
    return new AssistantError('network', `The model host answered HTTP ${answer.status} for ${url}. Try again later or use another model source.`);
  }
  return new AssistantError('load_failed', `The model at ${url} could not be loaded: ${detail}`);
}
