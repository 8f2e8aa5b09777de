/**
 * The engines' own caches of model weights: wllama keeps GGUF files in OPFS (its CacheManager), web-llm keeps
 * MLC models in Cache Storage. Read and deleted here without loading a model; each engine is imported only
 * when the source uses it.
 */
import type { CacheInfoResult, CachedModel, MlcModelSource, ModelSource } from './protocol.ts';

function absolute(url: string): string {
  return new URL(url, globalThis.location.href).href;
}

function mlcVariants(mlc: MlcModelSource): { modelId: string; url: string; lib: string }[] {
  const variants = [
    { modelId: mlc.modelId, url: absolute(mlc.urlF16), lib: absolute(mlc.libF16) },
    { modelId: mlc.modelId.replace('q4f16_1', 'q4f32_1'), url: absolute(mlc.urlF32), lib: absolute(mlc.libF32) },
  ];
  if (mlc.embedding) variants.push({ modelId: mlc.embedding.modelId, url: absolute(mlc.embedding.url), lib: absolute(mlc.embedding.lib) });
  return variants;
}

async function wllamaCache() {
  const { CacheManager } = await import('@wllama/wllama');
  return new CacheManager();
}

export async function readModelCache(source: ModelSource): Promise<CacheInfoResult> {
  const models: CachedModel[] = [];
  const cache = await wllamaCache();
  for (const entry of await cache.list()) {
    models.push({ backend: 'wllama', id: entry.metadata.originalURL || entry.name, bytes: entry.size });
  }
  if (source.mlc !== undefined) {
    const webllm = await import('@mlc-ai/web-llm');
    for (const v of mlcVariants(source.mlc)) {
      const appConfig = { model_list: [{ model: v.url, model_id: v.modelId, model_lib: v.lib }] };
      if (await webllm.hasModelInCache(v.modelId, appConfig).catch(() => false)) models.push({ backend: 'webllm', id: v.modelId, bytes: null });
    }
  }
  return { models };
}

export async function deleteModelCache(source: ModelSource, all: boolean): Promise<void> {
  const cache = await wllamaCache();
  if (all) await cache.clear();
  else if (source.ggufUrl !== undefined) await cache.delete(absolute(source.ggufUrl));
  if (source.mlc !== undefined) {
    const webllm = await import('@mlc-ai/web-llm');
    for (const v of mlcVariants(source.mlc)) {
      const appConfig = { model_list: [{ model: v.url, model_id: v.modelId, model_lib: v.lib }] };
      await webllm.deleteModelAllInfoInCache(v.modelId, appConfig).catch(() => {});
    }
  }
}
