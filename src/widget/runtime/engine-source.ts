/**
 * Where the widget's engine loads from, as pure functions of its configuration (no DOM but the page's URL, no engine
 * code): the model sources, every URL absolute, and the load request. The widget runtime (parts.ts) uses them.
 */
import { DEFAULT_GGUF_URL, mlcSourceAt } from '../../engine/model-sources.ts';
import type { LoadPayload, MlcModelSource } from '../../engine/protocol.ts';
import { AssistantError } from '../../shared/errors.ts';
import type { ModelOffer, WidgetRuntimeConfig } from './types.ts';

/** The base URL as an absolute folder URL (ending in '/'). */
export function baseUrlOf(config: Pick<WidgetRuntimeConfig, 'base'>): string {
  const base = new URL(config.base === '' ? './' : config.base, globalThis.location.href);
  if (!base.pathname.endsWith('/')) base.pathname += '/';
  return base.href;
}

/** The GGUF to load: the configured one resolved against the base URL, or the default from Hugging Face. */
export function modelUrlOf(config: Pick<WidgetRuntimeConfig, 'base' | 'model'>): string {
  if (config.model.trim() === '') return DEFAULT_GGUF_URL;
  try {
    return new URL(config.model, baseUrlOf(config)).href;
  } catch (error) {
    throw new AssistantError('invalid_config', `The model URL "${config.model}" is not a valid URL.`, { cause: error });
  }
}

/** Where `npm run fetch-model` puts web-llm's model libraries, below the MLC model folder. */
export const MLC_LIBS_FOLDER = 'libs';

/**
 * The self-hosted MLC model (`mlc-model`), every URL absolute: the folder resolved against the base URL, the
 * q4f16/q4f32 weights in `<folder>/<model id>/` and the model libraries in `<folder>/libs/`, as fetch-model writes
 * them. null when none is configured.
 */
export function mlcSourceOf(config: Pick<WidgetRuntimeConfig, 'base' | 'mlcModel'>): MlcModelSource | null {
  const folder = config.mlcModel?.trim() ?? '';
  if (folder === '') return null;
  let url: URL;
  try {
    url = new URL(folder, baseUrlOf(config));
  } catch (error) {
    throw new AssistantError('invalid_config', `The MLC model folder "${folder}" is not a valid URL.`, { cause: error });
  }
  if (url.search !== '' || url.hash !== '') {
    throw new AssistantError('invalid_config', `The MLC model folder "${folder}" cannot have a query or fragment.`);
  }
  const href = url.href.replace(/\/+$/, '');
  return mlcSourceAt(href, `${href}/${MLC_LIBS_FOLDER}`);
}

/**
 * What the engine is asked to load. With an MLC model the engine picks (`auto`): web-llm on a real GPU that can hold
 * the model, else wllama — and wllama too when web-llm's load fails. `backend="webgpu"` lets that choice take a
 * software adapter too (still with the CPU behind it); `backend="wasm"` is the CPU only. Without an MLC model
 * (whatever `backend` says: the attribute check reports that), wllama only: web-llm's default model libraries live on raw.githubusercontent.com, a third party the widget never
 * asks. `webgpuLost`: the GPU lost its device earlier in this visit.
 */
export function loadPayloadOf(config: WidgetRuntimeConfig, webgpuLost = false): LoadPayload {
  const ggufUrl = modelUrlOf(config);
  const mlc = mlcSourceOf(config);
  const backend = config.backend ?? 'auto';
  if (mlc === null || backend === 'wasm') return { backend: 'wasm', source: { ggufUrl }, contextWindow: config.window };
  return {
    backend: 'auto',
    source: { ggufUrl, mlc },
    contextWindow: config.window,
    ...(backend === 'webgpu' ? { softwareGpu: true } : {}),
    ...(webgpuLost ? { webgpuLost: true } : {}),
  };
}

/** The default model's download (Qwen2.5-0.5B-Instruct, q4_k_m GGUF) in MB, for the consent step. */
export const DEFAULT_MODEL_MB = 491;

/** What the CPU engine would download: the GGUF's file name and host; its size only for the default model. */
export function modelOfferOf(config: Pick<WidgetRuntimeConfig, 'base' | 'model'>): ModelOffer {
  const url = new URL(modelUrlOf(config));
  const file = decodeURIComponent(url.pathname.split('/').at(-1) ?? '') || url.pathname;
  return { file, host: url.host, megabytes: url.href === DEFAULT_GGUF_URL ? DEFAULT_MODEL_MB : null };
}
