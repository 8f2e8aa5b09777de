/**
 * Where the model comes from. Order of precedence: the `?model=` / `?mlc=` query parameters, then the
 * run-time setting saved by the app, then the build-time variables `VITE_MODEL_GGUF_URL` /
 * `VITE_MODEL_MLC_URL`, then a self-hosted copy announced by `public/models/manifest.json`
 * (written by `npm run fetch-model`), then Hugging Face.
 */
import type { BackendPreference, EmbeddingGgufSource, MlcModelSource, ModelSource } from './protocol.ts';

const HF = 'https://huggingface.co';
/** web-llm's prebuilt model libraries for its 0.2.x line (must match the installed web-llm). */
const MLC_LIBS = 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base';

export const DEFAULT_GGUF_FILE = 'qwen2.5-0.5b-instruct-q4_k_m.gguf';
export const DEFAULT_GGUF_URL = `${HF}/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/${DEFAULT_GGUF_FILE}`;
export const MLC_MODEL_ID = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

/** snowflake-arctic-embed's model card: queries (only) start with this; documents have no prefix. */
export const ARCTIC_QUERY_PREFIX = 'Represent this sentence for searching relevant passages: ';

/**
 * The CPU engine's embedding model: multilingual-e5-small (Chinese and English in one space, 384 dimensions, 512
 * tokens, ~21M parameters outside its vocabulary, so ~100 times less work per token than the chat model), Q8_0.
 * e5 wants `query: ` and `passage: ` before its inputs.
 */
export const DEFAULT_EMBEDDING_GGUF_FILE = 'multilingual-e5-small-q8_0.gguf';
/** Its path on a Hugging Face host (fetch-model takes it from a mirror too). */
export const DEFAULT_EMBEDDING_GGUF_PATH = `cstr/multilingual-e5-small-GGUF/resolve/main/${DEFAULT_EMBEDDING_GGUF_FILE}`;
export const E5_PREFIXES = { queryPrefix: 'query: ', documentPrefix: 'passage: ' } as const;
export const DEFAULT_EMBEDDING_GGUF: EmbeddingGgufSource = {
  url: `${HF}/${DEFAULT_EMBEDDING_GGUF_PATH}`,
  ...E5_PREFIXES,
};

export function mlcSourceAt(base: string, libBase: string): MlcModelSource {
  return {
    modelId: MLC_MODEL_ID,
    urlF16: `${base}/Qwen2.5-0.5B-Instruct-q4f16_1-MLC`,
    urlF32: `${base}/Qwen2.5-0.5B-Instruct-q4f32_1-MLC`,
    libF16: `${libBase}/Qwen2-0.5B-Instruct-q4f16_1_cs1k-webgpu.wasm`,
    libF32: `${libBase}/Qwen2-0.5B-Instruct-q4f32_1_cs1k-webgpu.wasm`,
    embedding: {
      modelId: 'snowflake-arctic-embed-s-q0f32-MLC-b4',
      url: `${base}/snowflake-arctic-embed-s-q0f32-MLC`,
      lib: `${libBase}/snowflake-arctic-embed-s-q0f32-ctx512_cs512_batch4-webgpu.wasm`,
      queryPrefix: ARCTIC_QUERY_PREFIX,
    },
  };
}

export const DEFAULT_SOURCE: ModelSource = { ggufUrl: DEFAULT_GGUF_URL, mlc: mlcSourceAt(`${HF}/mlc-ai`, MLC_LIBS), embeddingGguf: DEFAULT_EMBEDDING_GGUF };

/** Short names for `?model=`: `test` is the generated test model (`npm run test-model`). */
export const NAMED_GGUF: Record<string, string> = {
  test: '/models/test/qwen2-tiny.gguf',
  'test-realistic': '/models/test/qwen2.5-0.5b-shaped-q8_0.gguf',
};

/** Short names for `?embedding=`: `test` is the generated tiny embedding model (no prefixes). */
export const NAMED_EMBEDDING_GGUF: Record<string, EmbeddingGgufSource> = {
  test: { url: '/models/test/qwen2-embed-tiny.gguf' },
};

/** Shape of `public/models/manifest.json`, written by `npm run fetch-model`. */
export interface SelfHostedManifest {
  ggufUrl?: string;
  /** The CPU embedding model (e5 prefixes). */
  embeddingGgufUrl?: string;
  mlcBase?: string;
  mlcLibBase?: string;
}

export interface SourceInputs {
  query: URLSearchParams;
  saved?: { ggufUrl?: string; mlcBase?: string } | undefined;
  buildGguf?: string | undefined;
  buildMlc?: string | undefined;
  /** `VITE_EMBEDDING_GGUF_URL`. */
  buildEmbedding?: string | undefined;
  manifest?: SelfHostedManifest | undefined;
}

export interface ResolvedSource {
  source: ModelSource;
  /** Where the choice came from, shown to the user. */
  origin: 'query' | 'setting' | 'build' | 'self-hosted' | 'huggingface';
}

const nonEmpty = (s: string | null | undefined): s is string => typeof s === 'string' && s.trim() !== '';

/**
 * Prefixes of known embedding families, by the file's name (a model card's rule; a model not listed gets none):
 * e5 (`query: ` / `passage: `), arctic-embed (a query prefix only), nomic-embed (`search_query: ` / `search_document: `).
 */
export function embeddingPrefixesFor(url: string): Pick<EmbeddingGgufSource, 'queryPrefix' | 'documentPrefix'> {
  const file = url.split(/[?#]/)[0]!.split('/').pop()!.toLowerCase();
  if (/(^|[^a-z0-9])e5([^a-z0-9]|$)/.test(file)) return { ...E5_PREFIXES };
  if (file.includes('arctic-embed')) return { queryPrefix: ARCTIC_QUERY_PREFIX };
  if (file.includes('nomic-embed')) return { queryPrefix: 'search_query: ', documentPrefix: 'search_document: ' };
  return {};
}

/**
 * The CPU embedding model, chosen on its own: `?embedding=` (a URL, or `test`), then `VITE_EMBEDDING_GGUF_URL`, then
 * a self-hosted copy (`npm run fetch-model`), then Hugging Face.
 */
export function resolveEmbeddingGguf(inputs: SourceInputs): EmbeddingGgufSource {
  const query = inputs.query.get('embedding');
  if (nonEmpty(query)) return NAMED_EMBEDDING_GGUF[query] ?? { url: query, ...embeddingPrefixesFor(query) };
  if (nonEmpty(inputs.buildEmbedding)) return { url: inputs.buildEmbedding, ...embeddingPrefixesFor(inputs.buildEmbedding) };
  const hosted = inputs.manifest?.embeddingGgufUrl;
  if (nonEmpty(hosted)) return { url: hosted, ...embeddingPrefixesFor(hosted) };
  return DEFAULT_EMBEDDING_GGUF;
}

/** Pure resolution, so precedence is testable. A GGUF-only choice disables web-llm and vice versa. */
export function resolveModelSource(inputs: SourceInputs): ResolvedSource {
  const resolved = resolveChatSource(inputs);
  return { ...resolved, source: { ...resolved.source, embeddingGguf: resolveEmbeddingGguf(inputs) } };
}

function resolveChatSource(inputs: SourceInputs): ResolvedSource {
  const qModel = inputs.query.get('model');
  const qMlc = inputs.query.get('mlc');
  if (nonEmpty(qModel) || nonEmpty(qMlc)) {
    return { origin: 'query', source: pick(nonEmpty(qModel) ? (NAMED_GGUF[qModel] ?? qModel) : undefined, nonEmpty(qMlc) ? qMlc : undefined) };
  }
  const saved = inputs.saved;
  if (saved && (nonEmpty(saved.ggufUrl) || nonEmpty(saved.mlcBase))) {
    return { origin: 'setting', source: pick(saved.ggufUrl, saved.mlcBase) };
  }
  if (nonEmpty(inputs.buildGguf) || nonEmpty(inputs.buildMlc)) {
    return { origin: 'build', source: pick(inputs.buildGguf, inputs.buildMlc) };
  }
  const m = inputs.manifest;
  if (m && (nonEmpty(m.ggufUrl) || nonEmpty(m.mlcBase))) {
    return { origin: 'self-hosted', source: pick(m.ggufUrl, m.mlcBase, m.mlcLibBase) };
  }
  return { origin: 'huggingface', source: DEFAULT_SOURCE };
}

function pick(gguf: string | undefined, mlcBase: string | undefined, mlcLibBase?: string): ModelSource {
  const source: ModelSource = {};
  if (nonEmpty(gguf)) source.ggufUrl = gguf;
  if (nonEmpty(mlcBase)) source.mlc = mlcSourceAt(mlcBase.replace(/\/$/, ''), nonEmpty(mlcLibBase) ? mlcLibBase : MLC_LIBS);
  return source;
}

export function parseBackend(value: string | null): BackendPreference | undefined {
  return value === 'auto' || value === 'webgpu' || value === 'wasm' ? value : undefined;
}
